package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.exec.FloatFormat.Round;
import java.math.BigDecimal;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The rounding of every narrow format (PTX ISA 5.2.3, 9.7.9.21) against {@link NarrowFloatReference},
 * which lists the format's values exactly and rounds by comparison: every mode, with and without
 * .satfinite, on random values, exact ties, values near overflow and subnormals.
 */
class FloatFormatTest {
    private static final String[] MODES = {"rn", "rna", "rz", "rm", "rp"};

    /** A double near the grid of a format: a listed value, a midpoint, or a little off either. */
    private static Arbitrary<Double> near(NarrowFloatReference ref) {
        int n = ref.values.length;
        Arbitrary<Integer> code = Arbitraries.integers().between(0, n - 1);
        Arbitrary<Integer> kind = Arbitraries.integers().between(0, 5);
        Arbitrary<Boolean> neg = Arbitraries.of(true, false);
        Arbitrary<Double> onGrid = Combinators.combine(code, kind, neg).as((c, k, s) -> {
            BigDecimal v = ref.values[c];
            BigDecimal next = c + 1 < n ? ref.values[c + 1] : v.add(v.subtract(ref.values[c - 1]));
            BigDecimal mid = v.add(next).divide(BigDecimal.valueOf(2));
            BigDecimal x = switch (k) {
                case 0 -> v;
                case 1 -> mid;
                case 2 -> mid.add(next.subtract(v).divide(BigDecimal.valueOf(1024)));
                case 3 -> mid.subtract(next.subtract(v).divide(BigDecimal.valueOf(1024)));
                case 4 -> next.add(next.subtract(v).multiply(BigDecimal.valueOf(3))); // above the last: overflow
                default -> v.add(next.subtract(v).divide(BigDecimal.valueOf(3), java.math.MathContext.DECIMAL128));
            };
            double d = x.doubleValue();
            return s ? -d : d;
        });
        Arbitrary<Double> any = Arbitraries.doubles().between(-1e40, 1e40);
        Arbitrary<Double> specials = Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0, -0.0,
                Double.MIN_VALUE, -Double.MIN_VALUE, 1e300, -1e300);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, onGrid), net.jqwik.api.Tuple.of(2, any),
                net.jqwik.api.Tuple.of(1, specials));
    }

    @Provide Arbitrary<Double> f16() { return near(NarrowFloatReference.F16); }
    @Provide Arbitrary<Double> bf16() { return near(NarrowFloatReference.BF16); }
    @Provide Arbitrary<Double> e4m3() { return near(NarrowFloatReference.E4M3); }
    @Provide Arbitrary<Double> e5m2() { return near(NarrowFloatReference.E5M2); }
    @Provide Arbitrary<Double> tf32() { return near(NarrowFloatReference.tf32()); }

    private static void check(FloatFormat f, NarrowFloatReference ref, double v) {
        for (String mode : MODES) {
            for (boolean sat : new boolean[] {false, true}) {
                int want = ref.round(v, mode, sat);
                int got = f.encode(v, Round.of(mode), sat);
                assertEquals(Integer.toHexString(want), Integer.toHexString(got), f + " ." + mode + (sat ? ".satfinite" : "") + " of " + v);
            }
        }
    }

    @Property(tries = 3000)
    void f16RoundsLikeTheReference(@ForAll("f16") double v) { check(FloatFormat.F16, NarrowFloatReference.F16, v); }

    @Property(tries = 3000)
    void bf16RoundsLikeTheReference(@ForAll("bf16") double v) { check(FloatFormat.BF16, NarrowFloatReference.BF16, v); }

    @Property(tries = 2000)
    void e4m3RoundsLikeTheReference(@ForAll("e4m3") double v) { check(FloatFormat.E4M3, NarrowFloatReference.E4M3, v); }

    @Property(tries = 2000)
    void e5m2RoundsLikeTheReference(@ForAll("e5m2") double v) { check(FloatFormat.E5M2, NarrowFloatReference.E5M2, v); }

    @Property(tries = 2000)
    void tf32RoundsLikeTheReference(@ForAll("tf32") double v) { check(FloatFormat.TF32, NarrowFloatReference.tf32(), v); }

    @Test
    void everyPatternDecodesToTheReferenceValue() {
        Object[][] cases = {{FloatFormat.F16, NarrowFloatReference.F16, 16}, {FloatFormat.BF16, NarrowFloatReference.BF16, 16},
            {FloatFormat.E4M3, NarrowFloatReference.E4M3, 8}, {FloatFormat.E5M2, NarrowFloatReference.E5M2, 8}};
        for (Object[] c : cases) {
            FloatFormat f = (FloatFormat) c[0];
            NarrowFloatReference ref = (NarrowFloatReference) c[1];
            for (int bits = 0; bits < 1 << (int) c[2]; bits++) {
                assertEquals(Double.doubleToLongBits(ref.toDouble(bits)), Double.doubleToLongBits(f.decode(bits)), f + " " + Integer.toHexString(bits));
            }
        }
    }

    @Test
    void e4m3HasNoInfinityAndSaturatesAt448() {
        assertEquals(0x7E, FloatFormat.E4M3.encode(1e9, Round.RN, true));
        assertEquals(0xFE, FloatFormat.E4M3.encode(Double.NEGATIVE_INFINITY, Round.RN, true));
        assertEquals(0x7E, FloatFormat.E4M3.encode(464, Round.RN, true)); // the tie 448|480 goes to even 448
        assertEquals(448.0, FloatFormat.E4M3.decode(0x7E));
        assertEquals(57344.0, FloatFormat.E5M2.decode(0x7B));
    }
}
