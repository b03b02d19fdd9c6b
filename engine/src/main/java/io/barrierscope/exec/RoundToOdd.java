package io.barrierscope.exec;

/**
 * Exact results of f32/half arithmetic carried in a double rounded to odd: when the true value
 * is not a double, the result is the neighbouring double whose last mantissa bit is 1. A value
 * rounded to odd with 53 bits then rounded once more to a format of at most 51 bits gives the
 * same result as rounding the exact value directly, in every rounding mode (Boldo and
 * Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to
 * odd", IEEE TC 2008). That is how {@link FloatFormat} rounds sums, quotients and roots exactly.
 */
final class RoundToOdd {
    private RoundToOdd() {}

    /** {@code s}, the nearest double of a true value lying on the side {@code dir} of it. */
    private static double odd(double s, double dir) {
        if (dir == 0 || Double.isInfinite(s) || Double.isNaN(s)) return s;
        if ((Double.doubleToRawLongBits(s) & 1) != 0) return s;
        return Math.nextAfter(s, dir > 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
    }

    /** x + y (Knuth's TwoSum gives the exact error of the rounded sum). */
    static double sum(double x, double y) {
        double s = x + y;
        if (Double.isInfinite(s) || Double.isNaN(s)) return s;
        double bb = s - x;
        double err = (x - (s - bb)) + (y - bb);
        return odd(s, err);
    }

    /** a * b + c where the product a * b is exact in a double (factors of at most 26 bits). */
    static double fmaExactProduct(double a, double b, double c) {
        return sum(a * b, c);
    }

    /** a / b for operands of at most 26 significant bits (f32 and narrower). */
    static double div(double a, double b) {
        double q = a / b;
        if (q == 0 || Double.isInfinite(q) || Double.isNaN(q)) return q;
        double r = Math.fma(-q, b, a); // exact: the remainder of a correctly rounded quotient
        return odd(q, Math.signum(r) * Math.signum(b));
    }

    /** sqrt(a) for an operand of at most 26 significant bits. */
    static double sqrt(double a) {
        double s = Math.sqrt(a);
        if (s == 0 || Double.isInfinite(s) || Double.isNaN(s)) return s;
        return odd(s, Math.fma(-s, s, a));
    }

    /** An integer (signed, or unsigned when {@code unsigned}) as a double rounded to odd. */
    static double fromLong(long x, boolean unsigned) {
        boolean neg = !unsigned && x < 0;
        long u = neg ? -x : x; // Long.MIN_VALUE stays 2^63 read as unsigned
        int used = 64 - Long.numberOfLeadingZeros(u);
        double mag;
        if (used <= 53) {
            mag = (double) u; // at most 53 bits: exact
        } else {
            int sh = used - 53;
            long hi = u >>> sh;
            if ((u & ((1L << sh) - 1)) != 0) hi |= 1;
            mag = Math.scalb((double) hi, sh);
        }
        return neg ? -mag : mag;
    }
}
