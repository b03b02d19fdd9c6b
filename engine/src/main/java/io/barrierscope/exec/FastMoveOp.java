package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * {@code mov d, a} and {@code selp d, a, b, p} whose sources are registers, immediates or a
 * variable's address: a quarter of the instructions of a typical pipeline kernel (loop counters,
 * addresses of shared variables, phase bits), executed for the warp without per-lane lambdas.
 * Same results as the general forms in {@link ConvertOps} and {@link CompareOps}.
 */
final class FastMoveOp extends Op {
    private final int d;
    /** Source registers (absolute index) or -1 for the immediates beside them. */
    private final int a;
    private final int b;
    private final long aImm;
    private final long bImm;
    /** selp's predicate register, or -1 for mov. */
    private final int p;
    private final boolean pNegated;
    private final long mask;

    private FastMoveOp(int d, int a, long aImm, int b, long bImm, int p, boolean pNegated, int bits) {
        this.d = d;
        this.a = a;
        this.aImm = aImm;
        this.b = b;
        this.bImm = bImm;
        this.p = p;
        this.pNegated = pNegated;
        this.mask = bits >= 64 ? -1L : (1L << bits) - 1;
    }

    /** The fast form of a scalar mov, or null when it needs the general one. */
    static Op mov(CompileContext c, ScalarType t) {
        if (c.operandCount() != 2 || !(c.operand(0) instanceof Operand.Reg dr) || dr.negated()) return null;
        long[] imm = new long[1];
        int a = source(c, c.operand(1), t, imm);
        if (a == NONE) return null;
        return new FastMoveOp(c.dst(0), a, imm[0], -1, 0, -1, false, t.bits());
    }

    /** The fast form of selp, or null when it needs the general one. */
    static Op selp(CompileContext c, ScalarType t) {
        if (c.operandCount() != 4 || !(c.operand(0) instanceof Operand.Reg dr) || dr.negated()) return null;
        if (!(c.operand(3) instanceof Operand.Reg pr)) return null;
        long[] ai = new long[1];
        long[] bi = new long[1];
        int a = source(c, c.operand(1), t, ai);
        int b = source(c, c.operand(2), t, bi);
        if (a == NONE || b == NONE) return null;
        return new FastMoveOp(c.dst(0), a, ai[0], b, bi[0], c.regBase + pr.reg().index(), pr.negated(), t.bits());
    }

    private static final int NONE = -2;

    /** A register's absolute index, or -1 with its value in {@code imm[0]}; NONE for other operands. */
    private static int source(CompileContext c, Operand o, ScalarType t, long[] imm) {
        if (o instanceof Operand.Reg r) return r.negated() ? NONE : c.regBase + r.reg().index();
        if (o instanceof Operand.Imm im) {
            imm[0] = c.immBits(im, t);
            return -1;
        }
        if (o instanceof Operand.Symbol sym) {
            imm[0] = c.symbolAddress(sym);
            return -1;
        }
        return NONE;
    }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        long[] r = m.regs;
        int wb = (warp << 5) * m.regsPerThread;
        int ai = wb + (a << 5);
        int bi = wb + (b << 5);
        int pi = wb + (p << 5);
        int di = wb + (d << 5);
        long want = pNegated ? 0 : 1;
        if (d >= 0 && active == -1 && p < 0) {
            for (int l = 0; l < 32; l++) r[di + l] = (a >= 0 ? r[ai + l] : aImm) & mask;
        } else if (d >= 0) {
            for (int act = active; act != 0; act &= act - 1) {
                int l = Integer.numberOfTrailingZeros(act);
                boolean first = p < 0 || (r[pi + l] & 1) == want;
                r[di + l] = (first ? (a >= 0 ? r[ai + l] : aImm) : (b >= 0 ? r[bi + l] : bImm)) & mask;
            }
        }
        advance(m, warp, group);
    }
}
