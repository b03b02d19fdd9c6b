package io.barrierscope.exec;

import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.StateSpace;
import io.barrierscope.ptx.Variable;
import io.barrierscope.sync.SyncCompiler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Links a kernel and the functions it calls into a {@link Program}: places every variable in its
 * space, gives each function its PCs and registers, and compiles every instruction.
 */
public final class ProgramBuilder {
    /** Shared memory a CTA may use on sm_90 (227 KiB). */
    public static final int MAX_SHARED = 227 * 1024;
    private static final int MAX_LOCAL = 512 * 1024;
    /** The constant memory statically sized variables may use (PTX ISA 5.1.3: "currently limited to 64 KB"). */
    static final int MAX_CONST = 64 * 1024;

    private ProgramBuilder() {}

    public static Program build(Module module, String kernelName) { return build(module, kernelName, Space.GLOBAL_BASE); }

    /**
     * As {@link #build(Module, String)} with the module's {@code .global} variables placed from
     * {@code globalBase} on (same module and base: same addresses), so that several modules can
     * share one device address space.
     */
    public static Program build(Module module, String kernelName, long globalBase) {
        Function kernel = module.function(kernelName);
        if (kernel == null || !kernel.entry()) {
            List<String> names = module.entries().stream().map(Function::name).toList();
            throw new IllegalArgumentException("no .entry named '" + kernelName + "' in " + module.sourceName()
                    + (names.isEmpty() ? " (it has no entries)" : "; entries: " + String.join(", ", names)));
        }
        Program p = new Program(module, kernel);
        List<Function> funcs = reachable(module, kernel);
        p.functionPc = new LinkedHashMap<>();
        p.registerBase = new LinkedHashMap<>();
        int pc = 0;
        int regs = 0;
        for (Function f : funcs) {
            p.functionPc.put(f.name(), pc);
            p.registerBase.put(f.name(), regs);
            pc += f.instructions().size() + 1;
            regs += f.registers().size();
        }
        p.entryPc = 0;
        p.regsPerThread = Math.max(1, regs);
        layout(p, module, funcs, globalBase);
        List<Op> code = new ArrayList<>(pc);
        for (Function f : funcs) {
            if (f.instructions().isEmpty()) throw new PtxException(f.pos(), null, "function '" + f.name() + "' has an empty body");
            CompileContext c = new CompileContext(p, f, p.registerBase.get(f.name()));
            int base = p.functionPc.get(f.name());
            for (Instruction in : f.instructions()) {
                Op op = InstructionCompiler.compile(c, in);
                op.pc = base + in.index();
                code.add(op);
            }
            // Control reaching the closing brace returns (exits, for the entry), as nvcc's final ret would.
            Instruction last = f.instructions().get(f.instructions().size() - 1);
            Instruction end = new Instruction(f.instructions().size(), "ret", List.of(), null, List.of(), last.pos(), last.loc(),
                    "ret (end of " + f.name() + ")");
            Op op = InstructionCompiler.compile(c, end);
            op.pc = base + end.index();
            code.add(op);
        }
        p.code = code.toArray(new Op[0]);
        SyncCompiler.link(p);
        return p;
    }

    /**
     * The kernel and every function it calls, in call order; recursion is refused. Functions are
     * told apart by identity: a Function is a record, and its own hashCode and equals would walk
     * every instruction of its body at each lookup.
     */
    private static List<Function> reachable(Module module, Function kernel) {
        List<Function> seen = new ArrayList<>();
        Map<Function, List<Function>> calls = new IdentityHashMap<>();
        Deque<Function> work = new ArrayDeque<>();
        work.add(kernel);
        while (!work.isEmpty()) {
            Function f = work.poll();
            if (calls.containsKey(f)) continue;
            seen.add(f);
            List<Function> callees = new ArrayList<>();
            for (Instruction in : f.instructions()) {
                if (!in.opcode().equals("call")) continue;
                for (Operand o : in.operands()) {
                    if (o instanceof Operand.Symbol s && s.function() != null && s.function().hasBody()) {
                        if (!containsSame(callees, s.function())) callees.add(s.function());
                        work.add(s.function());
                    }
                }
            }
            calls.put(f, callees);
        }
        checkNoCycle(seen, calls);
        return seen;
    }

    private static boolean containsSame(Iterable<Function> fs, Function f) {
        for (Function g : fs) if (g == f) return true;
        return false;
    }

    /**
     * Refuses a call cycle. A depth-first walk with an explicit stack, each function walked once:
     * walked by recursion from every function, a chain of 20,000 calls overflowed the Java stack
     * and calls that meet again (f calls g and h, both call i, ...) took time exponential in the depth.
     */
    private static void checkNoCycle(List<Function> roots, Map<Function, List<Function>> calls) {
        Map<Function, Boolean> onPath = new java.util.IdentityHashMap<>(); // true: on the current path; false: done
        for (Function root : roots) {
            if (onPath.containsKey(root)) continue;
            Deque<Function> path = new ArrayDeque<>();
            Deque<java.util.Iterator<Function>> next = new ArrayDeque<>();
            onPath.put(root, true);
            path.push(root);
            next.push(calls.getOrDefault(root, List.of()).iterator());
            while (!path.isEmpty()) {
                if (!next.peek().hasNext()) {
                    onPath.put(path.pop(), false);
                    next.pop();
                    continue;
                }
                Function g = next.peek().next();
                Boolean state = onPath.get(g);
                if (Boolean.TRUE.equals(state)) throw new PtxException(g.pos(), null, "recursive call of '" + g.name() + "' is not supported");
                if (state == null) {
                    onPath.put(g, true);
                    path.push(g);
                    next.push(calls.getOrDefault(g, List.of()).iterator());
                }
            }
        }
    }

    private static long align(long v, long a) { return a <= 1 ? v : (v + a - 1) / a * a; }

    /** Room kept free beside the module's {@code .global} bytes: the build's own objects and what the caller does next. */
    static long globalsReserve(long maxHeap) { return (16L << 20) + maxHeap / 10; }

    /**
     * The module's {@code .global} variables are allocated whole in the Java heap (each up to 256
     * MiB): their sum is checked against the free heap first (after a collection, so garbage is no
     * reason to refuse), so that several large ones are refused at the declaration that passes
     * what is free, not with an {@link OutOfMemoryError} (docs/reliability.md, "Variable sizes").
     */
    static void globalsFit(Module module, List<Variable> all, long free, long max) {
        long total = globalBytes(all);
        long room = free - globalsReserve(max);
        if (total <= room) return;
        long sum = 0;
        for (Variable v : all) {
            if (v.space() != StateSpace.GLOBAL) continue;
            sum += v.sizeBytes();
            if (sum <= room) continue;
            throw new PtxException(v.pos(), lineOf(module, v), "the module's .global variables need " + mib(total) + " (" + mib(sum)
                    + " with '" + v.name() + "' here) but this Java has about " + mib(free) + " free of " + mib(max)
                    + ", and the emulator holds every .global byte in its heap: give it more with -Xmx in"
                    + " BARRIERSCOPE_JAVA_OPTS (a run counts its copy of them and the race shadow too, and says how much),"
                    + " or declare only what the kernel touches");
        }
    }

    private static void globalsFitTheHeap(Module module, List<Variable> all) {
        Runtime rt = Runtime.getRuntime();
        long max = rt.maxMemory();
        java.util.function.LongSupplier freeNow = () -> max - (rt.totalMemory() - rt.freeMemory());
        if (globalBytes(all) <= freeNow.getAsLong() - globalsReserve(max)) return;
        System.gc();
        globalsFit(module, all, freeNow.getAsLong(), max);
    }

    private static long globalBytes(List<Variable> all) {
        long total = 0;
        for (Variable v : all) if (v.space() == StateSpace.GLOBAL) total += v.sizeBytes();
        return total;
    }

    private static String lineOf(Module module, Variable v) {
        int line = v.pos().line();
        return line >= 1 && line <= module.sourceLines().size() ? module.sourceLines().get(line - 1) : null;
    }

    private static String mib(long bytes) { return (bytes >> 20) + " MiB"; }

    private static void layout(Program p, Module module, List<Function> funcs, long globalBase) {
        p.placements = new HashMap<>();
        p.symbols = new SymbolTable();
        GlobalMemory globals = new GlobalMemory(globalBase);
        long shared = 0;
        long constOff = 0;
        long local = 0;
        long param = 0;
        int dynAlign = 16;
        List<Variable> externShared = new ArrayList<>();
        List<Variable> all = new ArrayList<>(module.variables());
        for (Function f : funcs) all.addAll(f.variables());
        List<byte[]> constImage = new ArrayList<>();
        List<Long> constAt = new ArrayList<>();
        globalsFitTheHeap(module, all);
        for (Variable v : all) {
            long size = v.sizeBytes();
            long a = v.effectiveAlign();
            switch (v.space()) {
                case SHARED -> {
                    if (v.extern() || v.count() < 0) {
                        externShared.add(v);
                        dynAlign = (int) Math.max(dynAlign, a);
                    } else {
                        shared = align(shared, a);
                        place(p, v, Space.SHARED, shared);
                        shared += size;
                    }
                }
                case GLOBAL -> {
                    byte[] data = new byte[(int) Math.min(size, Integer.MAX_VALUE)];
                    if (v.init() != null) System.arraycopy(v.init(), 0, data, 0, Math.min(data.length, v.init().length));
                    GlobalMemory.Segment s = globals.map(v.name(), data, false);
                    p.placements.put(v.id(), new Program.Placement(Space.GLOBAL, s.base()));
                }
                case CONST -> {
                    constOff = align(constOff, a);
                    if (constOff + size > MAX_CONST) {
                        throw new PtxException(v.pos(), lineOf(module, v), "the module's .const variables take " + (constOff + size)
                                + " bytes with '" + v.name() + "'; constant memory holds at most " + MAX_CONST
                                + " (64 KB, PTX ISA 5.1.3): put larger read-only data in .global memory");
                    }
                    place(p, v, Space.CONST, constOff);
                    if (v.init() != null) {
                        constImage.add(v.init());
                        constAt.add(constOff);
                    }
                    constOff += size;
                }
                case LOCAL -> {
                    local = align(local, a);
                    place(p, v, Space.LOCAL, local);
                    local += size;
                }
                case PARAM -> {
                    param = align(param, Math.max(a, 1));
                    place(p, v, Space.THREAD_PARAM, param);
                    param += Math.max(size, 1);
                }
                default -> { }
            }
        }
        for (Function f : funcs) {
            if (f.entry()) continue;
            for (Variable v : f.params()) {
                param = align(param, Math.max(v.effectiveAlign(), 1));
                place(p, v, Space.THREAD_PARAM, param);
                param += Math.max(v.sizeBytes(), 1);
            }
            for (Variable v : f.returns()) {
                param = align(param, Math.max(v.effectiveAlign(), 1));
                place(p, v, Space.THREAD_PARAM, param);
                param += Math.max(v.sizeBytes(), 1);
            }
        }
        p.kernelParams = new ArrayList<>();
        long kp = 0;
        for (Variable v : p.kernel.params()) {
            kp = align(kp, Math.max(v.effectiveAlign(), 1));
            place(p, v, Space.KERNEL_PARAM, kp);
            p.kernelParams.add(new Program.KernelParam(v.name(), (int) kp, (int) v.sizeBytes(), v.type()));
            kp += v.sizeBytes();
        }
        p.kernelParamBytes = (int) kp;
        shared = align(shared, dynAlign);
        if (shared > MAX_SHARED) {
            throw new PtxException(p.kernel.pos(), null, "the kernel declares " + shared
                    + " bytes of shared memory; a CTA can have at most " + MAX_SHARED);
        }
        if (local > MAX_LOCAL) {
            throw new PtxException(p.kernel.pos(), null, "the kernel declares " + local + " bytes of local memory per thread; at most "
                    + MAX_LOCAL + " are supported");
        }
        for (Variable v : externShared) place(p, v, Space.SHARED, shared);
        p.staticSharedBytes = (int) shared;
        p.dynamicSharedOffset = (int) shared;
        p.localPerThread = (int) local;
        p.paramPerThread = (int) param;
        p.constBank = new byte[(int) constOff];
        for (int i = 0; i < constImage.size(); i++) {
            byte[] img = constImage.get(i);
            int at = (int) (long) constAt.get(i);
            System.arraycopy(img, 0, p.constBank, at, Math.min(img.length, p.constBank.length - at));
        }
        p.globalTemplate = globals;
    }

    private static void place(Program p, Variable v, int space, long offset) {
        p.placements.put(v.id(), new Program.Placement(space, offset));
        p.symbols.add(space, v.name(), offset, v.sizeBytes());
    }
}
