package io.barrierscope.exec;

/**
 * The binary floating-point formats PTX narrows to (PTX ISA 5.2.3 "Alternate Floating-Point Data
 * Formats", 9.7.9.21 cvt): their exact values and rounding into them from a double with each of
 * the ISA's rounding modes. One encoder serves every format, so f16, bf16, tf32, e4m3, e5m2 and
 * (for directed rounding) f32 round the same way; results are bit patterns in the format's own
 * width (tf32 as an f32 bit pattern with its 13 low bits zero).
 */
public enum FloatFormat {
    F16(5, 10, true, 0x7FFF),
    BF16(8, 7, true, 0x7FFF),
    /** Stored as an f32 pattern: 1 + 8 + 10 bits in the top 19 bits. */
    TF32(8, 10, true, 0x7FFFFFFF),
    /** OCP FP8 E4M3: no infinities, only S.1111.111 is NaN, largest finite 448. */
    E4M3(4, 3, false, 0x7F),
    E5M2(5, 2, true, 0x7F),
    F32(8, 23, true, 0x7FFFFFFF);

    /** The ISA's rounding modifiers for a floating-point result. */
    public enum Round {
        /** .rn: nearest, ties to even. */ RN,
        /** .rna: nearest, ties away from zero. */ RNA,
        /** .rz: toward zero. */ RZ,
        /** .rm: toward minus infinity. */ RM,
        /** .rp: toward plus infinity. */ RP;

        /** The mode named by a modifier such as {@code rz} or {@code .rz}, or null. */
        public static Round of(String name) {
            String n = name.startsWith(".") ? name.substring(1) : name;
            return switch (n) {
                case "rn" -> RN;
                case "rna" -> RNA;
                case "rz" -> RZ;
                case "rm" -> RM;
                case "rp" -> RP;
                default -> null;
            };
        }
    }

    private final int ebits;
    private final int mbits;
    private final boolean hasInf;
    private final int canonicalNaN;
    private final int bias;
    private final int emin;
    private final int maxFinite;

    FloatFormat(int ebits, int mbits, boolean hasInf, int canonicalNaN) {
        this.ebits = ebits;
        this.mbits = mbits;
        this.hasInf = hasInf;
        this.canonicalNaN = canonicalNaN;
        this.bias = (1 << (ebits - 1)) - 1;
        this.emin = 1 - bias;
        int allOnes = (1 << ebits) - 1;
        // Without infinities the top exponent holds finite values except the all-ones mantissa (NaN).
        this.maxFinite = hasInf ? ((allOnes - 1) << mbits) | ((1 << mbits) - 1) : (allOnes << mbits) | ((1 << mbits) - 2);
    }

    /** Bit width of the stored code (before the tf32 shift). */
    private int codeBits() { return 1 + ebits + mbits; }

    /** Low bits of an f32 pattern below the tf32 code. */
    private int shift() { return this == TF32 ? 13 : 0; }

    public int canonicalNaN() { return canonicalNaN; }

    /** The sign-bit mask of a stored pattern. */
    public int signBit() { return 1 << (codeBits() - 1 + shift()); }

    /** The largest finite magnitude's pattern. */
    public int maxFinite() { return maxFinite << shift(); }

    /** The exact value of a stored pattern. */
    public double decode(int bits) {
        int code = (bits >>> shift()) & ((1 << codeBits()) - 1);
        boolean neg = (code >>> (codeBits() - 1)) != 0;
        int mag = code & ((1 << (codeBits() - 1)) - 1);
        int e = mag >>> mbits;
        int m = mag & ((1 << mbits) - 1);
        double v;
        if (isNaNCode(mag)) {
            return Double.NaN;
        } else if (hasInf && e == (1 << ebits) - 1) {
            v = Double.POSITIVE_INFINITY;
        } else if (e == 0) {
            v = Math.scalb((double) m, emin - mbits);
        } else {
            v = Math.scalb((double) ((1 << mbits) | m), e - bias - mbits);
        }
        return neg ? -v : v;
    }

    public boolean isNaN(int bits) {
        int code = (bits >>> shift()) & ((1 << codeBits()) - 1);
        return isNaNCode(code & ((1 << (codeBits() - 1)) - 1));
    }

    private boolean isNaNCode(int mag) {
        int e = mag >>> mbits;
        int m = mag & ((1 << mbits) - 1);
        if (hasInf) return e == (1 << ebits) - 1 && m != 0;
        return e == (1 << ebits) - 1 && m == (1 << mbits) - 1;
    }

    /**
     * Rounds {@code v} (taken as exact) into this format. {@code satfinite}: NaN stays NaN, a
     * result beyond the largest finite value (infinity included) becomes that value with the sign
     * kept. Otherwise overflow follows IEEE 754 for the mode (a format without infinity gives NaN).
     */
    public int encode(double v, Round r, boolean satfinite) {
        return encode(v, r, satfinite, 0, 0);
    }

    /**
     * Stochastic rounding ({@code cvt.rs}, PTX ISA 9.7.9.21): the magnitude is truncated to this
     * format and rounded away from zero when adding the {@code width}-bit {@code rbits} to the
     * discarded bits carries out of them. The random bits are aligned with the most significant
     * discarded bits (for a normal result of an f32 input these are exactly its low 23 - mbits
     * mantissa bits); beyond the largest finite value the truncation gives that value and a carry
     * gives infinity (the largest finite value with {@code satfinite}).
     */
    public int encodeStochastic(double v, int rbits, int width, boolean satfinite) {
        return encode(v, null, satfinite, rbits, width);
    }

    private int encode(double v, Round r, boolean satfinite, int rbits, int width) {
        if (Double.isNaN(v)) return canonicalNaN;
        long raw = Double.doubleToRawLongBits(v);
        boolean neg = raw < 0;
        int sign = neg ? 1 << (codeBits() - 1) : 0;
        if (Double.isInfinite(v)) return overflowed(sign, neg, r, false, satfinite, true);
        long dexp = (raw >>> 52) & 0x7FF;
        long mant = raw & 0xFFFFFFFFFFFFFL;
        if (dexp == 0 && mant == 0) return sign << shift();
        long big = dexp == 0 ? mant : mant | (1L << 52);
        int e2 = dexp == 0 ? -1074 : (int) dexp - 1075; // v = big * 2^e2
        int lg = 63 - Long.numberOfLeadingZeros(big) + e2;
        int q = Math.max(lg, emin) - mbits; // the quantum of the result
        int drop = q - e2;
        long n;
        boolean up;
        if (drop <= 0) {
            n = big << -drop;
            up = false;
        } else {
            n = drop >= 64 ? 0 : big >>> drop;
            long rem = drop >= 64 ? big : big & ((1L << drop) - 1);
            long halfway = drop >= 64 ? Long.MAX_VALUE : 1L << (drop - 1); // beyond 63 bits the rest is below half
            boolean inexact = rem != 0;
            up = r == null ? carries(rem, drop, rbits, width) : switch (r) {
                case RN -> Long.compareUnsigned(rem, halfway) > 0 || (rem == halfway && drop < 64 && (n & 1) != 0);
                case RNA -> rem == halfway && drop < 64 || Long.compareUnsigned(rem, halfway) > 0;
                case RZ -> false;
                case RP -> inexact && !neg;
                case RM -> inexact && neg;
            };
        }
        if (up) n++;
        if (n == 0) return sign << shift();
        int code;
        if (n < (1L << mbits)) {
            code = (int) n; // subnormal (q == emin - mbits)
        } else {
            int lgn = 63 - Long.numberOfLeadingZeros(n);
            int field = lgn + q + bias;
            long m = (lgn > mbits ? n >>> (lgn - mbits) : n) & ((1L << mbits) - 1);
            code = field >= (1 << ebits) ? Integer.MAX_VALUE : (field << mbits) | (int) m;
        }
        if (code > maxFinite) return overflowed(sign, neg, r, up, satfinite, false);
        return (sign | code) << shift();
    }

    /** Whether {@code rbits} added to the top {@code width} of the {@code drop} discarded bits {@code rem} carries out. */
    private static boolean carries(long rem, int drop, int rbits, int width) {
        long top;
        if (drop >= width) top = drop - width >= 64 ? 0 : rem >>> (drop - width); // drop >= 64: rem holds every bit, all below
        else top = rem << (width - drop);
        return top + (rbits & ((1L << width) - 1)) >= 1L << width;
    }

    /**
     * The pattern for a result too large for the format (or an infinite input): the largest finite
     * value or infinity by the mode (for stochastic rounding, {@code carried}); a format without
     * infinity gives its canonical NaN instead.
     */
    private int overflowed(int sign, boolean neg, Round r, boolean carried, boolean satfinite, boolean infiniteInput) {
        boolean away;
        if (r == null) away = carried; // stochastic: truncation gives the largest finite value, a carry goes past it
        else away = switch (r) {
            case RN, RNA -> true;
            case RZ -> false;
            case RP -> !neg;
            case RM -> neg;
        };
        boolean toInf = !satfinite && (infiniteInput || away);
        if (!toInf) return (sign | maxFinite) << shift();
        if (!hasInf) return canonicalNaN;
        return (sign | (((1 << ebits) - 1) << mbits)) << shift();
    }

    /** Whether a pattern is a subnormal (nonzero, smallest exponent). */
    public boolean isSubnormal(int bits) {
        int mag = (bits >>> shift()) & ((1 << (codeBits() - 1)) - 1);
        return mag != 0 && (mag >>> mbits) == 0;
    }
}
