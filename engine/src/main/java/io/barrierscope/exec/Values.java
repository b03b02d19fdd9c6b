package io.barrierscope.exec;

import io.barrierscope.ptx.ScalarType;

/** Conversions between raw 64-bit register contents and typed values. */
public final class Values {
    private Values() {}

    /** Sign- or zero-extends the low bits of {@code raw} per {@code t} to a 64-bit integer. */
    public static long norm(long raw, ScalarType t) {
        return switch (t) {
            case S8 -> (byte) raw;
            case S16 -> (short) raw;
            case S32 -> (int) raw;
            case U8, B8 -> raw & 0xFFL;
            case U16, B16, F16, BF16 -> raw & 0xFFFFL;
            case U32, B32, F32, F16X2, BF16X2, TF32 -> raw & 0xFFFFFFFFL;
            case PRED -> raw & 1L;
            default -> raw;
        };
    }

    /** Keeps the low {@code bits} of {@code v} (zero-extended), as registers store them. */
    public static long trunc(long v, int bits) {
        return bits >= 64 ? v : v & ((1L << bits) - 1);
    }

    public static float f32(long raw) { return Float.intBitsToFloat((int) raw); }
    public static double f64(long raw) { return Double.longBitsToDouble(raw); }
    public static long bits(float f) { return Float.floatToRawIntBits(f) & 0xFFFFFFFFL; }

    /** The canonical NaNs every NaN result of arithmetic becomes (docs/semantics.md, section 10): the JVM's payload is not deterministic. */
    public static final long F32_NAN = 0x7FFFFFFFL;
    public static final long F64_NAN = 0x7FFFFFFFFFFFFFFFL;

    /** {@code f}'s bits, a NaN canonical. */
    public static long arithBits(float f) { return Float.isNaN(f) ? F32_NAN : bits(f); }

    /** {@code d}'s bits, a NaN canonical. */
    public static long arithBits(double d) { return Double.isNaN(d) ? F64_NAN : bits(d); }
    public static long bits(double d) { return Double.doubleToRawLongBits(d); }

    /** IEEE half to float. */
    public static float halfToFloat(int h) {
        int s = (h >>> 15) & 1;
        int e = (h >>> 10) & 0x1F;
        int f = h & 0x3FF;
        float v;
        if (e == 0) v = (float) (f * Math.pow(2, -24));
        else if (e == 31) v = f == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        else v = (float) ((1 + f / 1024.0) * Math.pow(2, e - 15));
        return s == 1 ? -v : v;
    }

    /** Double to IEEE half, rounded once to nearest even. */
    public static int doubleToHalf(double v) {
        long b = Double.doubleToRawLongBits(v);
        int sign = (int) ((b >>> 48) & 0x8000);
        int e = (int) ((b >>> 52) & 0x7FF);
        long mant = b & 0xFFFFFFFFFFFFFL;
        if (e == 0x7FF) return sign | 0x7C00 | (mant != 0 ? 0x200 : 0);
        if (e == 0) return sign; // double subnormals are far below the smallest half
        int exp = e - 1023 + 15;
        if (exp >= 31) return sign | 0x7C00;
        long m = mant | (1L << 52);
        int shift = exp >= 1 ? 42 : 43 - exp;
        if (shift >= 54) return sign;
        long half = m >>> shift;
        long rem = m & ((1L << shift) - 1);
        long mid = 1L << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1) != 0)) half++;
        // normal: half holds the implicit bit (1024), so exp-1 in the exponent field plus half adds it back;
        // a carry out of the mantissa moves to the next exponent (65520 and up become infinity).
        return exp >= 1 ? sign | (((exp - 1) << 10) + (int) half) : sign | (int) half;
    }

    /** Float to IEEE half, round to nearest even. */
    public static int floatToHalf(float v) {
        int b = Float.floatToRawIntBits(v);
        int sign = (b >>> 16) & 0x8000;
        int exp = ((b >>> 23) & 0xFF) - 127 + 15;
        int mant = b & 0x7FFFFF;
        if (((b >>> 23) & 0xFF) == 0xFF) return sign | 0x7C00 | (mant != 0 ? 0x200 : 0);
        if (exp >= 31) return sign | 0x7C00;
        if (exp <= 0) {
            if (exp < -10) return sign;
            mant |= 0x800000;
            int shift = 14 - exp;
            int half = mant >>> shift;
            int rem = mant & ((1 << shift) - 1);
            int mid = 1 << (shift - 1);
            if (rem > mid || (rem == mid && (half & 1) != 0)) half++;
            return sign | half;
        }
        int half = sign | (exp << 10) | (mant >>> 13);
        int rem = mant & 0x1FFF;
        if (rem > 0x1000 || (rem == 0x1000 && (half & 1) != 0)) half++;
        return half;
    }
}
