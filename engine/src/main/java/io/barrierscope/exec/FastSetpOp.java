package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * {@code setp.CMP.{s,u,b}{32,64} p[|q], a, b} without a combining predicate, on registers and
 * immediates: the loop-condition form of nearly every kernel, executed without per-lane
 * indirection. Same results as {@link CompareOps}.
 */
final class FastSetpOp extends Op {
    private static final int EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5;

    private final int cmp;
    private final boolean signed;
    private final boolean narrow;
    private final int p;
    private final int q;
    private final int a;
    private final int b;
    private final long aImm;
    private final long bImm;
    /** Which outcomes make the comparison true: bit 0 less, bit 1 equal, bit 2 greater. */
    private final int accept;
    /** Added to both sides so a signed compare orders unsigned values (0 when signed). */
    private final long bias;

    private FastSetpOp(int cmp, boolean signed, boolean narrow, int p, int q, int a, int b, long aImm, long bImm) {
        this.cmp = cmp;
        this.signed = signed;
        this.narrow = narrow;
        this.p = p;
        this.q = q;
        this.a = a;
        this.b = b;
        this.aImm = aImm;
        this.bImm = bImm;
        this.accept = switch (cmp) {
            case EQ -> 2;
            case NE -> 5;
            case LT -> 1;
            case LE -> 3;
            case GT -> 4;
            default -> 6;
        };
        this.bias = signed ? 0 : Long.MIN_VALUE;
    }

    static Op tryCompile(CompileContext c) {
        java.util.List<String> mods = c.insn().modifiers();
        if (mods.size() != 2 || c.operandCount() != 3) return null;
        ScalarType t = ScalarType.fromName(mods.get(1));
        if (t == null || t.isFloat() || (t.bits() != 32 && t.bits() != 64)) return null;
        int cmp;
        boolean signed = t.isSigned();
        switch (mods.get(0)) {
            case ".eq" -> cmp = EQ;
            case ".ne" -> cmp = NE;
            case ".lt" -> cmp = LT;
            case ".le" -> cmp = LE;
            case ".gt" -> cmp = GT;
            case ".ge" -> cmp = GE;
            case ".lo" -> { cmp = LT; signed = false; }
            case ".ls" -> { cmp = LE; signed = false; }
            case ".hi" -> { cmp = GT; signed = false; }
            case ".hs" -> { cmp = GE; signed = false; }
            default -> { return null; }
        }
        int p;
        int q = -1;
        if (c.operand(0) instanceof Operand.Pair pair) {
            p = c.dst(pair.first());
            q = c.dst(pair.second());
        } else {
            p = c.dst(0);
        }
        int[] r = {-1, -1};
        long[] imm = new long[2];
        if (!c.regsOrIntImms(2, r, imm)) return null;
        return new FastSetpOp(cmp, signed, t.bits() == 32, p, q, r[0], r[1], imm[0], imm[1]);
    }

    private long norm(long v) {
        if (!narrow) return v;
        return signed ? (long) (int) v : v & 0xFFFFFFFFL;
    }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        long[] r = m.regs;
        int wb = (warp << 5) * m.regsPerThread;
        int ai = wb + (a << 5);
        int bi = wb + (b << 5);
        int pi = wb + (p << 5);
        int qi = wb + (q << 5);
        if (active == -1) {
            // A converged full warp: one loop over 32 adjacent registers, no per-lane switch.
            for (int l = 0; l < 32; l++) {
                long va = norm(a >= 0 ? r[ai + l] : aImm) + bias;
                long vb = norm(b >= 0 ? r[bi + l] : bImm) + bias;
                long res = (accept >> (va < vb ? 0 : va == vb ? 1 : 2)) & 1;
                if (p >= 0) r[pi + l] = res;
                if (q >= 0) r[qi + l] = res ^ 1;
            }
        } else {
            for (int act = active; act != 0; act &= act - 1) {
                int l = Integer.numberOfTrailingZeros(act);
                long va = norm(a >= 0 ? r[ai + l] : aImm) + bias;
                long vb = norm(b >= 0 ? r[bi + l] : bImm) + bias;
                long res = (accept >> (va < vb ? 0 : va == vb ? 1 : 2)) & 1;
                if (p >= 0) r[pi + l] = res;
                if (q >= 0) r[qi + l] = res ^ 1;
            }
        }
        advance(m, warp, group);
    }
}
