package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits} (PTX ISA 9.7.9.21) against
 * a bit-level reference written here from the ISA's sentence: add the random bits to the bits of
 * the f32 mantissa that the conversion discards, keep the truncated result, and step it one unit
 * away from zero when the addition carries out.
 */
class StochasticCvtTest {
    private static final String TARGET = "sm_100a";

    /** f32 inputs: around the f16 range (subnormal to past the largest finite), specials, and arbitrary patterns. */
    private static long[] inputs(int n, long seed, boolean half) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] specials = {0f, -0f, 1f, -1f, 65504f, 65519.996f, 65520f, 65535.996f, 70000f, -1e9f, 6.1035156e-5f, 5.9604645e-8f,
            2.9802322e-8f, 1e-30f, Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY, Float.NaN, 3.3895314e38f /* bf16 max */, 3.3961776e38f};
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            int bits;
            int k = rnd.nextInt(8);
            if (k == 0) bits = Float.floatToRawIntBits(specials[rnd.nextInt(specials.length)]);
            else if (k == 1) bits = rnd.nextInt();
            else {
                int e = half ? rnd.nextInt(-30, 18) : rnd.nextInt(-149, 128);
                int field = Math.max(0, Math.min(254, e + 127));
                bits = (rnd.nextBoolean() ? 0x80000000 : 0) | (field << 23) | rnd.nextInt(1 << 23);
            }
            out[i] = bits & 0xFFFFFFFFL;
        }
        return out;
    }

    private static long[] randomBits(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] specials = {0, 0xFFFFFFFF, 0x1FFF1FFF, 0x00010001, 0x10001000, 0xE000E000};
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = (rnd.nextInt(4) == 0 ? specials[rnd.nextInt(specials.length)] : rnd.nextInt()) & 0xFFFFFFFFL;
        return out;
    }

    /**
     * Random bits for a pair at the edge of the carry for normal results: the complement of each
     * input's low discarded bits (which carries), or one less (which does not).
     */
    private static long boundary(long a, long b, boolean half, boolean carry) {
        int w = half ? 13 : 16;
        long mask = (1L << w) - 1;
        long ra = ((1L << w) - (a & mask) - (carry ? 0 : 1)) & mask;
        long rb = ((1L << w) - (b & mask) - (carry ? 0 : 1)) & mask;
        return (ra << 16) | rb;
    }

    /** The f16 pattern of f32 {@code fb} rounded stochastically with the 13-bit {@code r}. */
    static int refF16(int fb, int r, boolean relu, boolean satfinite) {
        int sign = (fb >>> 16) & 0x8000;
        int field = (fb >>> 23) & 0xFF;
        int mant = fb & 0x7FFFFF;
        int out;
        if (field == 0xFF && mant != 0) return 0x7FFF;
        if (field == 0xFF) {
            out = 0x7C00;
        } else {
            long sig = field == 0 ? mant : mant | (1 << 23); // value = sig * 2^(e - 23)
            int e = field == 0 ? -126 : field - 127;
            if (e > 15) {
                // past the f16 exponent range: truncation is the largest finite value, the next step infinity
                int top = (int) (sig & 0x1FFF);
                out = top + r >= 8192 ? 0x7C00 : 0x7BFF;
            } else {
                int q = Math.max(e, -14) - 10; // the exponent of the f16 unit in the last place
                int shift = q - (e - 23); // discarded bits, at least 13
                long kept = shift >= 63 ? 0 : sig >>> shift;
                long disc = shift >= 63 ? sig : sig & ((1L << shift) - 1);
                long top13 = shift - 13 >= 63 ? 0 : disc >>> (shift - 13);
                int carry = top13 + r >= 8192 ? 1 : 0;
                out = e >= -14 ? (((e + 15) << 10) | (int) (kept & 0x3FF)) + carry : (int) kept + carry;
            }
        }
        if (satfinite && out == 0x7C00) out = 0x7BFF;
        out |= sign;
        if (relu && sign != 0) out = 0;
        return out;
    }

    /** The bf16 pattern of f32 {@code fb} rounded stochastically with the 16-bit {@code r}. */
    static int refBf16(int fb, int r, boolean relu, boolean satfinite) {
        int sign = (fb >>> 16) & 0x8000;
        int mag = fb & 0x7FFFFFFF;
        if (mag > 0x7F800000) return 0x7FFF;
        int out = mag >>> 16;
        if (mag != 0x7F800000 && (mag & 0xFFFF) + r >= 0x10000) out++;
        if (satfinite && out == 0x7F80) out = 0x7F7F;
        out |= sign;
        if (relu && sign != 0) out = 0;
        return out;
    }

    private static void check(boolean half) {
        String type = half ? "f16x2" : "bf16x2";
        long[] a = inputs(512, half ? 1 : 2, half);
        long[] b = inputs(512, half ? 3 : 4, half);
        long[] r = randomBits(512, half ? 5 : 6);
        for (int i = 0; i < r.length; i += 3) r[i] = boundary(a[i], b[i], half, i % 2 == 0); // the carry's edge, either side
        for (String mods : new String[] {"", ".relu", ".satfinite", ".relu.satfinite"}) {
            String insn = "cvt.rs" + mods + "." + type + ".f32";
            long[] out = LaneKernel.run(TARGET, insn + " %r10, %r1, %r2, %r3;", false, false, a, b, r);
            boolean relu = mods.contains("relu");
            boolean sat = mods.contains("satfinite");
            for (int i = 0; i < out.length; i++) {
                int rh = (int) (r[i] >>> 16);
                int rl = (int) r[i] & 0xFFFF;
                int hi = half ? refF16((int) a[i], rh & 0x1FFF, relu, sat) : refBf16((int) a[i], rh, relu, sat);
                int lo = half ? refF16((int) b[i], rl & 0x1FFF, relu, sat) : refBf16((int) b[i], rl, relu, sat);
                long want = ((long) hi << 16) | lo;
                String args = Float.intBitsToFloat((int) a[i]) + ", " + Float.intBitsToFloat((int) b[i]) + ", rbits 0x"
                        + Long.toHexString(r[i]);
                assertEquals(Long.toHexString(want), Long.toHexString(out[i]), insn + " " + args);
            }
        }
    }

    @Test
    void f16x2RoundsAwayFromZeroExactlyWhenTheRandomBitsCarryOutOfTheDiscardedBits() { check(true); }

    @Test
    void bf16x2RoundsAwayFromZeroExactlyWhenTheRandomBitsCarryOutOfTheDiscardedBits() { check(false); }

    @Test
    void theCarryDecidesTiesAndTheLargestFiniteValueGoesToInfinityOnlyOnACarry() {
        // 1 + 2^-11 lies halfway between two f16 values: the top discarded bit is 1, so 0x1000 carries, 0x0FFF does not
        long one = Float.floatToRawIntBits(1f + 0x1p-11f) & 0xFFFFFFFFL;
        long max = Float.floatToRawIntBits(65520f) & 0xFFFFFFFFL; // 65504 + half an ulp
        long[] out = LaneKernel.run(TARGET, "cvt.rs.f16x2.f32 %r10, %r1, %r2, %r3;", false, false,
                new long[] {one, max, max}, new long[] {one, max, max}, new long[] {0x10000FFFL, 0x0FFF1000L, 0x1FFF1FFFL});
        assertEquals(Long.toHexString(0x3C013C00L), Long.toHexString(out[0]));
        assertEquals(Long.toHexString(0x7BFF7C00L), Long.toHexString(out[1]));
        assertEquals(Long.toHexString(0x7C007C00L), Long.toHexString(out[2]));
        long[] sat = LaneKernel.run(TARGET, "cvt.rs.satfinite.f16x2.f32 %r10, %r1, %r2, %r3;", false, false,
                new long[] {max}, new long[] {max}, new long[] {0x1FFF0000L});
        assertEquals(Long.toHexString(0x7BFF7BFFL), Long.toHexString(sat[0]));
    }

    @Test
    void stochasticRoundingIsRefusedOnTargetsOtherThanSm100aAndSm103aNamingThem() {
        for (String target : new String[] {"sm_90a", "sm_100", "sm_120a"}) {
            Exception e = assertThrows(Exception.class, () -> LaneKernel.run(target,
                    "cvt.rs.f16x2.f32 %r10, %r1, %r2, %r3;", false, false, new long[] {0}, new long[] {0}, new long[] {0}), target);
            assertTrue(e.getMessage().contains("unsupported instruction cvt.rs.f16x2.f32"), e.getMessage());
            assertTrue(e.getMessage().contains("sm_100a or sm_103a"), e.getMessage());
        }
        long[] ok = LaneKernel.run("sm_103a", "cvt.rs.bf16x2.f32 %r10, %r1, %r2, %r3;", false, false,
                new long[] {Float.floatToRawIntBits(1f)}, new long[] {0}, new long[] {0});
        assertEquals(0x3F800000L, ok[0]);
    }

    @Test
    void fourElementFp8Fp6AndFp4FormsOtherSourcesAndImmediateRandomBitsAreRefusedByName() {
        for (String bad : new String[] {"cvt.rs.satfinite.e4m3x4.f32 %r10, {%r1, %r2, %r3, %r4}, %r5;",
            "cvt.rs.relu.satfinite.e2m1x4.f32 %h1, {%r1, %r2, %r3, %r4}, %r5;", "cvt.rs.f16.f32 %h1, %r1, %r3;",
            "cvt.rs.f16x2.f16x2 %r10, %r1, %r2, %r3;", "cvt.rs.bf16x2.f32 %r10, %r1, %r2, 12345;", "cvt.rn.satfinite.e4m3x4.f32 %r10, {%r1, %r2, %r3, %r4};"}) {
            Exception e = assertThrows(Exception.class, () -> LaneKernel.run(TARGET, bad + "\nmov.b32 %r10, 0;", false, false,
                    new long[] {0}), bad);
            String mnemonic = bad.substring(0, bad.indexOf(' '));
            assertTrue(e.getMessage().contains("unsupported instruction " + mnemonic), e.getMessage());
        }
    }
}
