package io.barrierscope.exec;

import io.barrierscope.exec.FloatFormat.Round;
import io.barrierscope.ptx.ScalarType;
import java.math.BigInteger;

/**
 * f64 add, sub, mul, fma/mad, div, rcp and sqrt with the directed roundings {@code .rz},
 * {@code .rm}, {@code .rp} (PTX ISA 9.7.3, the rounding modifiers of add, sub, mul, fma, mad,
 * div, rcp and sqrt on .f64). A double cannot carry these results exactly, so the result rounded
 * to nearest (Java's IEEE arithmetic) is moved one step when the exact result lies on the other
 * side of it: which side is decided exactly, by TwoSum for sums and by exact binary arithmetic (the
 * operands' values as BigInteger times a power of two, multiplying quotients and roots back) for
 * the rest. {@code .rn} stays in {@link FloatOps}.
 */
final class DirectedF64 {
    private DirectedF64() {}

    /**
     * The one NaN f64 arithmetic gives, in every rounding mode (.rn in {@link FloatOps} too): the
     * canonical NaN min/max .NaN give. The JVM's own NaN is no rule: which operand's payload it
     * keeps changes with the JIT tier (interpreted code keeps the second, compiled code the first)
     * and an invalid operation's NaN with the CPU.
     */
    static final long CANONICAL_NAN = Values.F64_NAN;

    static boolean handles(String opc) { return DirectedF32.handles(opc); }

    static Op compile(CompileContext c, String opc, Round r) {
        if (c.has(".ftz") || c.has(".sat")) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (.ftz and .sat are not .f64 forms)");
        }
        int arity = switch (opc) {
            case "rcp", "sqrt" -> 1;
            case "fma", "mad" -> 3;
            default -> 2;
        };
        c.expectOperands(arity + 1, arity + 1);
        int d = c.dst(0);
        Src[] src = new Src[arity];
        for (int i = 0; i < arity; i++) src[i] = c.src(i + 1, ScalarType.F64);
        return new FnOp((m, th) -> {
            double[] in = new double[arity];
            for (int i = 0; i < arity; i++) in[i] = Values.f64(src[i].get(m, th));
            double v = apply(opc, r, in);
            if (d >= 0) m.setReg(th, d, Double.isNaN(v) ? CANONICAL_NAN : Values.bits(v));
        });
    }

    /** The exact result of {@code opc} on {@code in}, rounded once by {@code r}. */
    static double apply(String opc, Round r, double[] in) {
        double a = in[0];
        double b = in.length > 1 ? in[1] : 0;
        double rn = switch (opc) {
            case "add" -> a + b;
            case "sub" -> a - b;
            case "mul" -> a * b;
            case "fma", "mad" -> Math.fma(a, b, in[2]);
            case "div" -> a / b;
            case "rcp" -> 1.0 / a;
            default -> Math.sqrt(a);
        };
        if (Double.isNaN(rn)) return rn;
        boolean exactSpecial = false; // an infinite operand or a division by zero
        for (double x : in) exactSpecial |= !Double.isFinite(x);
        exactSpecial |= (opc.equals("div") && b == 0) || (opc.equals("rcp") && a == 0);
        if (exactSpecial) return rn; // infinities, and zeros divided from them, are exact
        if (Double.isInfinite(rn)) return overflow(rn > 0, r);
        int cmp = compareExact(opc, in, rn); // sign of (exact - rn)
        if (cmp == 0) {
            if (rn == 0 && r == Round.RM && additive(opc) && !bothPlusZero(opc, in)) return -0.0; // IEEE 754 6.3
            return rn;
        }
        return step(rn, cmp, r);
    }

    /**
     * The result in mode {@code r} from {@code rn}, the finite exact value rounded to nearest, and
     * {@code cmp}, the sign of the exact value minus {@code rn}: at most one step away from it.
     */
    static double step(double rn, int cmp, Round r) {
        boolean negative = rn < 0 || (rn == 0 && cmp < 0); // rounding to nearest never crosses zero
        return switch (r) {
            case RM -> cmp < 0 ? Math.nextDown(rn) : rn;
            case RP -> cmp > 0 ? Math.nextUp(rn) : rn;
            case RZ -> negative ? (cmp > 0 ? Math.nextUp(rn) : rn) : (cmp < 0 ? Math.nextDown(rn) : rn);
            default -> rn;
        };
    }

    /** A finite exact result beyond the largest double: the largest finite value or infinity by the mode. */
    private static double overflow(boolean positive, Round r) {
        boolean toInf = switch (r) {
            case RZ -> false;
            case RP -> positive;
            case RM -> !positive;
            default -> true;
        };
        double mag = toInf ? Double.POSITIVE_INFINITY : Double.MAX_VALUE;
        return positive ? mag : -mag;
    }

    private static boolean additive(String opc) {
        return opc.equals("add") || opc.equals("sub") || opc.equals("fma") || opc.equals("mad");
    }

    /** Whether both terms of a sum that is exactly zero are +0 (then, and only then, .rm keeps +0). */
    private static boolean bothPlusZero(String opc, double[] in) {
        double p;
        if (opc.equals("add") || opc.equals("sub")) p = in[0];
        else if (in[0] == 0 || in[1] == 0) p = (Double.doubleToRawLongBits(in[0]) ^ Double.doubleToRawLongBits(in[1])) < 0 ? -0.0 : 0.0;
        else p = 1; // a nonzero product is no +0 term
        double q = opc.equals("add") ? in[1] : opc.equals("sub") ? -in[1] : in[2];
        return Double.doubleToRawLongBits(p) == 0 && Double.doubleToRawLongBits(q) == 0;
    }

    /** The sign of the exact result minus {@code rn} (both finite). */
    private static int compareExact(String opc, double[] in, double rn) {
        switch (opc) {
            case "add", "sub" -> {
                double x = in[0];
                double y = opc.equals("sub") ? -in[1] : in[1];
                if (Math.abs(x) >= 0x1p1000 || Math.abs(y) >= 0x1p1000) return Dyadic.of(x).plus(Dyadic.of(y)).compareTo(Dyadic.of(rn)); // keeps TwoSum clear of overflow
                double bb = rn - x; // TwoSum (Knuth): exact error of a finite rounded sum
                double err = (x - (rn - bb)) + (y - bb);
                return (int) Math.signum(err);
            }
            case "mul" -> {
                return Dyadic.of(in[0]).times(Dyadic.of(in[1])).compareTo(Dyadic.of(rn));
            }
            case "fma", "mad" -> {
                return Dyadic.of(in[0]).times(Dyadic.of(in[1])).plus(Dyadic.of(in[2])).compareTo(Dyadic.of(rn));
            }
            case "div", "rcp" -> {
                double num = opc.equals("div") ? in[0] : 1.0;
                double den = opc.equals("div") ? in[1] : in[0];
                // exact - rn = (num - rn * den) / den
                int s = Dyadic.of(num).compareTo(Dyadic.of(rn).times(Dyadic.of(den)));
                return den < 0 ? -s : s;
            }
            default -> { // sqrt: rn >= 0, exact - rn has the sign of a - rn^2
                Dyadic r = Dyadic.of(rn);
                return Dyadic.of(in[0]).compareTo(r.times(r));
            }
        }
    }

    /**
     * An exact binary value {@code m * 2^e}: a double's own value, and the sums and products of
     * two or three of them. Binary, not BigDecimal, so a subnormal operand costs a shift of a
     * few thousand bits instead of a 1,074-digit decimal expansion.
     */
    private record Dyadic(BigInteger m, int e) {
        static Dyadic of(double x) {
            long bits = Double.doubleToRawLongBits(x);
            int field = (int) ((bits >>> 52) & 0x7FF);
            long mant = bits & ((1L << 52) - 1);
            BigInteger m = BigInteger.valueOf(field == 0 ? mant : mant | (1L << 52));
            return new Dyadic(bits < 0 ? m.negate() : m, field == 0 ? -1074 : field - 1075);
        }

        Dyadic times(Dyadic o) { return new Dyadic(m.multiply(o.m), e + o.e); }

        Dyadic plus(Dyadic o) {
            int k = Math.min(e, o.e);
            return new Dyadic(m.shiftLeft(e - k).add(o.m.shiftLeft(o.e - k)), k);
        }

        int compareTo(Dyadic o) {
            int k = Math.min(e, o.e);
            return m.shiftLeft(e - k).compareTo(o.m.shiftLeft(o.e - k));
        }
    }
}
