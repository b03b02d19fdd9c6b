package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * SIMD video instructions (PTX ISA 9.7.18.2.2 {@code vadd2, vsub2, vavrg2, vabsdiff2, vmin2,
 * vmax2}; 9.7.18.2.3 the same with 4): {@code vop.dtype.atype.btype{.sat} d, a, b, c} and
 * {@code vop.dtype.atype.btype.add d, a, b, c} with the default selectors and mask (a's elements,
 * b's elements, every element of d): the half-words (2) or bytes (4) of a and b, sign- or
 * zero-extended by atype and btype, are combined element by element (avrg as the ISA's
 * pseudocode: (x + y + 1) >> 1 when x + y >= 0, else (x + y) >> 1, halves away from zero); .sat
 * clamps each result to the element range of dtype (signed or unsigned). Without .add element i of
 * d is result i's low bits; with .add, d = c + the sum of the results, modulo 2^32. nvcc emits
 * {@code vabsdiff4} and {@code vabsdiff2.add} for CUDA's {@code __vabsdiffs4}, {@code __vsadu4}
 * and kin. Explicit masks and selectors (operand suffixes), and the scalar video instructions
 * ({@code vadd}, {@code vset}, ...), are refused by name.
 */
final class VideoSimdOps extends LaneOp {
    private static final List<String> OPS = List.of("add", "sub", "avrg", "absdiff", "min", "max");
    /** Index into {@link #OPS}: resolved at compile time so a lane does no string switch. */
    private final int op;
    private final int n;
    private final int w;
    /** .sat's clamp bounds for dtype's element width and sign. */
    private final long lo, hi;
    private final boolean dSigned, aSigned, bSigned, sat, add;
    private final int d;
    private final Src a, b, c;

    private VideoSimdOps(String op, int n, boolean[] signs, boolean sat, boolean add, int d, Src a, Src b, Src c) {
        this.op = OPS.indexOf(op);
        this.n = n;
        this.w = 32 / n;
        this.dSigned = signs[0];
        this.lo = dSigned ? -(1L << (w - 1)) : 0;
        this.hi = dSigned ? (1L << (w - 1)) - 1 : (1L << w) - 1;
        this.aSigned = signs[1];
        this.bSigned = signs[2];
        this.sat = sat;
        this.add = add;
        this.d = d;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    static boolean names(String opc) { return opc.matches("v(add|sub|avrg|absdiff|min|max)[24]"); }

    static Op compile(CompileContext c, String opc) {
        String mn = c.insn().mnemonic();
        List<ScalarType> ts = c.types();
        if (ts.size() != 3 || ts.stream().anyMatch(t -> t != ScalarType.U32 && t != ScalarType.S32)) {
            throw c.error(mn + " needs three types .dtype.atype.btype, each .u32 or .s32");
        }
        for (String m : c.insn().modifiers()) {
            if (!m.equals(".u32") && !m.equals(".s32") && !m.equals(".sat") && !m.equals(".add")) {
                throw c.error("unsupported instruction " + mn + " (" + m + " is not a modifier of " + opc + ")");
            }
        }
        boolean sat = c.has(".sat");
        boolean add = c.has(".add");
        if (sat && add) throw c.error(mn + ": saturation cannot be used with the secondary accumulate operation .add (PTX ISA 9.7.18.2)");
        c.expectOperands(4, 4);
        c.expectB32Registers(4, opc);
        boolean[] signs = {ts.get(0) == ScalarType.S32, ts.get(1) == ScalarType.S32, ts.get(2) == ScalarType.S32};
        String op = opc.substring(1, opc.length() - 1);
        int n = opc.charAt(opc.length() - 1) - '0';
        return new VideoSimdOps(op, n, signs, sat, add, c.dst(0), c.src(1, ScalarType.B32), c.src(2, ScalarType.B32), c.src(3, ScalarType.B32));
    }

    private long element(long v, int i, boolean signed) {
        long x = (v >>> (w * i)) & ((1L << w) - 1);
        return signed && (x >>> (w - 1)) != 0 ? x - (1L << w) : x;
    }

    @Override
    protected void lane(Machine m, int t) {
        long x = a.get(m, t);
        long y = b.get(m, t);
        long z = c.get(m, t);
        long r = add ? z : 0;
        for (int i = 0; i < n; i++) {
            long p = element(x, i, aSigned);
            long q = element(y, i, bSigned);
            long v = switch (op) {
                case 0 -> p + q;
                case 1 -> p - q;
                case 2 -> p + q >= 0 ? (p + q + 1) >> 1 : (p + q) >> 1;
                case 3 -> Math.abs(p - q);
                case 4 -> Math.min(p, q);
                default -> Math.max(p, q);
            };
            if (sat) v = Math.max(lo, Math.min(hi, v));
            if (add) r += v;
            else r |= (v & ((1L << w) - 1)) << (w * i);
        }
        if (d >= 0) m.setReg(t, d, r & 0xFFFFFFFFL);
    }
}
