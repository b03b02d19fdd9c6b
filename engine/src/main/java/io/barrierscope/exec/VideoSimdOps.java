package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * SIMD video instructions (PTX ISA 9.7.18.2.1 {@code vadd2, vsub2, vavrg2, vabsdiff2, vmin2,
 * vmax2}; 9.7.18.2.2 {@code vset2}; 9.7.18.2.3 the same with 4; 9.7.18.2.4 {@code vset4}):
 * {@code vop.dtype.atype.btype{.sat} d{.mask}, a{.asel}, b{.bsel}, c} (merge) and
 * {@code vop.dtype.atype.btype.add d{.mask}, a{.asel}, b{.bsel}, c} (accumulate); vset has
 * {@code .atype.btype.cmp} instead and no .sat. As the ISA's pseudocode: element i of a's vector
 * is the half-word (2) or byte (4) of the 64-bit {b, a} that asel's i-th digit from the right
 * names (default .h10/.b3210: a's own), b's likewise by bsel (default .h32/.b7654: b's own), each
 * sign- or zero-extended by atype or btype; they are combined element by element (avrg:
 * (x + y + 1) >> 1 when x + y >= 0, else (x + y) >> 1, halves away from zero; vset: 1 or 0); .sat
 * clamps each result to dtype's element range. Merge: element i of d is result i's low bits where
 * the mask has i (default every element), c's element i elsewhere. Accumulate: d = c + the sum of
 * the masked results, modulo 2^32. nvcc emits {@code vabsdiff4} and {@code vabsdiff2.add} for
 * CUDA's {@code __vabsdiffs4}, {@code __vsadu4} and kin.
 */
final class VideoSimdOps extends LaneOp {
    private static final List<String> OPS = List.of("add", "sub", "avrg", "absdiff", "min", "max", "set");
    /** Index into {@link #OPS}: resolved at compile time so a lane does no string switch. */
    private final int op;
    /** Index into {@link VideoOperands#CMPS} for vset, else -1. */
    private final int cmp;
    private final int n;
    private final int w;
    /** .sat's clamp bounds for dtype's element width and sign. */
    private final long lo, hi;
    private final boolean aSigned, bSigned, sat, add;
    /** Element index (0..2n-1) into {b, a} of each lane of a's and b's vectors. */
    private final int[] asel, bsel;
    /** Bit i: element i of d takes result i. */
    private final int mask;
    private final int d;
    private final Src a, b, c;

    private VideoSimdOps(int op, int cmp, int n, boolean[] signs, boolean sat, boolean add, int[] asel, int[] bsel, int mask,
                         int d, Src a, Src b, Src c) {
        this.op = op;
        this.cmp = cmp;
        this.n = n;
        this.w = 32 / n;
        boolean dSigned = signs[0];
        this.lo = dSigned ? -(1L << (w - 1)) : 0;
        this.hi = dSigned ? (1L << (w - 1)) - 1 : (1L << w) - 1;
        this.aSigned = signs[1];
        this.bSigned = signs[2];
        this.sat = sat;
        this.add = add;
        this.asel = asel;
        this.bsel = bsel;
        this.mask = mask;
        this.d = d;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    static boolean names(String opc) { return opc.matches("v(add|sub|avrg|absdiff|min|max|set)[24]"); }

    static Op compile(CompileContext c, String opc) {
        String mn = c.insn().mnemonic();
        boolean set = opc.startsWith("vset");
        int n = opc.charAt(opc.length() - 1) - '0';
        String section = set ? (n == 2 ? "9.7.18.2.2" : "9.7.18.2.4") : (n == 2 ? "9.7.18.2.1" : "9.7.18.2.3");
        boolean[] signs;
        if (set) {
            boolean[] ab = VideoOperands.signs(c, 2, ".atype.btype");
            signs = new boolean[] {false, ab[0], ab[1]}; // the comparison's results are unsigned (9.7.18.2.2)
        } else {
            signs = VideoOperands.signs(c, 3, ".dtype.atype.btype");
        }
        int cmp = -1;
        boolean sat = false, add = false;
        for (String m : VideoOperands.flags(c)) {
            if (set && VideoOperands.CMPS.contains(m) && cmp < 0) cmp = VideoOperands.CMPS.indexOf(m);
            else if (m.equals(".add") && !add) add = true;
            else if (m.equals(".sat") && !set && !sat) sat = true;
            else throw c.error("unsupported instruction " + mn + " (" + m + " is not a modifier of " + opc + ": PTX ISA " + section + ")");
        }
        if (set && cmp < 0) throw c.error("unsupported instruction " + mn + " (" + opc + " needs a comparison .eq, .ne, .lt, .le, .gt or .ge: PTX ISA " + section + ")");
        if (sat && add) throw c.error(mn + ": saturation cannot be used with the secondary accumulate operation .add (PTX ISA " + section + ")");
        c.expectOperands(4, 4);
        for (int i = 0; i < 4; i++) {
            VideoOperands.expectIntRegister(c, i, opc + " takes .b32/.u32/.s32 registers only, no immediates or other widths");
            if (VideoOperands.minus(c.operand(i))) throw c.error(mn + ": " + VideoOperands.describe(c, i) + ": only vmad's operands can be negated");
        }
        if (VideoOperands.selector(c.operand(3)) != null) throw c.error(mn + ": " + VideoOperands.describe(c, 3) + ": c takes no selector (PTX ISA " + section + ")");
        int mask = mask(c, n, section);
        int[] asel = selector(c, 1, n, section, n == 2 ? "h10" : "b3210");
        int[] bsel = selector(c, 2, n, section, n == 2 ? "h32" : "b7654");
        int op = OPS.indexOf(opc.substring(1, opc.length() - 1));
        return new VideoSimdOps(op, cmp, n, signs, sat, add, asel, bsel, mask, c.dst(VideoOperands.reg(c.operand(0))),
                c.src(VideoOperands.reg(c.operand(1)), ScalarType.B32), c.src(VideoOperands.reg(c.operand(2)), ScalarType.B32),
                c.src(VideoOperands.reg(c.operand(3)), ScalarType.B32));
    }

    /** d's mask as bits: .h0, .h1, .h10 (2) or .b0 ... .b3210, digits descending (4); default all. */
    private static int mask(CompileContext c, int n, String section) {
        String s = VideoOperands.selector(c.operand(0));
        if (s == null) return (1 << n) - 1;
        if (!(n == 2 ? VideoOperands.MASKS2 : VideoOperands.MASKS4).contains(s)) {
            throw c.error(c.insn().mnemonic() + ": " + VideoOperands.describe(c, 0) + " is not a mask of " + c.insn().opcode() + " (PTX ISA "
                    + section + ": " + (n == 2 ? ".h0, .h1, .h10" : ".b0, .b1, .b10, .b2, .b20, .b21, .b210, .b3, .b30, .b31, .b310, .b32, .b320,"
                    + " .b321, .b3210") + ")");
        }
        int bits = 0;
        for (int k = 1; k < s.length(); k++) bits |= 1 << (s.charAt(k) - '0');
        return bits;
    }

    /** a's or b's selector: .hxy (x, y in 0-3) or .bxyzw (0-7); the rightmost digit is element 0. */
    private static int[] selector(CompileContext c, int i, int n, String section, String dflt) {
        String s = VideoOperands.selector(c.operand(i));
        if (s == null) s = dflt;
        String form = n == 2 ? "h[0-3]{2}" : "b[0-7]{4}";
        if (!s.matches(form)) {
            throw c.error(c.insn().mnemonic() + ": " + VideoOperands.describe(c, i) + " is not a selector of " + c.insn().opcode() + " (PTX ISA "
                    + section + ": " + (n == 2 ? ".hxy, x and y from 0-3" : ".bxyzw, x, y, z and w from 0-7") + ")");
        }
        int[] out = new int[n];
        for (int k = 0; k < n; k++) out[k] = s.charAt(s.length() - 1 - k) - '0';
        return out;
    }

    private long element(long pool, int idx, boolean signed) {
        return VideoOperands.extract(pool, w * idx, w, signed);
    }

    @Override
    protected void lane(Machine m, int t) {
        long pool = ((b.get(m, t) & 0xFFFFFFFFL) << 32) | (a.get(m, t) & 0xFFFFFFFFL);
        long z = c.get(m, t) & 0xFFFFFFFFL;
        long r = add ? z : 0;
        long em = (1L << w) - 1;
        for (int i = 0; i < n; i++) {
            boolean on = (mask >> i & 1) != 0;
            if (!on) {
                if (!add) r |= z & (em << (w * i));
                continue;
            }
            long p = element(pool, asel[i], aSigned);
            long q = element(pool, bsel[i], bSigned);
            long v = switch (op) {
                case 0 -> p + q;
                case 1 -> p - q;
                case 2 -> p + q >= 0 ? (p + q + 1) >> 1 : (p + q) >> 1;
                case 3 -> Math.abs(p - q);
                case 4 -> Math.min(p, q);
                case 5 -> Math.max(p, q);
                default -> VideoOperands.compare(cmp, p, q) ? 1 : 0;
            };
            if (sat) v = Math.max(lo, Math.min(hi, v));
            if (add) r += v;
            else r |= (v & em) << (w * i);
        }
        if (d >= 0) m.setReg(t, d, r & 0xFFFFFFFFL);
    }
}
