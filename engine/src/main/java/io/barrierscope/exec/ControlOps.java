package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;

/** bra, exit, ret, trap, brkpt, nanosleep and the instructions with no effect on our model. */
final class ControlOps {
    private ControlOps() {}

    static Op compile(CompileContext c, String opc) {
        // exit, ret (PTX ISA 9.7.12), trap and brkpt (9.7.19) take no operands: an extra one is refused, not ignored.
        if (!opc.equals("bra") && !opc.equals("nanosleep")) c.expectOperands(0, 0);
        return switch (opc) {
            case "bra" -> bra(c);
            case "exit" -> new ExitOp();
            case "ret" -> new RetOp(c.function == c.program.kernel);
            case "trap" -> new TrapOp();
            case "brkpt" -> new BrkptOp();
            case "nanosleep" -> nanosleep(c);
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic());
        };
    }

    private static Op bra(CompileContext c) {
        c.expectOperands(1, 1);
        if (!(c.operand(0) instanceof Operand.Label l)) throw c.error("bra needs a label");
        int target = c.program.functionPc.get(c.function.name()) + l.target();
        return new BraOp(target);
    }

    /** Branch: lanes whose guard holds jump, the others fall through. */
    static final class BraOp extends Op {
        final int target;

        BraOp(int target) { this.target = target; }

        @Override
        public int branchTarget() { return target; }

        @Override
        public void execute(Interpreter x, int warp, int group, int active) {
            Machine m = x.machine();
            int base = warp << 5;
            if (group != m.existMask[warp] || (active != 0 && active != group)) m.uniform[warp] = false;
            for (int g = group; g != 0; g &= g - 1) {
                int lane = Integer.numberOfTrailingZeros(g);
                if ((active & (1 << lane)) != 0) m.pc[base + lane] = target;
                else m.pc[base + lane]++;
            }
        }
    }

    /** exit: the active lanes exit (semantics.md section 2). */
    static final class ExitOp extends Op {

        @Override
        public int flow() { return FLOW_LEAVE; }

        @Override
        public void execute(Interpreter x, int warp, int group, int active) {
            advance(x.machine(), warp, group & ~active);
            if (active != 0) x.exit(warp, active);
        }
    }

    /** ret: returns from a .func, or exits when executed by the entry. */
    static final class RetOp extends Op {
        final boolean inEntry;

        RetOp(boolean inEntry) { this.inEntry = inEntry; }

        @Override
        public int flow() { return FLOW_LEAVE; }


        @Override
        public void execute(Interpreter x, int warp, int group, int active) {
            Machine m = x.machine();
            advance(m, warp, group & ~active);
            if (active == 0) return;
            if (inEntry) {
                x.exit(warp, active);
                return;
            }
            int base = warp << 5;
            for (int a = active; a != 0; a &= a - 1) {
                int s = base + Integer.numberOfTrailingZeros(a);
                int callPc = m.callStack[s][--m.callDepth[s]];
                ((CallOp) x.op(callPc)).returnTo(m, s);
                m.pc[s] = callPc + 1;
                m.uniform[warp] = false;
            }
        }
    }

    /** trap: ends the run with a diagnostic naming the thread and line. */
    static final class TrapOp extends Op {

        @Override
        public int flow() { return FLOW_LEAVE; }

        @Override
        public void execute(Interpreter x, int warp, int group, int active) {
            Machine m = x.machine();
            advance(m, warp, group & ~active);
            if (active == 0) return;
            int s = (warp << 5) + Integer.numberOfTrailingZeros(active);
            for (int a = active; a != 0; a &= a - 1) m.setStatus((warp << 5) + Integer.numberOfTrailingZeros(a), ThreadStatus.TRAPPED);
            x.report(DiagnosticCode.TRAP, m.threadName(s) + " executed trap at " + x.where(pc)
                    + (Integer.bitCount(active) > 1 ? " (with " + (Integer.bitCount(active) - 1) + " more lanes of its warp)" : ""),
                    new int[] {pc}, new int[] {s}, null);
        }
    }

    /** brkpt: pauses the run like a breakpoint; continuing resumes after it. */
    static final class BrkptOp extends Op {

        @Override
        public void execute(Interpreter x, int warp, int group, int active) {
            advance(x.machine(), warp, group);
            if (active != 0) x.requestBreak();
        }
    }

    /** nanosleep t: the thread sleeps t virtual nanoseconds (at most 1 ms, as the ISA bounds it). */
    static final class NanosleepOp extends Op {
        final Src t;

        NanosleepOp(Src t) { this.t = t; }


        @Override
        public void execute(Interpreter x, int warp, int group, int active) {
            Machine m = x.machine();
            advance(m, warp, group & ~active);
            int base = warp << 5;
            for (int a = active; a != 0; a &= a - 1) {
                int s = base + Integer.numberOfTrailingZeros(a);
                long ns = Math.min(t.get(m, s) & 0xFFFFFFFFL, 1_000_000L);
                x.sleep(s, m.cycles + Math.max(1, ns));
            }
        }
    }

    private static Op nanosleep(CompileContext c) {
        c.expectOperands(1, 1);
        return new NanosleepOp(c.src(0, io.barrierscope.ptx.ScalarType.U32));
    }

    /** An instruction that changes nothing in this model (fences, prefetches, hints). */
    static final class NopOp extends LaneOp {
        @Override
        protected void lane(Machine m, int t) {}
    }
}
