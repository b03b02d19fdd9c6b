package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;

/**
 * Floating-point instructions on .f32 and .f64 (PTX ISA 9.7.3, 9.7.4). Arithmetic rounds to
 * nearest even (Java's IEEE semantics), which is what .rn and the default mean; .approx
 * functions use the exact function, which lies within the ISA's stated error bounds.
 */
final class FloatOps {
    private FloatOps() {}

    @FunctionalInterface
    interface D1 { double apply(double a); }

    @FunctionalInterface
    interface D2 { double apply(double a, double b); }

    static Op compile(CompileContext c, String opc) {
        ScalarType t = c.type();
        if (t != ScalarType.F32 && t != ScalarType.F64) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (only .f32 and .f64 floating point is modelled)");
        }
        for (String mod : c.insn().modifiers()) {
            if (mod.equals(".rz") || mod.equals(".rm") || mod.equals(".rp")) {
                if (t == ScalarType.F32 && DirectedF32.handles(opc)) return DirectedF32.compile(c, opc, FloatFormat.Round.of(mod));
                if (t == ScalarType.F64 && DirectedF64.handles(opc)) return DirectedF64.compile(c, opc, FloatFormat.Round.of(mod));
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (directed rounding " + mod + " is not modelled)");
            }
        }
        boolean f32 = t == ScalarType.F32;
        boolean ftz = c.has(".ftz");
        boolean sat = c.has(".sat");
        switch (opc) {
            case "add": return bin(c, f32, ftz, sat, true, Double::sum);
            case "sub": return bin(c, f32, ftz, sat, true, (a, b) -> a - b);
            case "mul": return bin(c, f32, ftz, sat, true, (a, b) -> a * b);
            case "div": return bin(c, f32, ftz, sat, true, (a, b) -> a / b);
            case "min", "max": return minMax(c, opc.equals("min"), f32, ftz, sat);
            case "copysign": return bin(c, f32, ftz, sat, false, (a, b) -> Math.copySign(b, a));
            case "fma", "mad": return fma(c, f32, ftz, sat);
            case "abs": return un(c, f32, ftz, sat, false, Math::abs);
            case "neg": return un(c, f32, ftz, sat, false, a -> -a);
            case "rcp": return un(c, f32, ftz, sat, true, a -> 1.0 / a);
            case "sqrt": return un(c, f32, ftz, sat, true, Math::sqrt);
            case "rsqrt": return un(c, f32, ftz, sat, true, a -> 1.0 / Math.sqrt(a));
            case "sin": return un(c, f32, ftz, sat, true, Math::sin);
            case "cos": return un(c, f32, ftz, sat, true, Math::cos);
            case "tanh": return un(c, f32, ftz, sat, true, Math::tanh);
            case "lg2": return un(c, f32, ftz, sat, true, a -> Math.log(a) / Math.log(2));
            case "ex2": return un(c, f32, ftz, sat, true, a -> Math.pow(2, a));
            case "testp": return testp(c, f32);
            default: throw c.error("unsupported instruction " + c.insn().mnemonic());
        }
    }

    /**
     * min/max: a NaN input is ignored unless {@code .NaN} is given (then the result is the canonical
     * NaN); {@code .xorsign.abs} compares magnitudes and gives the result the XOR of the input signs.
     */
    private static Op minMax(CompileContext c, boolean isMin, boolean f32, boolean ftz, boolean sat) {
        boolean nan = c.has(".NaN");
        boolean xorsign = c.has(".xorsign");
        if (xorsign != c.has(".abs")) throw c.error(c.insn().mnemonic() + ": .xorsign and .abs go together");
        D2 base = isMin ? FloatOps::min : FloatOps::max;
        long canonical = f32 ? Values.F32_NAN : Values.F64_NAN;
        c.expectOperands(3, 3);
        int d = c.dst(0);
        ScalarType t = f32 ? ScalarType.F32 : ScalarType.F64;
        Src a = c.src(1, t);
        Src b = c.src(2, t);
        return new FnOp((m, th) -> {
            double x = read(a.get(m, th), f32, ftz);
            double y = read(b.get(m, th), f32, ftz);
            long r;
            if ((nan && (Double.isNaN(x) || Double.isNaN(y))) || (Double.isNaN(x) && Double.isNaN(y))) {
                r = canonical;
            } else if (xorsign) {
                double v = base.apply(Math.abs(x), Math.abs(y));
                boolean neg = (Math.copySign(1.0, x) < 0) != (Math.copySign(1.0, y) < 0);
                r = write(Math.copySign(v, neg ? -1.0 : 1.0), f32, ftz, sat);
            } else {
                r = write(base.apply(x, y), f32, ftz, sat);
            }
            if (d >= 0) m.setReg(th, d, r);
        });
    }

    private static double min(double a, double b) {
        if (Double.isNaN(a)) return b;
        if (Double.isNaN(b)) return a;
        return Math.min(a, b);
    }

    private static double max(double a, double b) {
        if (Double.isNaN(a)) return b;
        if (Double.isNaN(b)) return a;
        return Math.max(a, b);
    }

    static double read(long raw, boolean f32, boolean ftz) {
        if (f32) {
            float f = Values.f32(raw);
            if (ftz && f != 0 && Math.abs(f) < Float.MIN_NORMAL) f = Math.copySign(0f, f);
            return f;
        }
        return Values.f64(raw);
    }

    static long write(double v, boolean f32, boolean ftz, boolean sat) {
        if (sat) v = Double.isNaN(v) ? 0 : Math.max(0, Math.min(1, v));
        if (f32) {
            float f = (float) v;
            if (ftz && f != 0 && Math.abs(f) < Float.MIN_NORMAL) f = Math.copySign(0f, f);
            return Values.bits(f);
        }
        return Values.bits(v);
    }

    /**
     * An f64 result of arithmetic ({@code arith}): a NaN is {@link DirectedF64#CANONICAL_NAN}, so
     * every rounding mode gives the same, deterministic NaN; sign operations keep the JVM's bits.
     */
    static long writeF64(double v, boolean sat, boolean arith) {
        return arith && !sat && Double.isNaN(v) ? DirectedF64.CANONICAL_NAN : write(v, false, false, sat);
    }

    /**
     * An f32 result of arithmetic ({@code arith}): a NaN is the canonical f32 NaN 0x7FFFFFFF (the one
     * min/max .NaN give), never the JVM's payload, which depends on operand order under the JIT.
     */
    static long writeF32(double v, boolean ftz, boolean sat, boolean arith) {
        return arith && !sat && Double.isNaN(v) ? Values.F32_NAN : write(v, true, ftz, sat);
    }

    private static Op bin(CompileContext c, boolean f32, boolean ftz, boolean sat, boolean arith, D2 f) {
        c.expectOperands(3, 3);
        int d = c.dst(0);
        ScalarType t = f32 ? ScalarType.F32 : ScalarType.F64;
        Src a = c.src(1, t);
        Src b = c.src(2, t);
        if (f32) {
            // Two float operands combined in double and rounded once give the correctly rounded float result.
            return new FnOp((m, th) -> {
                double r = f.apply(read(a.get(m, th), true, ftz), read(b.get(m, th), true, ftz));
                if (d >= 0) m.setReg(th, d, writeF32(r, ftz, sat, arith));
            });
        }
        return new FnOp((m, th) -> {
            double r = f.apply(Values.f64(a.get(m, th)), Values.f64(b.get(m, th)));
            if (d >= 0) m.setReg(th, d, writeF64(r, sat, arith));
        });
    }

    private static Op fma(CompileContext c, boolean f32, boolean ftz, boolean sat) {
        c.expectOperands(4, 4);
        int d = c.dst(0);
        ScalarType t = f32 ? ScalarType.F32 : ScalarType.F64;
        Src a = c.src(1, t);
        Src b = c.src(2, t);
        Src cc = c.src(3, t);
        if (f32) {
            return new FnOp((m, th) -> {
                float r = Math.fma((float) read(a.get(m, th), true, ftz), (float) read(b.get(m, th), true, ftz),
                        (float) read(cc.get(m, th), true, ftz));
                if (d >= 0) m.setReg(th, d, writeF32(r, ftz, sat, true));
            });
        }
        return new FnOp((m, th) -> {
            double r = Math.fma(Values.f64(a.get(m, th)), Values.f64(b.get(m, th)), Values.f64(cc.get(m, th)));
            if (d >= 0) m.setReg(th, d, writeF64(r, sat, true));
        });
    }

    private static Op un(CompileContext c, boolean f32, boolean ftz, boolean sat, boolean arith, D1 f) {
        c.expectOperands(2, 2);
        int d = c.dst(0);
        Src a = c.src(1, f32 ? ScalarType.F32 : ScalarType.F64);
        return new FnOp((m, th) -> {
            double r = f.apply(read(a.get(m, th), f32, ftz));
            if (d >= 0) m.setReg(th, d, f32 ? writeF32(r, ftz, sat, arith) : writeF64(r, sat, arith));
        });
    }

    private static Op testp(CompileContext c, boolean f32) {
        c.expectOperands(2, 2);
        int d = c.dst(0);
        Src a = c.src(1, f32 ? ScalarType.F32 : ScalarType.F64);
        String mode = c.insn().modifiers().get(0);
        return new FnOp((m, th) -> {
            double v = read(a.get(m, th), f32, false);
            boolean r = switch (mode) {
                case ".finite" -> Double.isFinite(v);
                case ".infinite" -> Double.isInfinite(v);
                case ".number" -> !Double.isNaN(v);
                case ".notanumber" -> Double.isNaN(v);
                case ".normal" -> v != 0 && Double.isFinite(v) && Math.abs(v) >= (f32 ? Float.MIN_NORMAL : Double.MIN_NORMAL);
                case ".subnormal" -> v != 0 && Math.abs(v) < (f32 ? Float.MIN_NORMAL : Double.MIN_NORMAL);
                default -> false;
            };
            if (d >= 0) m.setReg(th, d, r ? 1 : 0);
        });
    }
}
