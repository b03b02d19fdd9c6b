package io.barrierscope.exec;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The tests' own model of a narrow float format, written independently of {@link FloatFormat}:
 * every non-negative finite value is listed exactly (BigDecimal) from the format's definition,
 * and rounding picks between the two listed neighbours of the exact input by the IEEE 754 rule
 * for the mode. Codes are magnitudes; the sign bit is added on top.
 */
final class NarrowFloatReference {
    final int ebits;
    final int mbits;
    final boolean ieeeSpecials; // false: E4M3 (no infinity, only all-ones is NaN)
    final int shift;
    final BigDecimal[] values; // values[code] for every finite non-negative code, ascending
    final int nanCode;
    final int infCode;

    NarrowFloatReference(int ebits, int mbits, boolean ieeeSpecials, int shift, int canonicalNaN) {
        this.ebits = ebits;
        this.mbits = mbits;
        this.ieeeSpecials = ieeeSpecials;
        this.shift = shift;
        this.nanCode = canonicalNaN;
        int bias = (1 << (ebits - 1)) - 1;
        int finite = ieeeSpecials ? ((1 << ebits) - 1) << mbits : ((1 << (ebits + mbits)) - 1);
        this.infCode = ieeeSpecials ? finite : -1;
        values = new BigDecimal[finite];
        BigDecimal two = BigDecimal.valueOf(2);
        for (int code = 0; code < finite; code++) {
            int e = code >> mbits;
            int m = code & ((1 << mbits) - 1);
            BigDecimal frac = new BigDecimal(m).divide(two.pow(mbits));
            BigDecimal sig = e == 0 ? frac : BigDecimal.ONE.add(frac);
            int exp = (e == 0 ? 1 : e) - bias;
            values[code] = exp >= 0 ? sig.multiply(two.pow(exp)) : sig.divide(two.pow(-exp));
        }
    }

    static final NarrowFloatReference F16 = new NarrowFloatReference(5, 10, true, 0, 0x7FFF);
    static final NarrowFloatReference BF16 = new NarrowFloatReference(8, 7, true, 0, 0x7FFF);
    static final NarrowFloatReference E4M3 = new NarrowFloatReference(4, 3, false, 0, 0x7F);
    static final NarrowFloatReference E5M2 = new NarrowFloatReference(5, 2, true, 0, 0x7F);

    private static NarrowFloatReference tf32;

    static synchronized NarrowFloatReference tf32() {
        if (tf32 == null) tf32 = new NarrowFloatReference(8, 10, true, 13, 0x7FFFFFFF);
        return tf32;
    }

    int signBit() { return 1 << (ebits + mbits + shift); }

    /** Modes: "rn", "rna", "rz", "rm", "rp". */
    int round(BigDecimal x, boolean negative, String mode, boolean satfinite) {
        int sign = negative ? signBit() : 0;
        BigDecimal a = x.abs();
        int max = values.length - 1;
        int code;
        if (a.compareTo(values[max]) > 0) {
            // Beyond the largest finite value: compare with the next value the grid would have.
            BigDecimal next = values[max].add(values[max].subtract(values[max - 1]));
            boolean nextEven = ((max + 1) & 1) == 0;
            boolean overflow = switch (mode) {
                case "rn" -> a.compareTo(next.add(values[max]).divide(BigDecimal.valueOf(2))) > 0
                        || a.compareTo(next.add(values[max]).divide(BigDecimal.valueOf(2))) == 0 && nextEven;
                case "rna" -> a.compareTo(next.add(values[max]).divide(BigDecimal.valueOf(2))) >= 0;
                case "rz" -> false;
                case "rp" -> !negative;
                case "rm" -> negative;
                default -> throw new IllegalArgumentException(mode);
            };
            if (!overflow || satfinite) return sign | (max << shift);
            return ieeeSpecials ? sign | (infCode << shift) : nanCode;
        }
        int lo = Arrays.binarySearch(values, a, BigDecimal::compareTo);
        if (lo >= 0) {
            code = lo;
        } else {
            int hi = -lo - 1;
            lo = hi - 1;
            int c = a.subtract(values[lo]).compareTo(values[hi].subtract(a));
            code = switch (mode) {
                case "rn" -> c < 0 ? lo : c > 0 ? hi : ((lo & 1) == 0 ? lo : hi);
                case "rna" -> c < 0 ? lo : hi;
                case "rz" -> lo;
                case "rp" -> negative ? lo : hi;
                case "rm" -> negative ? hi : lo;
                default -> throw new IllegalArgumentException(mode);
            };
        }
        return sign | (code << shift);
    }

    /** Rounds a double (NaN to the canonical NaN, infinities by the overflow rule). */
    int round(double v, String mode, boolean satfinite) {
        if (Double.isNaN(v)) return nanCode;
        boolean negative = Double.doubleToRawLongBits(v) < 0;
        if (Double.isInfinite(v)) {
            if (satfinite) return (negative ? signBit() : 0) | ((values.length - 1) << shift);
            return ieeeSpecials ? (negative ? signBit() : 0) | (infCode << shift) : nanCode;
        }
        return round(new BigDecimal(v), negative, mode, satfinite);
    }

    /** The exact value of a pattern; null for NaN. Infinity as +-1e400 is not needed: returns null too. */
    BigDecimal value(int bits) {
        int mag = (bits >>> shift) & ((1 << (ebits + mbits)) - 1);
        if (mag >= values.length) return null;
        BigDecimal v = values[mag];
        return (bits & signBit()) != 0 ? v.negate() : v;
    }

    boolean isNaN(int bits) {
        int mag = (bits >>> shift) & ((1 << (ebits + mbits)) - 1);
        return ieeeSpecials ? mag > infCode : mag == values.length;
    }

    boolean isInf(int bits) {
        int mag = (bits >>> shift) & ((1 << (ebits + mbits)) - 1);
        return ieeeSpecials && mag == infCode;
    }

    /** The value as a double (exact), infinities and NaN included. */
    double toDouble(int bits) {
        if (isNaN(bits)) return Double.NaN;
        boolean neg = (bits & signBit()) != 0;
        if (isInf(bits)) return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        double d = value(bits).doubleValue();
        return d == 0 && neg ? -0.0 : d;
    }
}
