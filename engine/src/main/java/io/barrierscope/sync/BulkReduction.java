package io.barrierscope.sync;

import io.barrierscope.exec.Values;
import io.barrierscope.ptx.ScalarType;

/**
 * The element operation of {@code cp.reduce.async.bulk} and {@code cp.reduce.async.bulk.tensor}
 * (PTX ISA 9.7.9.25.4.2, 9.7.9.25.5.3): {@code new = old OP src} per element of the type, each
 * element an atomic read-modify-write of the destination. inc/dec are the wrapping counters of
 * {@code atom.inc/dec}: inc gives 0 when old >= src else old + 1; dec gives src when old is 0 or
 * old > src, else old - 1 (unsigned). f32/f64 add rounds to nearest even, as Java's float arithmetic
 * (the tensor form's text says nothing of subnormals, so they are kept there).
 */
final class BulkReduction {
    private BulkReduction() {}

    static final String[] OPS = {".add", ".min", ".max", ".and", ".or", ".xor", ".inc", ".dec"};
    static final int ADD = 0, MIN = 1, MAX = 2, AND = 3, OR = 4, XOR = 5, INC = 6, DEC = 7;

    /** The reduction op named among the modifiers, or -1. */
    static int op(java.util.List<String> mods) {
        for (int i = 0; i < OPS.length; i++) if (mods.contains(OPS[i])) return i;
        return -1;
    }

    private static boolean integer32or64(ScalarType t) {
        return t == ScalarType.B32 || t == ScalarType.U32 || t == ScalarType.S32
                || t == ScalarType.B64 || t == ScalarType.U64 || t == ScalarType.S64;
    }

    /**
     * Whether the ISA's table lists {@code op} for element type {@code t} of a tensor map
     * (cp.reduce.async.bulk.tensor): add .u32 .s32 .u64 .f32; min/max .u32 .s32 .u64 .s64;
     * inc/dec .u32; and/or/xor .b32 .b64 (a map's 32- and 64-bit integer types). The table also
     * lists .f16/.bf16 add/min/max, which this engine refuses (no half-precision arithmetic here).
     */
    static boolean tensorTypeListed(int op, ScalarType t) {
        return switch (op) {
            case ADD -> t == ScalarType.U32 || t == ScalarType.S32 || t == ScalarType.U64 || t == ScalarType.F32;
            case MIN, MAX -> t == ScalarType.U32 || t == ScalarType.S32 || t == ScalarType.U64 || t == ScalarType.S64;
            case INC, DEC -> t == ScalarType.U32;
            default -> integer32or64(t);
        };
    }

    /**
     * Whether the ISA's table lists {@code op .t} for plain cp.reduce.async.bulk: to
     * shared::cluster add .u32 .s32 .u64, min/max .u32 .s32, inc/dec .u32, and/or/xor .b32; to
     * global add .u32 .s32 .u64 .f32 .f64, min/max .u32 .s32 .u64 .s64, inc/dec .u32, and/or/xor
     * .b32 .b64 (its .f16/.bf16 forms are refused here). For the bitwise operations the integer
     * types of the same sizes are taken too: the ISA's own example {@code .xor.s32} uses one.
     */
    static boolean plainTypeListed(int op, ScalarType t, boolean global) {
        return switch (op) {
            case ADD -> t == ScalarType.U32 || t == ScalarType.S32 || t == ScalarType.U64
                    || (global && (t == ScalarType.F32 || t == ScalarType.F64));
            case MIN, MAX -> t == ScalarType.U32 || t == ScalarType.S32 || (global && (t == ScalarType.U64 || t == ScalarType.S64));
            case INC, DEC -> t == ScalarType.U32;
            default -> global ? integer32or64(t) : t.bytes() == 4 && integer32or64(t);
        };
    }

    /**
     * f32 add of plain cp.reduce.async.bulk: "flushes subnormal inputs and results to
     * sign-preserving zero" (PTX ISA 9.7.9.25.4.2), then rounds to nearest even.
     */
    static long addF32FlushingSubnormals(long old, long src) {
        float r = ftz(ftz(Float.intBitsToFloat((int) old)) + ftz(Float.intBitsToFloat((int) src)));
        return Values.arithBits(r);
    }


    private static float ftz(float f) {
        return f != 0 && Math.abs(f) < Float.MIN_NORMAL ? Math.copySign(0f, f) : f;
    }

    /** {@code old OP src} for an element of type {@code t} (values in the low bits). */
    static long apply(int op, ScalarType t, long old, long src) {
        boolean wide = t.bytes() == 8;
        long mask = wide ? -1L : 0xFFFFFFFFL;
        old &= mask;
        src &= mask;
        long sOld = wide ? old : (int) old;
        long sSrc = wide ? src : (int) src;
        long v = switch (op) {
            case ADD -> t == ScalarType.F32 ? Values.arithBits(Float.intBitsToFloat((int) old) + Float.intBitsToFloat((int) src))
                    : t == ScalarType.F64 ? Values.arithBits(Double.longBitsToDouble(old) + Double.longBitsToDouble(src))
                    : old + src;
            case MIN -> t.isSigned() ? Math.min(sOld, sSrc) : (Long.compareUnsigned(old, src) <= 0 ? old : src);
            case MAX -> t.isSigned() ? Math.max(sOld, sSrc) : (Long.compareUnsigned(old, src) >= 0 ? old : src);
            case AND -> old & src;
            case OR -> old | src;
            case XOR -> old ^ src;
            case INC -> Long.compareUnsigned(old, src) >= 0 ? 0 : old + 1;
            default -> old == 0 || Long.compareUnsigned(old, src) > 0 ? src : old - 1;
        };
        return v & mask;
    }
}
