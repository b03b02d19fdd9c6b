package io.barrierscope.app.threads;

import io.barrierscope.ptx.ScalarType;

/** A register's 64 stored bits as the PTX type reads them: hex of its width, and a decimal or float. */
public final class RegisterFormat {
    private RegisterFormat() {}

    /** Hex of the type's width, e.g. {@code 0x0000002a} for a .u32. */
    public static String hex(ScalarType t, long bits) {
        int width = t.isPred() ? 1 : Math.min(64, t.bits());
        long v = mask(bits, width);
        int digits = Math.max(1, (width + 3) / 4);
        String h = Long.toHexString(v);
        return "0x" + "0".repeat(Math.max(0, digits - h.length())) + h;
    }

    /**
     * The value in decimal as the type reads it: signed for .s, unsigned for .u and .b (with the
     * signed reading beside it when the top bit is set), a float for .f, true/false for .pred.
     */
    public static String decimal(ScalarType t, long bits) {
        int width = Math.min(64, t.bits());
        return switch (t.kind()) {
            case PRED -> (bits & 1) != 0 ? "true" : "false";
            case SIGNED -> String.valueOf(signed(bits, width));
            case UNSIGNED, BITS -> {
                long v = mask(bits, width);
                String u = Long.toUnsignedString(v);
                long s = signed(bits, width);
                yield s < 0 ? u + " (" + s + ")" : u;
            }
            case FLOAT -> floatText(t, bits);
        };
    }

    private static String floatText(ScalarType t, long bits) {
        return switch (t) {
            case F64 -> String.valueOf(Double.longBitsToDouble(bits));
            case F32, TF32 -> String.valueOf(Float.intBitsToFloat((int) bits));
            case F16 -> String.valueOf(half((int) bits & 0xFFFF));
            case BF16 -> String.valueOf(Float.intBitsToFloat(((int) bits & 0xFFFF) << 16));
            case F16X2 -> half((int) bits & 0xFFFF) + ", " + half(((int) bits >>> 16) & 0xFFFF);
            case BF16X2 -> Float.intBitsToFloat(((int) bits & 0xFFFF) << 16) + ", "
                    + Float.intBitsToFloat((int) bits & 0xFFFF0000);
            default -> Long.toUnsignedString(bits);
        };
    }

    /** IEEE binary16 to float (Java 17 has no Float.float16ToFloat). */
    static float half(int h) {
        int sign = (h >>> 15) & 1;
        int exp = (h >>> 10) & 0x1F;
        int frac = h & 0x3FF;
        float v;
        if (exp == 0) v = frac * 0x1p-24f;
        else if (exp == 31) v = frac == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
        else v = (1 + frac / 1024f) * (float) Math.pow(2, exp - 15);
        return sign == 1 ? -v : v;
    }

    private static long mask(long bits, int width) {
        return width >= 64 ? bits : bits & ((1L << width) - 1);
    }

    private static long signed(long bits, int width) {
        return width >= 64 ? bits : (bits << (64 - width)) >> (64 - width);
    }
}
