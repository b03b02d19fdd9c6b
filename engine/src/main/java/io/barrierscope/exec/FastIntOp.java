package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;

/**
 * The integer instructions that dominate real kernels' address and loop arithmetic (add, sub,
 * mul.lo/.wide, mad.lo/.wide, logic and shifts on 32/64-bit registers and immediates), executed
 * for the whole warp in one loop over the register file with no per-lane indirection. Same
 * results as {@link IntegerOps}; only what is compiled differs.
 */
final class FastIntOp extends Op {
    private static final int ADD = 0, SUB = 1, AND = 2, OR = 3, XOR = 4, SHL = 5, SHR_U = 6, SHR_S = 7,
            MUL_LO = 8, MUL_WIDE_S = 9, MUL_WIDE_U = 10, MAD_LO = 11, MAD_WIDE_S = 12, MAD_WIDE_U = 13;

    private final int kind;
    private final int d;
    private final int a;
    private final int b;
    private final int c;
    private final long aImm;
    private final long bImm;
    private final long cImm;
    private final int bits;
    private final long inMask;
    private final long outMask;

    private FastIntOp(int kind, int d, int[] regs, long[] imms, int bits, int outBits) {
        this.kind = kind;
        this.d = d;
        this.a = regs[0];
        this.b = regs[1];
        this.c = regs[2];
        this.aImm = imms[0];
        this.bImm = imms[1];
        this.cImm = imms[2];
        this.bits = bits;
        this.inMask = bits == 64 ? -1L : (1L << bits) - 1;
        this.outMask = outBits == 64 ? -1L : (1L << outBits) - 1;
    }

    /** The fast form of an integer instruction, or null when it needs the general one. */
    static Op tryCompile(CompileContext cc, String opc, ScalarType t) {
        int bits = t.bits();
        if ((bits != 32 && bits != 64) || t.isFloat() || t == ScalarType.PRED) return null;
        boolean signed = t.isSigned();
        int kind;
        int srcs = 2;
        int outBits = bits;
        java.util.List<String> mods = cc.insn().modifiers();
        int extra = mods.size() - 1;
        switch (opc) {
            case "add" -> kind = ADD;
            case "sub" -> kind = SUB;
            case "and" -> kind = AND;
            case "or" -> kind = OR;
            case "xor" -> kind = XOR;
            case "shl" -> kind = SHL;
            case "shr" -> kind = signed ? SHR_S : SHR_U;
            case "mul", "mad" -> {
                boolean mad = opc.equals("mad");
                srcs = mad ? 3 : 2;
                if (cc.has(".lo")) kind = mad ? MAD_LO : MUL_LO;
                else if (cc.has(".wide") && bits == 32) {
                    kind = mad ? (signed ? MAD_WIDE_S : MAD_WIDE_U) : (signed ? MUL_WIDE_S : MUL_WIDE_U);
                    outBits = 64;
                } else return null;
                extra--;
            }
            default -> { return null; }
        }
        if (extra != 0) return null;
        if (cc.operandCount() != srcs + 1) return null;
        if (!(cc.operand(0) instanceof Operand.Reg dr) || dr.negated()) return null;
        int[] regs = {-1, -1, -1};
        long[] imms = new long[3];
        if (!cc.regsOrIntImms(srcs, regs, imms)) return null;
        return new FastIntOp(kind, cc.dst(0), regs, imms, bits, outBits);
    }

    @Override
    public void execute(Interpreter x, int warp, int group, int active) {
        Machine m = x.machine();
        long[] r = m.regs;
        int wb = (warp << 5) * m.regsPerThread;
        int ai = wb + (a << 5);
        int bi = wb + (b << 5);
        int ci = wb + (c << 5);
        int di = wb + (d << 5);
        if (active == -1 && d >= 0 && kind <= XOR) {
            fullWarp(r, ai, bi, di);
        } else if (active == -1 && d >= 0) {
            fullWarpArith(r, ai, bi, ci, di);
        } else {
            for (int act = active; act != 0; act &= act - 1) {
                int l = Integer.numberOfTrailingZeros(act);
                long va = (a >= 0 ? r[ai + l] : aImm) & inMask;
                long vb = b >= 0 ? r[bi + l] : bImm;
                long v;
                switch (kind) {
                    case ADD -> v = va + vb;
                    case SUB -> v = va - vb;
                    case AND -> v = va & vb;
                    case OR -> v = va | vb;
                    case XOR -> v = va ^ vb;
                    case SHL -> v = (vb & 0xFFFFFFFFL) >= bits ? 0 : va << vb;
                    case SHR_U -> v = (vb & 0xFFFFFFFFL) >= bits ? 0 : va >>> vb;
                    case SHR_S -> v = (bits == 32 ? (long) (int) va : va) >> Math.min(vb & 0xFFFFFFFFL, 63);
                    case MUL_LO -> v = va * vb;
                    case MUL_WIDE_S -> v = (long) (int) va * (long) (int) vb;
                    case MUL_WIDE_U -> v = va * (vb & 0xFFFFFFFFL);
                    case MAD_LO -> v = va * vb + (c >= 0 ? r[ci + l] : cImm);
                    case MAD_WIDE_S -> v = (long) (int) va * (long) (int) vb + (c >= 0 ? r[ci + l] : cImm);
                    default -> v = va * (vb & 0xFFFFFFFFL) + (c >= 0 ? r[ci + l] : cImm);
                }
                if (d >= 0) r[di + l] = v & outMask;
            }
        }
        advance(m, warp, group);
    }

    /** Shifts, multiplies and multiply-adds for a converged full warp: one loop per kind, no per-lane switch. */
    private void fullWarpArith(long[] r, int ai, int bi, int ci, int di) {
        long am = inMask;
        long om = outMask;
        boolean ar = a >= 0;
        boolean br = b >= 0;
        boolean cr = c >= 0;
        switch (kind) {
            case SHL -> {
                for (int l = 0; l < 32; l++) {
                    long vb = br ? r[bi + l] : bImm;
                    r[di + l] = ((vb & 0xFFFFFFFFL) >= bits ? 0 : ((ar ? r[ai + l] : aImm) & am) << vb) & om;
                }
            }
            case SHR_U -> {
                for (int l = 0; l < 32; l++) {
                    long vb = br ? r[bi + l] : bImm;
                    r[di + l] = ((vb & 0xFFFFFFFFL) >= bits ? 0 : ((ar ? r[ai + l] : aImm) & am) >>> vb) & om;
                }
            }
            case SHR_S -> {
                for (int l = 0; l < 32; l++) {
                    long va = (ar ? r[ai + l] : aImm) & am;
                    long vb = br ? r[bi + l] : bImm;
                    r[di + l] = ((bits == 32 ? (long) (int) va : va) >> Math.min(vb & 0xFFFFFFFFL, 63)) & om;
                }
            }
            case MUL_LO -> { for (int l = 0; l < 32; l++) r[di + l] = ((ar ? r[ai + l] : aImm) & am) * (br ? r[bi + l] : bImm) & om; }
            case MUL_WIDE_S -> {
                for (int l = 0; l < 32; l++) r[di + l] = (long) (int) (ar ? r[ai + l] : aImm) * (long) (int) (br ? r[bi + l] : bImm) & om;
            }
            case MUL_WIDE_U -> {
                for (int l = 0; l < 32; l++) r[di + l] = ((ar ? r[ai + l] : aImm) & am) * ((br ? r[bi + l] : bImm) & 0xFFFFFFFFL) & om;
            }
            case MAD_LO -> {
                for (int l = 0; l < 32; l++) {
                    r[di + l] = (((ar ? r[ai + l] : aImm) & am) * (br ? r[bi + l] : bImm) + (cr ? r[ci + l] : cImm)) & om;
                }
            }
            case MAD_WIDE_S -> {
                for (int l = 0; l < 32; l++) {
                    r[di + l] = ((long) (int) (ar ? r[ai + l] : aImm) * (long) (int) (br ? r[bi + l] : bImm) + (cr ? r[ci + l] : cImm)) & om;
                }
            }
            default -> {
                for (int l = 0; l < 32; l++) {
                    r[di + l] = (((ar ? r[ai + l] : aImm) & am) * ((br ? r[bi + l] : bImm) & 0xFFFFFFFFL) + (cr ? r[ci + l] : cImm)) & om;
                }
            }
        }
    }

    /** A converged full warp: one tight loop per operation over 32 adjacent registers. */
    private void fullWarp(long[] r, int ai, int bi, int di) {
        long am = inMask;
        long om = outMask;
        if (a >= 0 && b >= 0) {
            switch (kind) {
                case ADD -> { for (int l = 0; l < 32; l++) r[di + l] = ((r[ai + l] & am) + r[bi + l]) & om; }
                case SUB -> { for (int l = 0; l < 32; l++) r[di + l] = ((r[ai + l] & am) - r[bi + l]) & om; }
                case AND -> { for (int l = 0; l < 32; l++) r[di + l] = r[ai + l] & r[bi + l] & om; }
                case OR -> { for (int l = 0; l < 32; l++) r[di + l] = (r[ai + l] | r[bi + l]) & om; }
                default -> { for (int l = 0; l < 32; l++) r[di + l] = (r[ai + l] ^ r[bi + l]) & om; }
            }
        } else if (a >= 0) {
            long vb = bImm;
            switch (kind) {
                case ADD -> { for (int l = 0; l < 32; l++) r[di + l] = ((r[ai + l] & am) + vb) & om; }
                case SUB -> { for (int l = 0; l < 32; l++) r[di + l] = ((r[ai + l] & am) - vb) & om; }
                case AND -> { for (int l = 0; l < 32; l++) r[di + l] = r[ai + l] & vb & om; }
                case OR -> { for (int l = 0; l < 32; l++) r[di + l] = (r[ai + l] | vb) & om; }
                default -> { for (int l = 0; l < 32; l++) r[di + l] = (r[ai + l] ^ vb) & om; }
            }
        } else {
            for (int l = 0; l < 32; l++) {
                long va = aImm & am;
                long vb = b >= 0 ? r[bi + l] : bImm;
                long v = switch (kind) {
                    case ADD -> va + vb;
                    case SUB -> va - vb;
                    case AND -> va & vb;
                    case OR -> va | vb;
                    default -> va ^ vb;
                };
                r[di + l] = v & om;
            }
        }
    }
}
