package io.barrierscope.exec;

import io.barrierscope.exec.FloatFormat.Round;
import io.barrierscope.ptx.ScalarType;

/**
 * f32 add, sub, mul, fma/mad, div, rcp and sqrt with the directed roundings {@code .rz},
 * {@code .rm}, {@code .rp} (PTX ISA 9.7.3 "Floating-Point Instructions", the rounding modifiers
 * of add, sub, mul, fma, mad, div, rcp and sqrt). The exact result is carried in a double
 * rounded to odd and rounded once into f32 by {@link FloatFormat}; {@code .ftz} flushes subnormal
 * inputs and results, {@code .sat} clamps to [0, 1].
 */
final class DirectedF32 {
    private DirectedF32() {}

    @FunctionalInterface
    private interface Exact {
        double apply(double[] in);
    }

    static boolean handles(String opc) {
        return switch (opc) {
            case "add", "sub", "mul", "fma", "mad", "div", "rcp", "sqrt" -> true;
            default -> false;
        };
    }

    /** The two terms of a sum that came out zero are both +0 (then, and only then, .rm keeps +0). */
    private static boolean bothPlusZero(String opc, double[] in) {
        double p = opc.equals("add") || opc.equals("sub") ? in[0] : in[0] * in[1];
        double q = opc.equals("add") ? in[1] : opc.equals("sub") ? -in[1] : in[2];
        return Double.doubleToRawLongBits(p) == 0 && Double.doubleToRawLongBits(q) == 0;
    }

    static Op compile(CompileContext c, String opc, Round r) {
        boolean ftz = c.has(".ftz");
        boolean sat = c.has(".sat");
        int arity;
        Exact e;
        switch (opc) {
            case "add" -> { arity = 2; e = in -> RoundToOdd.sum(in[0], in[1]); }
            case "sub" -> { arity = 2; e = in -> RoundToOdd.sum(in[0], -in[1]); }
            case "mul" -> { arity = 2; e = in -> in[0] * in[1]; } // 48 bits: exact
            case "fma", "mad" -> { arity = 3; e = in -> RoundToOdd.fmaExactProduct(in[0], in[1], in[2]); }
            case "div" -> { arity = 2; e = in -> RoundToOdd.div(in[0], in[1]); }
            case "rcp" -> { arity = 1; e = in -> RoundToOdd.div(1.0, in[0]); }
            case "sqrt" -> { arity = 1; e = in -> RoundToOdd.sqrt(in[0]); }
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic());
        }
        boolean additive = opc.equals("add") || opc.equals("sub") || opc.equals("fma") || opc.equals("mad");
        c.expectOperands(arity + 1, arity + 1);
        int d = c.dst(0);
        Src[] src = new Src[arity];
        for (int i = 0; i < arity; i++) src[i] = c.src(i + 1, ScalarType.F32);
        return new FnOp((m, th) -> {
            double[] in = new double[arity];
            for (int i = 0; i < arity; i++) in[i] = FloatOps.read(src[i].get(m, th), true, ftz);
            double v = e.apply(in);
            if (v == 0 && r == Round.RM && additive && !bothPlusZero(opc, in)) v = -0.0; // IEEE 754 6.3: x - x is -0 under .rm
            long bits;
            if (Double.isNaN(v)) {
                bits = FloatOps.writeF32(v, ftz, sat, true);
            } else {
                if (sat) v = Math.max(0, Math.min(1, v));
                int f = FloatFormat.F32.encode(v, r, false);
                if (ftz && FloatFormat.F32.isSubnormal(f)) f &= 0x80000000;
                bits = f & 0xFFFFFFFFL;
            }
            if (d >= 0) m.setReg(th, d, bits);
        });
    }
}
