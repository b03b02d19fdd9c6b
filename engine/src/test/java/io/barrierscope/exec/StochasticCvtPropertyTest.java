package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@code cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32} (PTX ISA 9.7.9.21) against a reference
 * written on real values, not bits: |x| over the unit in the last place of its result is an
 * integer part and a fraction; the result steps one unit away from zero when the first
 * {@code width} bits of the fraction plus the random bits reach 2^width (docs/semantics.md section
 * 10: the random bits meet the most significant discarded bits). Past the largest finite value a
 * step gives infinity (.satfinite: the largest finite value), no step the largest finite value;
 * NaN gives the canonical NaN 0x7FFF, .relu a negative result or -0 +0.
 */
class StochasticCvtPropertyTest {
    @Provide
    Arbitrary<List<Tuple.Tuple3<Float, Float, Integer>>> rows() {
        Arbitrary<Float> bits = Arbitraries.integers().map(Float::intBitsToFloat);
        // f16 and bf16 values, moved a few f32 units either way: the carry's edge, exact values, ties
        Arbitrary<Float> nearHalf = Combinators.combine(Arbitraries.integers().between(0, 0xFFFF), Arbitraries.integers().between(-3, 3))
                .as((h, k) -> Float.intBitsToFloat(Float.floatToRawIntBits(Values.halfToFloat(h)) + k));
        Arbitrary<Float> nearBf16 = Combinators.combine(Arbitraries.integers().between(0, 0xFFFF), Arbitraries.integers().between(-3, 3))
                .as((h, k) -> Float.intBitsToFloat((h << 16) + k));
        Arbitrary<Float> tiny = Combinators.combine(Arbitraries.integers().between(1, 1 << 23), Arbitraries.integers().between(-60, 0))
                .as((m, e) -> Math.scalb((float) m, e - 40));
        Arbitrary<Float> edges = Arbitraries.of(0f, -0f, 65504f, -65504f, 65519.996f, 65520f, 65535.996f, 65536f, 1e9f, -1e9f,
                Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 0x1p-24f, -0x1p-25f,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN, Float.intBitsToFloat(0xFFC00001), Float.intBitsToFloat(0x7F800001));
        Arbitrary<Float> x = Arbitraries.frequencyOf(Tuple.of(3, bits), Tuple.of(4, nearHalf), Tuple.of(3, nearBf16), Tuple.of(2, tiny),
                Tuple.of(2, edges));
        Arbitrary<Integer> r = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.integers()),
                Tuple.of(1, Arbitraries.of(0, -1, 0x1FFF1FFF, 0x10001000, 0x0FFF0FFF, 0x80008000, 0x7FFF7FFF, 0xE000E000)));
        return Combinators.combine(x, x, r).as(Tuple::of).list().ofSize(64);
    }

    /** The pattern stochastic rounding gives one f32 with its 16 random bits. */
    static int reference(boolean half, float x, int r16, boolean relu, boolean satfinite) {
        if (Float.isNaN(x)) return 0x7FFF;
        int width = half ? 13 : 16;
        int r = r16 & ((1 << width) - 1);
        int emin = half ? -14 : -126;
        int mbits = half ? 10 : 7;
        double max = half ? 65504 : Math.scalb(2 - 0x1p-7, 127);
        int inf = half ? 0x7C00 : 0x7F80;
        int maxCode = half ? 0x7BFF : 0x7F7F;
        boolean neg = Float.floatToRawIntBits(x) < 0;
        double mag = Math.abs((double) x);
        int code;
        if (Double.isInfinite(mag)) {
            code = satfinite ? maxCode : inf;
        } else if (mag == 0) {
            code = 0;
        } else {
            int q = Math.max(Math.getExponent(mag), emin) - mbits; // the unit in the last place is 2^q
            double scaled = Math.scalb(mag, -q); // exact: a double holds every f32 value times a power of two
            double whole = Math.floor(scaled);
            double firstBits = Math.floor(Math.scalb(scaled - whole, width)); // the fraction's first width bits
            boolean step = firstBits + r >= (1 << width);
            double v = Math.scalb(whole + (step ? 1 : 0), q);
            if (v > max) code = step && !satfinite ? inf : maxCode;
            else code = exactCode(half, v);
        }
        if (relu && neg) return 0;
        return (neg ? 0x8000 : 0) | code;
    }

    /** The f16 or bf16 code of a non-negative value on its grid. */
    private static int exactCode(boolean half, double v) {
        if (!half) return Float.floatToRawIntBits((float) v) >>> 16;
        if (v < 0x1p-14) return (int) Math.scalb(v, 24);
        int e = Math.getExponent(v);
        return ((e + 15) << 10) | (int) Math.scalb(Math.scalb(v, -e) - 1, 10);
    }

    private static void check(boolean half, List<Tuple.Tuple3<Float, Float, Integer>> rows) {
        int n = rows.size();
        long[] a = new long[n];
        long[] b = new long[n];
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = Float.floatToRawIntBits(rows.get(i).get1()) & 0xFFFFFFFFL;
            b[i] = Float.floatToRawIntBits(rows.get(i).get2()) & 0xFFFFFFFFL;
            r[i] = rows.get(i).get3() & 0xFFFFFFFFL;
        }
        for (String mods : new String[] {"", ".relu", ".satfinite", ".relu.satfinite"}) {
            String insn = "cvt.rs" + mods + (half ? ".f16x2" : ".bf16x2") + ".f32";
            long[] out = LaneKernel.run("sm_100a", insn + " %r10, %r1, %r2, %r3;", false, false, a, b, r);
            for (int i = 0; i < n; i++) {
                boolean relu = mods.contains("relu");
                boolean sat = mods.contains("satfinite");
                int hi = reference(half, rows.get(i).get1(), (int) (r[i] >>> 16), relu, sat);
                int lo = reference(half, rows.get(i).get2(), (int) r[i] & 0xFFFF, relu, sat);
                assertEquals(Long.toHexString(((long) hi << 16) | lo), Long.toHexString(out[i]), insn + " " + rows.get(i).get1() + ", "
                        + rows.get(i).get2() + ", rbits 0x" + Long.toHexString(r[i]));
            }
        }
    }

    @Property(tries = 15)
    void f16x2StepsAwayFromZeroExactlyWhenTheFractionsFirstBitsPlusTheRandomBitsCarry(@ForAll("rows") List<Tuple.Tuple3<Float, Float, Integer>> rows) {
        check(true, rows);
    }

    @Property(tries = 15)
    void bf16x2StepsAwayFromZeroExactlyWhenTheFractionsFirstBitsPlusTheRandomBitsCarry(@ForAll("rows") List<Tuple.Tuple3<Float, Float, Integer>> rows) {
        check(false, rows);
    }
}
