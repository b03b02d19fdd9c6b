package io.barrierscope.exec;

import io.barrierscope.ptx.Operand;

/**
 * {@code vmad.dtype.atype.btype{.po}{.sat}{.scale} d, {-}a{.asel}, {-}b{.bsel}, {-}c} (PTX ISA
 * 9.7.18.1.3), as its pseudocode: the selected a and b, extended by their types, multiply into a
 * 128-bit product; with {@code .po} 1 is added; a product negated by exactly one minus sign is
 * complemented and 1 added; else a negated c is complemented and 1 added. c is sign-extended when
 * the final result is signed (a signed type, a negated product or a negated c), zero-extended
 * otherwise, and added; {@code .shr7}/{@code .shr15} shift the sum right (arithmetically, keeping
 * 64 bits); {@code .sat} clamps to the s32 or u32 range by the final result's sign; d is the low 32
 * bits. dtype does not enter the ISA's pseudocode, so it changes nothing here. Refused as ptxas
 * refuses them: negation with .po, a negated product together with a negated c (not among the
 * ISA's combinations), selectors on d or c. A negative immediate is refused too: whether it would
 * be the constant or the negate modifier the ISA does not say (it speaks of registers only).
 */
final class VideoMadOp extends LaneOp {
    private final boolean po, negProduct, negC, signedFinal, sat;
    /** 0, 7 or 15. */
    private final int scale;
    private final int d;
    private final VideoOperands.Selected a, b;
    private final Src c;

    private VideoMadOp(boolean po, boolean negProduct, boolean negC, boolean sat, int scale, int d, VideoOperands.Selected[] ab, Src c) {
        this.po = po;
        this.negProduct = negProduct;
        this.negC = negC;
        this.signedFinal = ab[0].signed() || ab[1].signed() || negProduct || negC;
        this.sat = sat;
        this.scale = scale;
        this.d = d;
        this.a = ab[0];
        this.b = ab[1];
        this.c = c;
    }

    static Op compile(CompileContext c) {
        String mn = c.insn().mnemonic();
        boolean[] signs = VideoOperands.signs(c, 3, ".dtype.atype.btype");
        boolean po = false, sat = false;
        int scale = 0;
        for (String m : VideoOperands.flags(c)) {
            if (m.equals(".po") && !po) po = true;
            else if (m.equals(".sat") && !sat) sat = true;
            else if ((m.equals(".shr7") || m.equals(".shr15")) && scale == 0) scale = m.equals(".shr7") ? 7 : 15;
            else throw c.unsupported(m + " is not a modifier of vmad here (PTX ISA 9.7.18.1.3: .po, .sat, one of .shr7/.shr15)");
        }
        c.expectOperands(4, 4);
        VideoOperands.expectIntRegister(c, 0, "d is a 32-bit integer register (PTX ISA 9.7.18.1.3)");
        if (VideoOperands.selector(c.operand(0)) != null || VideoOperands.minus(c.operand(0))) {
            throw c.unsupported(VideoOperands.describe(c, 0) + ": vmad's d takes no selector or sign (PTX ISA 9.7.18.1.3)");
        }
        for (int i = 1; i <= 3; i++) {
            if (c.operand(i) instanceof Operand.Imm imm && imm.value() < 0) {
                throw c.unsupported(VideoOperands.describe(c, i) + " is a negative immediate: the ISA gives vmad register operands and a"
                        + " minus sign that negates; write the value into a register");
            }
        }
        boolean na = VideoOperands.minus(c.operand(1)), nb = VideoOperands.minus(c.operand(2)), nc = VideoOperands.minus(c.operand(3));
        if (po && (na || nb || nc)) throw c.unsupported("operands may not be negated in .po mode (PTX ISA 9.7.18.1.3)");
        if ((na ^ nb) && nc) {
            throw c.unsupported("negation of either (a*b) or c, not both (PTX ISA 9.7.18.1.3: the supported combinations)");
        }
        VideoOperands.Selected[] ab = VideoOperands.scalarAB(c, signs[1], signs[2], true);
        Src cc = VideoOperands.scalarSource(c, 3, false, true);
        return new VideoMadOp(po, na ^ nb, nc, sat, scale, c.dst(VideoOperands.reg(c.operand(0))), ab, cc);
    }

    @Override
    protected void lane(Machine m, int t) {
        long ta = a.get(m, t);
        long tb = b.get(m, t);
        // tmp[127:0] as hi:lo
        long lo = ta * tb;
        long hi = Math.multiplyHigh(ta, tb);
        long cv = c.get(m, t) & 0xFFFFFFFFL;
        long lsb = 0;
        if (po) {
            lsb = 1;
        } else if (negProduct) {
            lo = ~lo;
            hi = ~hi;
            lsb = 1;
        } else if (negC) {
            cv = ~cv & 0xFFFFFFFFL;
            lsb = 1;
        }
        long c64 = signedFinal ? (int) cv : cv;
        long sum = lo + c64;
        hi += (c64 < 0 ? -1 : 0) + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0);
        lo = sum + lsb;
        if (lsb == 1 && lo == 0) hi++;
        if (scale != 0) {
            lo = (lo >>> scale) | (hi << (64 - scale));
            hi = lo < 0 && signedFinal ? -1 : 0; // "& 0xffffffffffffffff": 64 bits kept, read with the final result's sign
        }
        long r = lo;
        if (sat) {
            if (signedFinal) {
                boolean fits = hi == (lo >> 63);
                r = fits ? VideoOperands.clamp(lo, 32, true) : hi < 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE;
            } else {
                r = hi != 0 || Long.compareUnsigned(lo, 0xFFFFFFFFL) > 0 ? 0xFFFFFFFFL : lo;
            }
        }
        if (d >= 0) m.setReg(t, d, r & 0xFFFFFFFFL);
    }
}
