package io.barrierscope.exec;

import java.util.List;

/**
 * The scalar video instructions but vmad (PTX ISA 9.7.18.1): {@code vadd, vsub, vabsdiff, vmin,
 * vmax} (9.7.18.1.1), {@code vshl, vshr} (9.7.18.1.2) and {@code vset} (9.7.18.1.4), each in the
 * three forms of 9.7.18.1: {@code d, a{.asel}, b{.bsel}}, with a secondary operation
 * {@code .add/.min/.max d, a, b, c}, or merging into c {@code d.dsel, a, b, c}. As the ISA's stages
 * say: a and b are the selected byte, half-word or word, sign- or zero-extended by atype and btype
 * (vshl/vshr: b always unsigned); the primary operation gives a signed 34-bit result (vshl keeps
 * the shifted value's low 34 bits, two's complement, that width being the ISA's); .sat clamps it
 * to dtype's range, that of the destination byte or half-word when merging; the secondary
 * operation combines it with c, extended by dtype's sign (vset: unsigned), in full precision; the
 * merge puts its low byte or half-word into c at dsel; d is the low 32 bits.
 */
final class VideoScalarOps extends LaneOp {
    private static final List<String> OPS = List.of("vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset");
    private static final List<String> SECOPS = List.of(".add", ".min", ".max");

    /** Index into {@link #OPS}. */
    private final int op;
    /** Index into {@link VideoOperands#CMPS} (vset), else -1. */
    private final int cmp;
    /** 1 + index into {@link #SECOPS}, or 0 for none. */
    private final int secop;
    private final boolean dSigned, sat, clamp;
    /** The merge position (dsel): bit offset and width, width 0 for none. */
    private final int dShift, dWidth;
    private final int d;
    private final VideoOperands.Selected a, b;
    private final Src c;

    private VideoScalarOps(int op, int cmp, int secop, boolean dSigned, boolean sat, boolean clamp, int[] dsel,
                           int d, VideoOperands.Selected[] ab, Src c) {
        this.op = op;
        this.cmp = cmp;
        this.secop = secop;
        this.dSigned = dSigned;
        this.sat = sat;
        this.clamp = clamp;
        this.dShift = dsel[0];
        this.dWidth = dsel[1];
        this.d = d;
        this.a = ab[0];
        this.b = ab[1];
        this.c = c;
    }

    static boolean names(String opc) { return OPS.contains(opc); }

    static Op compile(CompileContext c, String opc) {
        String mn = c.insn().mnemonic();
        int op = OPS.indexOf(opc);
        boolean set = opc.equals("vset");
        boolean shift = opc.equals("vshl") || opc.equals("vshr");
        boolean[] signs;
        if (set) {
            boolean[] ab = VideoOperands.signs(c, 2, ".atype.btype");
            signs = new boolean[] {false, ab[0], ab[1]}; // the comparison's result, d and c are unsigned (9.7.18.1.4)
        } else {
            signs = VideoOperands.signs(c, 3, shift ? ".dtype.atype.u32" : ".dtype.atype.btype");
            if (shift && signs[2]) throw c.unsupported(opc + "'s b operand type is .u32 (PTX ISA 9.7.18.1.2)");
        }
        int cmp = -1, secop = 0;
        boolean sat = false, clamp = false, mode = false;
        for (String m : VideoOperands.flags(c)) {
            if (set && VideoOperands.CMPS.contains(m) && cmp < 0) cmp = VideoOperands.CMPS.indexOf(m);
            else if (SECOPS.contains(m) && secop == 0) secop = 1 + SECOPS.indexOf(m);
            else if (m.equals(".sat") && !set && !sat) sat = true;
            else if (shift && (m.equals(".clamp") || m.equals(".wrap")) && !mode) {
                mode = true;
                clamp = m.equals(".clamp");
            } else {
                throw c.unsupported(m + " is not a modifier of " + opc + " here (PTX ISA " + section(opc) + ")");
            }
        }
        if (set && cmp < 0) throw c.unsupported("vset needs a comparison .eq, .ne, .lt, .le, .gt or .ge (PTX ISA 9.7.18.1.4)");
        if (shift && !mode) throw c.unsupported(opc + " needs a mode .clamp or .wrap (PTX ISA 9.7.18.1.2)");
        boolean merge = VideoOperands.selector(c.operand(0)) != null;
        if (merge && secop != 0) {
            throw c.unsupported("a destination selector (data merge) and a secondary operation are two different forms (PTX ISA 9.7.18.1)");
        }
        int n = secop != 0 || merge ? 4 : 3;
        if (c.operandCount() != n) {
            throw c.error(mn + " takes " + n + " operands here, found " + c.operandCount() + (n == 3
                    ? ": a fourth operand c goes with a secondary operation (.add, .min, .max) or a destination selector (PTX ISA 9.7.18.1)"
                    : " (d, a, b, c: PTX ISA 9.7.18.1)"));
        }
        VideoOperands.expectIntRegister(c, 0, "d is a 32-bit integer register (PTX ISA 9.7.18.1)");
        if (VideoOperands.minus(c.operand(0))) throw c.error(mn + ": " + VideoOperands.describe(c, 0) + ": a destination cannot be negated");
        int[] dsel = merge ? VideoOperands.scalarSelector(c, 0) : new int[] {0, 0};
        VideoOperands.Selected[] ab = VideoOperands.scalarAB(c, signs[1], signs[2], false);
        Src cc = n == 4 ? VideoOperands.scalarSource(c, 3, false, false) : Src.imm(0);
        return new VideoScalarOps(op, cmp, secop, signs[0], sat, clamp, dsel, c.dst(VideoOperands.reg(c.operand(0))), ab, cc);
    }

    private static String section(String opc) {
        return switch (opc) {
            case "vshl", "vshr" -> "9.7.18.1.2";
            case "vset" -> "9.7.18.1.4";
            default -> "9.7.18.1.1";
        };
    }

    @Override
    protected void lane(Machine m, int t) {
        long ta = a.get(m, t);
        long tb = b.get(m, t);
        long tmp = switch (op) {
            case 0 -> ta + tb;
            case 1 -> ta - tb;
            case 2 -> Math.abs(ta - tb);
            case 3 -> Math.min(ta, tb);
            case 4 -> Math.max(ta, tb);
            // the shifted value as the ISA's signed 34-bit intermediate: its low 34 bits, sign-extended
            case 5 -> ((ta << amount(tb)) << 30) >> 30;
            case 6 -> ta >> amount(tb);
            default -> VideoOperands.compare(cmp, ta, tb) ? 1 : 0;
        };
        if (sat) tmp = VideoOperands.clamp(tmp, dWidth == 0 ? 32 : dWidth, dSigned);
        long cv = c.get(m, t) & 0xFFFFFFFFL;
        if (dSigned) cv = (int) cv;
        long r = switch (secop) {
            case 1 -> tmp + cv;
            case 2 -> Math.min(tmp, cv);
            case 3 -> Math.max(tmp, cv);
            default -> tmp;
        };
        if (dWidth != 0) {
            long mask = ((1L << dWidth) - 1) << dShift;
            r = ((tmp << dShift) & mask) | (cv & ~mask);
        }
        if (d >= 0) m.setReg(t, d, r & 0xFFFFFFFFL);
    }

    /** The shift amount: .clamp caps it at 32, .wrap keeps its low 5 bits (9.7.18.1.2). */
    private long amount(long tb) { return clamp ? Math.min(tb, 32) : tb & 0x1F; }
}
