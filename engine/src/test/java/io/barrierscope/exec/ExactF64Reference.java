package io.barrierscope.exec;

import java.math.BigInteger;

/**
 * An independent reference for f64 arithmetic in the four IEEE 754 rounding modes, written from
 * the definition and sharing no code or method with {@link DirectedF64}: every finite operand is
 * an integer times 2^-1074, so the exact result is a ratio of integers (or the square root of
 * one); its magnitude is scaled by 2^-e to the integer grid of a double (53 bits, or the subnormal
 * grid), cut to an integer plus a guard bit and a sticky bit by BigInteger division or integer
 * square root, and rounded by the mode. Overflow, signed zeros and the special values follow
 * IEEE 754 7.4, 6.3 and 6.1-6.2.
 */
final class ExactF64Reference {
    private ExactF64Reference() {}

    /** |x| as an exact non-negative real: {@code floor(|x| / 2^e)}, whether that floor is exact, and floor(log2 |x|). */
    private interface Magnitude {
        BigInteger floorScaled(int e, boolean[] exact);

        int log2();
    }

    /** num / den, both positive. */
    private record Ratio(BigInteger num, BigInteger den) implements Magnitude {
        public BigInteger floorScaled(int e, boolean[] exact) {
            BigInteger[] qr = e >= 0 ? num.divideAndRemainder(den.shiftLeft(e)) : num.shiftLeft(-e).divideAndRemainder(den);
            exact[0] = qr[1].signum() == 0;
            return qr[0];
        }

        public int log2() {
            int lg = num.bitLength() - den.bitLength();
            boolean below = lg >= 0 ? num.compareTo(den.shiftLeft(lg)) < 0 : num.shiftLeft(-lg).compareTo(den) < 0;
            return below ? lg - 1 : lg;
        }
    }

    /** sqrt(num / den), both positive. */
    private record Root(Ratio square) implements Magnitude {
        public BigInteger floorScaled(int e, boolean[] exact) {
            // floor(sqrt(y)) = isqrt(floor(y)), and sqrt(y) is an integer only if y is a perfect square
            BigInteger y = square.floorScaled(2 * e, exact);
            BigInteger s = y.sqrt();
            exact[0] &= s.multiply(s).equals(y);
            return s;
        }

        public int log2() { return Math.floorDiv(square.log2(), 2); }
    }

    /** x as an integer count of 2^-1074. */
    static BigInteger units(double x) {
        long bits = Double.doubleToRawLongBits(x);
        int field = (int) ((bits >>> 52) & 0x7FF);
        long mant = bits & ((1L << 52) - 1);
        BigInteger m = BigInteger.valueOf(field == 0 ? mant : mant | (1L << 52)).shiftLeft(field == 0 ? 0 : field - 1);
        return bits < 0 ? m.negate() : m;
    }

    private static final BigInteger UNIT = BigInteger.ONE.shiftLeft(1074);

    /** The double a mode gives for an exact nonzero magnitude with a sign. */
    private static double round(Magnitude x, boolean neg, String mode) {
        int lg = x.log2();
        if (lg > 1023) { // 2^1024 or more: past every finite double
            boolean toInf = switch (mode) {
                case "rz" -> false;
                case "rp" -> !neg;
                case "rm" -> neg;
                default -> true;
            };
            double mag = toInf ? Double.POSITIVE_INFINITY : Double.MAX_VALUE;
            return neg ? -mag : mag;
        }
        int e = Math.max(lg, -1022) - 52; // the weight of the last place
        boolean[] exact = new boolean[1];
        BigInteger withGuard = x.floorScaled(e - 1, exact);
        boolean guard = withGuard.testBit(0);
        boolean sticky = !exact[0];
        BigInteger n = withGuard.shiftRight(1);
        boolean up = switch (mode) {
            case "rn" -> guard && (sticky || n.testBit(0));
            case "rz" -> false;
            case "rp" -> !neg && (guard || sticky);
            case "rm" -> neg && (guard || sticky);
            default -> throw new IllegalArgumentException(mode);
        };
        if (up) n = n.add(BigInteger.ONE);
        double mag = Math.scalb(n.doubleValue(), e); // n <= 2^53: exact, and 2^1024 becomes infinity
        return neg ? -mag : mag;
    }

    private static double signed(BigInteger num, BigInteger den, String mode) {
        boolean neg = num.signum() * den.signum() < 0;
        return round(new Ratio(num.abs(), den.abs()), neg, mode);
    }

    /** An integer rounded to a double in {@code mode} (zero is +0). */
    static double fromInteger(BigInteger x, String mode) {
        return x.signum() == 0 ? 0.0 : signed(x, BigInteger.ONE, mode);
    }

    /** The IEEE 754 result of {@code op} ({@code add sub mul fma div rcp sqrt}) on {@code in} in {@code mode}. */
    static double apply(String op, String mode, double... in) {
        for (double x : in) if (Double.isNaN(x)) return Double.NaN;
        double a = in[0];
        double b = in.length > 1 ? in[1] : 0;
        boolean anyInf = false;
        for (double x : in) anyInf |= Double.isInfinite(x);
        if (anyInf || (op.equals("div") && b == 0) || (op.equals("rcp") && a == 0)) {
            // exact results of IEEE 754 6.1 (infinity arithmetic) and 7.3 (division by zero), or NaN (7.2)
            return switch (op) {
                case "add" -> a + b;
                case "sub" -> a - b;
                case "mul" -> a * b;
                case "fma", "mad" -> infiniteFma(a, b, in[2]);
                case "div" -> a / b;
                case "rcp" -> 1 / a;
                default -> Math.sqrt(a);
            };
        }
        BigInteger ua = units(a);
        BigInteger ub = units(b);
        return switch (op) {
            case "add", "sub" -> {
                BigInteger s = op.equals("add") ? ua.add(ub) : ua.subtract(ub);
                double q = op.equals("add") ? b : -b;
                yield s.signum() == 0 ? zeroSum(a, q, mode) : signed(s, UNIT, mode);
            }
            case "mul" -> ua.signum() == 0 || ub.signum() == 0 ? xorZero(a, b) : signed(ua.multiply(ub), UNIT.shiftLeft(1074), mode);
            case "fma", "mad" -> {
                BigInteger s = ua.multiply(ub).add(units(in[2]).shiftLeft(1074));
                double p = ua.signum() == 0 || ub.signum() == 0 ? xorZero(a, b) : 1;
                yield s.signum() == 0 ? zeroSum(p, in[2], mode) : signed(s, UNIT.shiftLeft(1074), mode);
            }
            case "div" -> ua.signum() == 0 ? xorZero(a, b) : signed(ua, ub, mode);
            case "rcp" -> signed(UNIT, ua, mode);
            case "sqrt" -> {
                if (a == 0) yield a; // sqrt(-0) = -0 (IEEE 754 5.4.1)
                if (a < 0) yield Double.NaN;
                yield round(new Root(new Ratio(ua, UNIT)), false, mode);
            }
            default -> throw new IllegalArgumentException(op);
        };
    }

    /** fma with an infinite operand: inf*0 is invalid; otherwise the infinite product or addend decides. */
    private static double infiniteFma(double a, double b, double c) {
        if ((Double.isInfinite(a) && b == 0) || (Double.isInfinite(b) && a == 0)) return Double.NaN;
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            double p = Math.copySign(1, a) * Math.copySign(1, b) * Double.POSITIVE_INFINITY;
            return Double.isInfinite(c) && c != p ? Double.NaN : p;
        }
        return c;
    }

    private static double xorZero(double a, double b) {
        return (Math.copySign(1, a) < 0) != (Math.copySign(1, b) < 0) ? -0.0 : 0.0;
    }

    /** IEEE 754 6.3: an exact zero sum of p and q is their sign when both are zeros of one sign, else +0 (-0 rounding down). */
    private static double zeroSum(double p, double q, String mode) {
        if (p == 0 && q == 0 && Math.copySign(1, p) == Math.copySign(1, q)) return p;
        return mode.equals("rm") ? -0.0 : 0.0;
    }
}
