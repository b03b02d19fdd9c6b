package io.barrierscope.exec;

import io.barrierscope.exec.FloatFormat.Round;
import io.barrierscope.ptx.ScalarType;

/**
 * Half-precision arithmetic on .f16, .f16x2, .bf16 and .bf16x2 (PTX ISA 9.7.4 "Half Precision
 * Floating-Point Instructions": add, sub, mul, fma, neg, abs, min, max, ex2.approx, tanh.approx).
 * The x2 forms work on the two 16-bit halves independently (element 0 in the low half). Each
 * result is the exact value rounded once to nearest even ({@code .rn}, the only rounding the ISA
 * gives these), a NaN result is the canonical NaN 0x7FFF; {@code .ftz} flushes subnormal inputs
 * and results to zero of the same sign, {@code .sat} clamps to [0, 1] (NaN to +0), {@code .relu}
 * (fma) makes a negative result +0.
 */
final class HalfOps {
    private HalfOps() {}

    static boolean isHalf(ScalarType t) {
        return t == ScalarType.F16 || t == ScalarType.F16X2 || t == ScalarType.BF16 || t == ScalarType.BF16X2;
    }

    /** One element's operation on exact values. */
    @FunctionalInterface
    private interface Elem {
        int apply(double[] in);
    }

    static Op compile(CompileContext c, String opc) {
        ScalarType t = c.type();
        FloatFormat f = NarrowFloatCvt.format(t);
        boolean pair = t == ScalarType.F16X2 || t == ScalarType.BF16X2;
        boolean ftz = c.has(".ftz");
        boolean sat = c.has(".sat");
        boolean relu = c.has(".relu");
        for (String m : c.insn().modifiers()) {
            if (m.matches("\\.(rz|rm|rp|rna|rs|rni|rzi|rmi|rpi)")) throw c.unsupported("rounding " + m + " on ." + t.ptxName());
        }
        if (c.has(".oob")) throw c.unsupported(".oob (out-of-bounds operand handling) is not modelled");
        boolean approxOp = opc.equals("ex2") || opc.equals("tanh");
        if (c.has(".approx") != approxOp) throw c.unsupported(approxOp ? opc + " on half types needs .approx" : ".approx goes with ex2 and tanh only");
        if (relu && !opc.equals("fma")) throw c.unsupported(".relu goes with fma only");
        if (sat && f == FloatFormat.BF16) throw c.unsupported(".sat is not an ISA modifier for ." + t.ptxName());
        if (relu && sat) throw c.unsupported(".relu and .sat together");
        int arity;
        Elem e;
        switch (opc) {
            case "add" -> { arity = 2; e = in -> finish(f, RoundToOdd.sum(in[0], in[1]), ftz, sat, relu); }
            case "sub" -> { arity = 2; e = in -> finish(f, RoundToOdd.sum(in[0], -in[1]), ftz, sat, relu); }
            case "mul" -> { arity = 2; e = in -> finish(f, in[0] * in[1], ftz, sat, relu); } // 22 bits: exact
            case "fma" -> {
                if (!c.has(".rn")) throw c.unsupported("fma on ." + t.ptxName() + " needs .rn");
                arity = 3;
                e = in -> finish(f, RoundToOdd.fmaExactProduct(in[0], in[1], in[2]), ftz, sat, relu);
            }
            case "ex2" -> {
                // The exact 2^x rounded once: within the ISA's bound for ex2.approx on half types.
                arity = 1;
                e = in -> finish(f, Math.pow(2, in[0]), ftz, false, false);
            }
            case "tanh" -> {
                // The exact tanh rounded once: within the ISA's bound for tanh.approx on half types.
                arity = 1;
                e = in -> finish(f, Math.tanh(in[0]), ftz, false, false);
            }
            case "neg", "abs", "min", "max" -> { return signOps(c, opc, f, pair, ftz); }
            default -> throw c.unsupported(opc + " on ." + t.ptxName() + " is not modelled");
        }
        return build(c, f, pair, ftz, arity, e);
    }


    /** Rounds an exact (or rounded-to-odd) result into the format with the instruction's modifiers. */
    private static int finish(FloatFormat f, double v, boolean ftz, boolean sat, boolean relu) {
        if (sat) v = Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v));
        int bits = f.encode(v, Round.RN, false);
        if (ftz && f.isSubnormal(bits)) bits &= f.signBit();
        if (relu && !f.isNaN(bits) && (bits & f.signBit()) != 0) bits = 0;
        return bits;
    }

    /**
     * The sum of two half patterns (or of each half of two pairs, element 0 low) rounded once to
     * nearest even, subnormals kept: {@code atom/red.add.noftz} on .f16, .f16x2, .bf16, .bf16x2.
     */
    static long addNoFtz(FloatFormat f, boolean pair, long a, long b) {
        long out = 0;
        for (int h = 0; h < (pair ? 2 : 1); h++) {
            double x = f.decode((int) (a >>> (16 * h)) & 0xFFFF);
            double y = f.decode((int) (b >>> (16 * h)) & 0xFFFF);
            out |= ((long) finish(f, RoundToOdd.sum(x, y), false, false, false) & 0xFFFF) << (16 * h);
        }
        return out;
    }

    /** The value of a half pattern, a subnormal read as zero under .ftz. */
    static double value(FloatFormat f, int bits, boolean ftz) { return in(f, bits, ftz); }

    private static double in(FloatFormat f, int bits, boolean ftz) {
        if (ftz && f.isSubnormal(bits)) return (bits & f.signBit()) != 0 ? -0.0 : 0.0;
        return f.decode(bits);
    }

    private static Op build(CompileContext c, FloatFormat f, boolean pair, boolean ftz, int arity, Elem e) {
        c.expectOperands(arity + 1, arity + 1);
        int d = c.dst(0);
        Src[] src = new Src[arity];
        for (int i = 0; i < arity; i++) src[i] = c.src(i + 1, pair ? ScalarType.B32 : ScalarType.B16);
        int lanes = pair ? 2 : 1;
        return new FnOp((m, th) -> {
            long[] raw = new long[arity];
            for (int i = 0; i < arity; i++) raw[i] = src[i].get(m, th);
            long out = 0;
            double[] in = new double[arity];
            for (int h = 0; h < lanes; h++) {
                for (int i = 0; i < arity; i++) in[i] = in(f, (int) (raw[i] >>> (16 * h)) & 0xFFFF, ftz);
                out |= ((long) e.apply(in) & 0xFFFF) << (16 * h);
            }
            if (d >= 0) m.setReg(th, d, out);
        });
    }

    /**
     * neg and abs flip or clear the sign bit (NaN included); min/max follow the f32 rules: a NaN
     * operand is ignored unless {@code .NaN}, two NaNs give the canonical NaN, -0 is below +0,
     * {@code .xorsign.abs} compares magnitudes and signs the result with the XOR of the signs.
     */
    private static Op signOps(CompileContext c, String opc, FloatFormat f, boolean pair, boolean ftz) {
        int sign = f.signBit();
        int canon = f.canonicalNaN();
        if (opc.equals("neg") || opc.equals("abs")) {
            boolean neg = opc.equals("neg");
            c.expectOperands(2, 2);
            int d = c.dst(0);
            Src a = c.src(1, pair ? ScalarType.B32 : ScalarType.B16);
            int lanes = pair ? 2 : 1;
            return new FnOp((m, th) -> {
                long x = a.get(m, th);
                long out = 0;
                for (int h = 0; h < lanes; h++) {
                    int b = (int) (x >>> (16 * h)) & 0xFFFF;
                    if (ftz && f.isSubnormal(b)) b &= sign;
                    b = neg ? b ^ sign : b & ~sign;
                    out |= (long) (b & 0xFFFF) << (16 * h);
                }
                if (d >= 0) m.setReg(th, d, out);
            });
        }
        boolean isMin = opc.equals("min");
        boolean nan = c.has(".NaN");
        boolean xorsign = c.has(".xorsign");
        if (xorsign != c.has(".abs")) throw c.error(c.insn().mnemonic() + ": .xorsign and .abs go together");
        return build(c, f, pair, ftz, 2, in -> {
            double x = in[0];
            double y = in[1];
            boolean xn = Double.isNaN(x);
            boolean yn = Double.isNaN(y);
            if ((xn && yn) || (nan && (xn || yn))) return canon;
            if (xn) return keep(f, y, ftz);
            if (yn) return keep(f, x, ftz);
            if (xorsign) {
                double v = isMin ? Math.min(Math.abs(x), Math.abs(y)) : Math.max(Math.abs(x), Math.abs(y));
                boolean negative = (Math.copySign(1.0, x) < 0) != (Math.copySign(1.0, y) < 0);
                return keep(f, negative ? -v : v, ftz);
            }
            return keep(f, isMin ? Math.min(x, y) : Math.max(x, y), ftz);
        });
    }

    /** A value that is already in the format, back to its pattern. */
    private static int keep(FloatFormat f, double v, boolean ftz) {
        return finish(f, v, ftz, false, false);
    }
}
