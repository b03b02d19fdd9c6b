package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** wgmma's fast f32 rounding of a double sum (Java's narrowing) is FloatFormat's round-to-nearest-even, bit for bit. */
class WgmmaRoundingTest {
    @Test
    void narrowingADoubleSumToF32GivesTheSameBitsAsTheRoundToNearestEncoder() {
        double[] edges = {0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Float.MIN_VALUE, Float.MIN_VALUE / 2, Float.MIN_VALUE * 1.5,
                Float.MIN_NORMAL, Float.MIN_NORMAL * (1 - 0x1p-30), Float.MAX_VALUE, Math.nextUp((double) Float.MAX_VALUE),
                Float.MAX_VALUE * (1 + 0x1p-25), Float.MAX_VALUE * (1 + 0x1p-24), 1e300, -1e300, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, Double.NaN, 1 + 0x1p-24, 1 + 0x1p-24 + 0x1p-52, 1 + 3 * 0x1p-24, -(1 + 0x1p-24)};
        for (double v : edges) check(v);
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            // Random bit patterns over the whole double range, and values near f32's range and its ties.
            check(Double.longBitsToDouble(r.nextLong()));
            check(Math.scalb(r.nextDouble() * 2 - 1, r.nextInt(-160, 140)));
            float f = Float.intBitsToFloat(r.nextInt());
            if (!Float.isNaN(f) && !Float.isInfinite(f)) check(f + Math.ulp(f) / 2 * (r.nextInt(3) - 1));
        }
    }

    private static void check(double v) {
        long want = FloatFormat.F32.encode(v, FloatFormat.Round.RN, false) & 0xFFFFFFFFL;
        assertEquals(want, WgmmaOp.f32Bits(v), () -> "for " + v + " (0x" + Long.toHexString(Double.doubleToRawLongBits(v)) + ")");
    }
}
