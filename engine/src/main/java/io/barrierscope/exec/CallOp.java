package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.Variable;
import java.util.List;

/**
 * {@code call} to a {@code .func} with {@code .param} passing (arguments copied into the callee's
 * parameters, return values copied back by {@code ret}), or to the device runtime's
 * {@code vprintf} and {@code __assertfail}, and the device heap's {@code malloc}, {@code free} and
 * {@code __nv_aligned_device_malloc} ({@link DeviceHeap}), and CUDA graphs' {@code cudaGraphSetConditional}
 * ({@link GraphConditional}).
 */
final class CallOp extends Op {
    static final int MAX_DEPTH = 64;

    private final int target;
    private final String builtin;
    /** Per copied value: caller offset, callee offset, size (thread param space). */
    private final int[] argCopies;
    private final int[] retCopies;

    @Override
    public int flow() { return FLOW_CALL; }

    private CallOp(int target, String builtin, int[] argCopies, int[] retCopies) {
        this.target = target;
        this.builtin = builtin;
        this.argCopies = argCopies;
        this.retCopies = retCopies;
    }

    static Op compile(CompileContext c) {
        List<Operand> ops = c.insn().operands();
        int i = 0;
        List<Operand> rets = List.of();
        if (i < ops.size() && ops.get(i) instanceof Operand.ParenList p) {
            rets = p.elements();
            i++;
        }
        if (i >= ops.size() || !(ops.get(i) instanceof Operand.Symbol sym) || sym.function() == null) {
            throw c.error("call needs a function name (indirect calls are not supported)");
        }
        i++;
        List<Operand> args = i < ops.size() && ops.get(i) instanceof Operand.ParenList p ? p.elements() : List.of();
        Function f = sym.function();
        if (!f.hasBody()) {
            String name = f.name();
            // The device runtime's functions the engine provides (a kernel's .extern .func of another name is refused).
            if (DeviceBuiltins.NAMES.contains(name)) {
                int need = switch (name) {
                    case "malloc", "free" -> 1;
                    case DeviceBuiltins.ALIGNED_MALLOC, GraphConditional.FUNCTION -> 2;
                    default -> 0;
                };
                boolean allocates = name.endsWith("malloc"); // malloc and __cuda_syscall_aligned_malloc return the pointer
                if (args.size() < need || (allocates && rets.isEmpty())) {
                    throw c.error("call to " + name + " passes " + args.size() + " arguments and " + rets.size()
                            + " return values; it takes " + need + " and returns " + (allocates ? "one" : "none"));
                }
                int[] a = new int[args.size()];
                for (int k = 0; k < a.length; k++) a[k] = paramOffset(c, args.get(k));
                int r = rets.isEmpty() ? -1 : paramOffset(c, rets.get(0));
                if (allocates || name.equals("free")) c.program.usesDeviceHeap = true;
                return new CallOp(-1, name, a, new int[] {r});
            }
            throw c.error("unsupported external function '" + name + "' (only " + String.join(", ", DeviceBuiltins.NAMES) + " are provided)");
        }
        if (args.size() != f.params().size()) {
            throw c.error("call passes " + args.size() + " arguments but " + f.name() + " takes " + f.params().size());
        }
        if (rets.size() != f.returns().size()) {
            throw c.error("call expects " + rets.size() + " return values but " + f.name() + " returns " + f.returns().size());
        }
        int[] argCopies = copies(c, args, f.params(), true);
        int[] retCopies = copies(c, rets, f.returns(), false);
        return new CallOp(c.program.functionPc.get(f.name()), null, argCopies, retCopies);
    }

    private static int paramOffset(CompileContext c, Operand o) {
        if (o instanceof Operand.Symbol s && s.variable() != null) {
            Program.Placement p = c.program.placements.get(s.variable().id());
            if (p != null && p.space() == Space.THREAD_PARAM) return (int) p.address();
        }
        throw c.error("call arguments must be .param variables");
    }

    private static int[] copies(CompileContext c, List<Operand> callerVars, List<Variable> calleeVars, boolean in) {
        int[] out = new int[callerVars.size() * 3];
        for (int k = 0; k < callerVars.size(); k++) {
            int caller = paramOffset(c, callerVars.get(k));
            Variable v = calleeVars.get(k);
            int callee = (int) c.program.placements.get(v.id()).address();
            out[3 * k] = in ? caller : callee;
            out[3 * k + 1] = in ? callee : caller;
            out[3 * k + 2] = (int) v.sizeBytes();
        }
        return out;
    }


    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        advance(m, warp, group & ~active);
        int base = warp << 5;
        for (int a = active; a != 0; a &= a - 1) {
            int s = base + Integer.numberOfTrailingZeros(a);
            if (builtin != null) {
                try {
                    builtin(x, m, s);
                } catch (MemoryFault f) {
                    // e.g. a printf %s argument that points nowhere: reported for the thread that passed it
                    x.report(f.code(), m.threadName(s) + ": " + f.getMessage() + " in " + builtin + " called at " + x.where(pc),
                            new int[] {pc}, new int[] {s}, null);
                    return;
                } catch (GraphConditional.Misuse g) {
                    x.report(g.code, m.threadName(s) + ": " + g.getMessage() + " (" + builtin + " called at " + x.where(pc) + ")",
                            new int[] {pc}, new int[] {s}, null);
                    return;
                } catch (DeviceHeap.Misuse h) {
                    x.report(h.code, m.threadName(s) + ": " + h.getMessage() + " in " + builtin + " called at " + x.where(pc),
                            new int[] {pc}, new int[] {s}, null);
                    return;
                }
                if (x.finished()) return;
                m.pc[s]++;
                m.uniform[warp] = false;
                continue;
            }
            copy(m, s, argCopies);
            if (m.callStack[s] == null) m.callStack[s] = new int[MAX_DEPTH];
            if (m.callDepth[s] == MAX_DEPTH) {
                x.report(DiagnosticCode.CALL_DEPTH, m.threadName(s) + " exceeded the call depth of " + MAX_DEPTH,
                        new int[] {pc}, new int[] {s}, null);
                return;
            }
            m.callStack[s][m.callDepth[s]++] = pc;
            m.pc[s] = target;
            m.uniform[warp] = false;
        }
    }

    private static void copy(Machine m, int s, int[] copies) {
        byte[] p = m.memory.threadParams;
        int base = s * m.memory.paramPerThread;
        for (int k = 0; k < copies.length; k += 3) {
            System.arraycopy(p, base + copies[k], p, base + copies[k + 1], copies[k + 2]);
        }
    }

    /** Called by ret: copies the callee's return values into the caller's variables. */
    void returnTo(Machine m, int s) { copy(m, s, retCopies); }

    private void builtin(Interpreter x, Machine m, int s) {
        Memory mem = m.memory;
        switch (builtin) {
            case "malloc" -> {
                long p = DeviceHeap.malloc(mem, s, mem.load(Space.THREAD_PARAM, argCopies[0], 8, s), DeviceHeap.ALIGN);
                mem.store(Space.THREAD_PARAM, retCopies[0], 8, p, s);
                return;
            }
            case DeviceBuiltins.ALIGNED_MALLOC -> {
                long align = mem.load(Space.THREAD_PARAM, argCopies[1], 8, s);
                if (align == 0 || (align & (align - 1)) != 0) {
                    throw new DeviceHeap.Misuse(DiagnosticCode.HEAP_BAD_ALIGNMENT, "__nv_aligned_device_malloc with alignment " + Long.toUnsignedString(align)
                            + " (it must be a non-zero power of two)");
                }
                long p = DeviceHeap.malloc(mem, s, mem.load(Space.THREAD_PARAM, argCopies[0], 8, s), align);
                mem.store(Space.THREAD_PARAM, retCopies[0], 8, p, s);
                return;
            }
            case "free" -> {
                DeviceHeap.free(mem, s, mem.load(Space.THREAD_PARAM, argCopies[0], 8, s));
                return;
            }
            case GraphConditional.FUNCTION -> {
                GraphConditional.set(mem, s, mem.load(Space.THREAD_PARAM, argCopies[0], 8, s), mem.load(Space.THREAD_PARAM, argCopies[1], 4, s));
                return;
            }
            default -> { }
        }
        if (builtin.equals("vprintf")) {
            long fmt = mem.load(Space.THREAD_PARAM, argCopies[0], 8, s);
            long args = argCopies.length > 1 ? mem.load(Space.THREAD_PARAM, argCopies[1], 8, s) : 0;
            // CUDA: printf returns the number of arguments parsed, or -1 when the format is NULL.
            int result = -1;
            if (fmt != 0) {
                DevicePrintf.Result r = DevicePrintf.formatWithCount(mem, s, fmt, args);
                x.printf(s, r.text());
                result = r.args();
            }
            if (retCopies[0] >= 0) mem.store(Space.THREAD_PARAM, retCopies[0], 4, result, s);
            return;
        }
        String msg = mem.loadString(mem.load(Space.THREAD_PARAM, argCopies[0], 8, s), s, 4096);
        String file = argCopies.length > 1 ? mem.loadString(mem.load(Space.THREAD_PARAM, argCopies[1], 8, s), s, 4096) : "?";
        long line = argCopies.length > 2 ? mem.load(Space.THREAD_PARAM, argCopies[2], 4, s) : 0;
        x.report(DiagnosticCode.ASSERT_FAILED, m.threadName(s) + ": assertion `" + msg + "` failed at " + file + ":" + line,
                new int[] {pc}, new int[] {s}, null);
    }
}
