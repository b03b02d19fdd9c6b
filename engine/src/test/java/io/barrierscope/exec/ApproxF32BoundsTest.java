package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The .approx f32 functions attention kernels use (PTX ISA 9.7.3.13-22: rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh) stay within the
 * maximum errors the ISA states for them (listed in docs/semantics.md), measured against StrictMath in double
 * precision (itself within 1 ulp of double, far below every bound) on inputs across their ranges.
 */
class ApproxF32BoundsTest {
    private static float[] inputs(double lo, double hi, boolean logScale, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] out = new float[256];
        for (int i = 0; i < out.length; i++) {
            double u = rnd.nextDouble();
            out[i] = (float) (logScale ? Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo))) : lo + u * (hi - lo));
        }
        return out;
    }

    /** Runs {@code insn} on the inputs; checks |got - exact| <= bound(exact, x) for each. */
    private static void check(String insn, float[] in, DoubleUnaryOperator exact, String what, java.util.function.BiPredicate<Double, Double> within) {
        long[] bits = new long[in.length];
        for (int i = 0; i < in.length; i++) bits[i] = Float.floatToRawIntBits(in[i]) & 0xFFFFFFFFL;
        long[] out = LaneKernel.run32(insn + " %r10, %r1;", bits);
        for (int i = 0; i < in.length; i++) {
            double want = exact.applyAsDouble(in[i]);
            double got = Float.intBitsToFloat((int) out[i]);
            assertTrue(within.test(got, want), insn + " of " + in[i] + ": " + got + " vs " + want + " exceeds " + what);
        }
    }

    private static java.util.function.BiPredicate<Double, Double> rel(double bound) {
        return (got, want) -> Math.abs(got - want) <= bound * Math.abs(want);
    }

    private static java.util.function.BiPredicate<Double, Double> abs(double bound) {
        return (got, want) -> Math.abs(got - want) <= bound;
    }

    private static java.util.function.BiPredicate<Double, Double> ulps(int n) {
        return (got, want) -> Math.abs(got - want) <= n * Math.ulp((float) (double) want);
    }

    @Test
    void ex2ApproxWithinTwoUlps() {
        check("ex2.approx.f32", inputs(-120, 120, false, 1), x -> StrictMath.pow(2, x), "2 ulp", ulps(2));
        check("ex2.approx.ftz.f32", inputs(-30, 30, false, 2), x -> StrictMath.pow(2, x), "2 ulp", ulps(2));
    }

    @Test
    void lg2ApproxWithinItsAbsoluteBoundNearOneAndRelativeBoundElsewhere() {
        // ISA 9.7.3.20: 2^-22 absolute for inputs in (0.5, 2); 2^-22 relative for positive finite inputs outside it.
        check("lg2.approx.f32", inputs(0.5, 2, false, 3), x -> StrictMath.log(x) / StrictMath.log(2), "2^-22 absolute", abs(Math.pow(2, -22)));
        check("lg2.approx.ftz.f32", inputs(2, 1e30, true, 4), x -> StrictMath.log(x) / StrictMath.log(2), "2^-22 relative", rel(Math.pow(2, -22)));
        check("lg2.approx.f32", inputs(1e-30, 0.5, true, 12), x -> StrictMath.log(x) / StrictMath.log(2), "2^-22 relative", rel(Math.pow(2, -22)));
    }

    @Test
    void rcpApproxWithinOneUlp() {
        check("rcp.approx.f32", inputs(1e-30, 1e30, true, 5), x -> 1 / x, "1 ulp", ulps(1));
        check("rcp.approx.ftz.f32", inputs(-1e10, -1e-10, false, 6), x -> 1 / x, "1 ulp", ulps(1));
    }

    @Test
    void rsqrtApproxWithinItsRelativeBound() {
        check("rsqrt.approx.f32", inputs(1e-30, 1e30, true, 7), x -> 1 / StrictMath.sqrt(x), "2^-22.9 relative", rel(Math.pow(2, -22.9)));
    }

    @Test
    void sqrtApproxWithinItsRelativeBound() {
        check("sqrt.approx.f32", inputs(1e-30, 1e30, true, 8), StrictMath::sqrt, "2^-23 relative", rel(Math.pow(2, -23)));
    }

    @Test
    void sinAndCosApproxWithinTheirAbsoluteBoundOnEachRange() {
        // ISA 9.7.3.18-19: 2^-20.5 absolute on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi]; no bound outside.
        double near = Math.pow(2, -20.5), far = Math.pow(2, -14.7);
        check("sin.approx.f32", inputs(-2 * Math.PI, 2 * Math.PI, false, 9), StrictMath::sin, "2^-20.5 absolute", abs(near));
        check("cos.approx.ftz.f32", inputs(-2 * Math.PI, 2 * Math.PI, false, 10), StrictMath::cos, "2^-20.5 absolute", abs(near));
        check("sin.approx.ftz.f32", inputs(-100 * Math.PI, 100 * Math.PI, false, 13), StrictMath::sin, "2^-14.7 absolute", abs(far));
        check("cos.approx.f32", inputs(-100 * Math.PI, 100 * Math.PI, false, 14), StrictMath::cos, "2^-14.7 absolute", abs(far));
    }

    @Test
    void tanhApproxWithinItsRelativeBound() {
        check("tanh.approx.f32", inputs(-10, 10, false, 11), StrictMath::tanh, "2^-11 relative", rel(Math.pow(2, -11)));
    }
}
