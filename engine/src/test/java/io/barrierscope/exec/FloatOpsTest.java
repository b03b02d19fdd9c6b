package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.f32;
import static io.barrierscope.exec.ExecKernel.f64;
import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import org.junit.jupiter.api.Test;

/**
 * Floating-point instructions (PTX ISA 9.7.3, 9.7.4). Expected bits come from Java's IEEE float
 * and double arithmetic (round to nearest even, as .rn) or from known constants.
 */
class FloatOpsTest {
    @Test
    void basicF32ArithmeticIsCorrectlyRounded() {
        float a = 1.1f;
        float b = 3.3f;
        LaunchedRun r = ExecKernel.of("mov.f32 %f1, " + imm(a) + ";\nmov.f32 %f2, " + imm(b) + ";\n"
                + "add.rn.f32 %f3, %f1, %f2;\nmov.b32 %r1, %f3;\n" + w(0, "%r1")
                + "sub.f32 %f4, %f1, %f2;\nmov.b32 %r2, %f4;\n" + w(1, "%r2")
                + "mul.rn.f32 %f5, %f1, %f2;\nmov.b32 %r3, %f5;\n" + w(2, "%r3")
                + "div.rn.f32 %f6, %f1, %f2;\nmov.b32 %r4, %f6;\n" + w(3, "%r4")
                + "div.rn.f32 %f7, 0f3F800000, 0f40400000;\nmov.b32 %r5, %f7;\n" + w(4, "%r5")
                + "div.rn.f32 %f8, 0f3F800000, 0f00000000;\nmov.b32 %r6, %f8;\n" + w(5, "%r6")
                + "div.rn.f32 %f9, 0f00000000, 0f00000000;\nmov.b32 %r7, %f9;\n" + w(6, "%r7")).ok();
        assertEquals(f32(a + b), w(r, 0));
        assertEquals(f32(a - b), w(r, 1));
        assertEquals(f32(a * b), w(r, 2));
        assertEquals(f32(a / b), w(r, 3));
        assertEquals(0x3EAAAAABL, w(r, 4)); // 1/3 rounded to nearest
        assertEquals(0x7F800000L, w(r, 5)); // +inf
        assertTrue(Float.isNaN(Float.intBitsToFloat((int) w(r, 6))));
    }

    @Test
    void fmaRoundsOnceWhereMulThenAddRoundsTwice() {
        // a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24 exactly; as a float product that rounds to 1 + 2^-11.
        // fma(a, a, -(1 + 2^-11)) keeps the 2^-24; mul then add loses it.
        float a = 1f + 0x1p-12f;
        float c = -(1f + 0x1p-11f);
        LaunchedRun r = ExecKernel.of("mov.f32 %f1, " + imm(a) + ";\nmov.f32 %f2, " + imm(c) + ";\n"
                + "fma.rn.f32 %f3, %f1, %f1, %f2;\nmov.b32 %r1, %f3;\n" + w(0, "%r1")
                + "mul.rn.f32 %f4, %f1, %f1;\nadd.rn.f32 %f5, %f4, %f2;\nmov.b32 %r2, %f5;\n" + w(1, "%r2")
                + "mad.rn.f32 %f6, %f1, %f1, %f2;\nmov.b32 %r3, %f6;\n" + w(2, "%r3")).ok();
        assertEquals(f32(0x1p-24f), w(r, 0));
        assertEquals(f32(0f), w(r, 1));
        assertEquals(f32(0x1p-24f), w(r, 2)); // mad.rn.f32 is fused on sm_20+
    }

    @Test
    void fmaF64() {
        double a = 1 + 0x1p-30;
        double c = -(1 + 0x1p-29);
        LaunchedRun r = ExecKernel.of("mov.f64 %fd1, " + imm(a) + ";\nmov.f64 %fd2, " + imm(c) + ";\n"
                + "fma.rn.f64 %fd3, %fd1, %fd1, %fd2;\nmov.b64 %rd1, %fd3;\n" + x(0, "%rd1")).ok();
        assertEquals(f64(0x1p-60), x(r, 0));
    }

    @Test
    void sqrtAndRcp() {
        LaunchedRun r = ExecKernel.of("sqrt.rn.f32 %f1, 0f40000000;\nmov.b32 %r1, %f1;\n" + w(0, "%r1")
                + "sqrt.rn.f32 %f2, 0fBF800000;\nmov.b32 %r2, %f2;\n" + w(1, "%r2")
                + "sqrt.rn.f64 %fd1, 0d4000000000000000;\nmov.b64 %rd1, %fd1;\n" + x(0, "%rd1")
                + "rcp.rn.f32 %f3, 0f40400000;\nmov.b32 %r3, %f3;\n" + w(2, "%r3")
                + "sqrt.rn.f32 %f4, 0f80000000;\nmov.b32 %r4, %f4;\n" + w(3, "%r4")
                + "rcp.rn.f64 %fd2, 0d4008000000000000;\nmov.b64 %rd2, %fd2;\n" + x(1, "%rd2")).ok();
        assertEquals(0x3FB504F3L, w(r, 0)); // sqrt(2) as float
        assertTrue(Float.isNaN(Float.intBitsToFloat((int) w(r, 1))));
        assertEquals(0x3FF6A09E667F3BCDL, x(r, 0)); // sqrt(2) as double
        assertEquals(0x3EAAAAABL, w(r, 2));
        assertEquals(0x80000000L, w(r, 3)); // sqrt(-0) = -0
        assertEquals(0x3FD5555555555555L, x(r, 1));
    }

    @Test
    void minMaxPreferNumbersOverNaNAndOrderSignedZeros() {
        LaunchedRun r = ExecKernel.of("mov.b32 %f1, 0x7fc00000;\nmov.f32 %f2, 0f3F800000;\n"
                + "min.f32 %f3, %f1, %f2;\nmov.b32 %r1, %f3;\n" + w(0, "%r1")
                + "max.f32 %f4, %f2, %f1;\nmov.b32 %r2, %f4;\n" + w(1, "%r2")
                + "min.f32 %f5, 0f80000000, 0f00000000;\nmov.b32 %r3, %f5;\n" + w(2, "%r3")
                + "max.f32 %f6, 0f80000000, 0f00000000;\nmov.b32 %r4, %f6;\n" + w(3, "%r4")
                + "min.f32 %f7, %f1, %f1;\nmov.b32 %r5, %f7;\n" + w(4, "%r5")
                + "max.f64 %fd1, 0dC000000000000000, 0d3FF0000000000000;\nmov.b64 %rd1, %fd1;\n" + x(0, "%rd1")).ok();
        assertEquals(f32(1f), w(r, 0));
        assertEquals(f32(1f), w(r, 1));
        assertEquals(0x80000000L, w(r, 2));
        assertEquals(0x00000000L, w(r, 3));
        assertTrue(Float.isNaN(Float.intBitsToFloat((int) w(r, 4))));
        assertEquals(f64(1.0), x(r, 0));
    }

    @Test
    void absNegFlipOnlyTheSignBit() {
        LaunchedRun r = ExecKernel.of("neg.f32 %f1, 0f00000000;\nmov.b32 %r1, %f1;\n" + w(0, "%r1")
                + "abs.f32 %f2, 0fC0490FDB;\nmov.b32 %r2, %f2;\n" + w(1, "%r2")
                + "neg.f64 %fd1, 0d4000000000000000;\nmov.b64 %rd1, %fd1;\n" + x(0, "%rd1")
                + "abs.f32 %f3, 0f80000000;\nmov.b32 %r3, %f3;\n" + w(2, "%r3")).ok();
        assertEquals(0x80000000L, w(r, 0));
        assertEquals(0x40490FDBL, w(r, 1));
        assertEquals(f64(-2.0), x(r, 0));
        assertEquals(0L, w(r, 2));
    }

    @Test
    void saturateClampsToZeroOne() {
        LaunchedRun r = ExecKernel.of("add.sat.f32 %f1, 0f3F400000, 0f3F000000;\nmov.b32 %r1, %f1;\n" + w(0, "%r1")
                + "mul.sat.f32 %f2, 0fC0000000, 0f3F000000;\nmov.b32 %r2, %f2;\n" + w(1, "%r2")
                + "add.sat.f32 %f3, 0f3E800000, 0f3E800000;\nmov.b32 %r3, %f3;\n" + w(2, "%r3")).ok();
        assertEquals(f32(1f), w(r, 0));
        assertEquals(f32(0f), w(r, 1));
        assertEquals(f32(0.5f), w(r, 2));
    }

    @Test
    void ftzFlushesSubnormalInputsAndResults() {
        float sub = Float.MIN_NORMAL / 4; // subnormal
        LaunchedRun r = ExecKernel.of("mov.f32 %f1, " + imm(sub) + ";\nadd.ftz.f32 %f2, %f1, 0f00000000;\nmov.b32 %r1, %f2;\n"
                + w(0, "%r1") + "add.f32 %f3, %f1, 0f00000000;\nmov.b32 %r2, %f3;\n" + w(1, "%r2")
                + "mul.ftz.f32 %f4, " + imm(Float.MIN_NORMAL) + ", 0f3F000000;\nmov.b32 %r3, %f4;\n" + w(2, "%r3")).ok();
        assertEquals(0L, w(r, 0));
        assertEquals(f32(sub), w(r, 1));
        assertEquals(0L, w(r, 2));
    }

    @Test
    void f64Arithmetic() {
        double a = 0.1;
        double b = 0.7;
        LaunchedRun r = ExecKernel.of("mov.f64 %fd1, " + imm(a) + ";\nmov.f64 %fd2, " + imm(b) + ";\n"
                + "add.rn.f64 %fd3, %fd1, %fd2;\nmov.b64 %rd1, %fd3;\n" + x(0, "%rd1")
                + "mul.rn.f64 %fd4, %fd1, %fd2;\nmov.b64 %rd2, %fd4;\n" + x(1, "%rd2")
                + "div.rn.f64 %fd5, %fd1, %fd2;\nmov.b64 %rd3, %fd5;\n" + x(2, "%rd3")
                + "sub.f64 %fd6, %fd1, %fd2;\nmov.b64 %rd4, %fd6;\n" + x(3, "%rd4")).ok();
        assertEquals(f64(a + b), x(r, 0));
        assertEquals(f64(a * b), x(r, 1));
        assertEquals(f64(a / b), x(r, 2));
        assertEquals(f64(a - b), x(r, 3));
    }

    @Test
    void approximateFunctionsAreWithinTheirBounds() {
        LaunchedRun r = ExecKernel.of("ex2.approx.f32 %f1, 0f40400000;\nmov.b32 %r1, %f1;\n" + w(0, "%r1")
                + "lg2.approx.f32 %f2, 0f41000000;\nmov.b32 %r2, %f2;\n" + w(1, "%r2")
                + "rsqrt.approx.f32 %f3, 0f40800000;\nmov.b32 %r3, %f3;\n" + w(2, "%r3")
                + "sin.approx.f32 %f4, 0f00000000;\nmov.b32 %r4, %f4;\n" + w(3, "%r4")).ok();
        assertEquals(f32(8f), w(r, 0));
        assertEquals(f32(3f), w(r, 1));
        assertEquals(f32(0.5f), w(r, 2));
        assertEquals(f32(0f), w(r, 3));
    }

    @Test
    void testpClassifies() {
        LaunchedRun r = ExecKernel.of("mov.b32 %f1, 0x7fc00000;\ntestp.notanumber.f32 %p1, %f1;\n" + ExecKernel.wp(0, "%p1")
                + "testp.finite.f32 %p2, 0f7F800000;\n" + ExecKernel.wp(1, "%p2")
                + "testp.infinite.f32 %p3, 0fFF800000;\n" + ExecKernel.wp(2, "%p3")
                + "testp.subnormal.f32 %p4, 0f00000001;\n" + ExecKernel.wp(3, "%p4")
                + "testp.normal.f32 %p5, 0f00000001;\n" + ExecKernel.wp(4, "%p5")
                + "testp.number.f64 %p6, 0d3FF0000000000000;\n" + ExecKernel.wp(5, "%p6")).ok();
        assertEquals(1L, w(r, 0));
        assertEquals(0L, w(r, 1));
        assertEquals(1L, w(r, 2));
        assertEquals(1L, w(r, 3));
        assertEquals(0L, w(r, 4));
        assertEquals(1L, w(r, 5));
    }

    @Test
    void minMaxWithNaNQualifierPropagateNaN() {
        // .NaN: the result is canonical NaN (0x7fffffff) if either input is NaN.
        LaunchedRun r = ExecKernel.of("mov.b32 %f1, 0x7fc00000;\nmin.NaN.f32 %f2, %f1, 0f3F800000;\nmov.b32 %r1, %f2;\n" + w(0, "%r1")
                + "max.NaN.f32 %f3, 0f3F800000, %f1;\nmov.b32 %r2, %f3;\n" + w(1, "%r2")
                + "max.NaN.f32 %f4, 0f3F800000, 0f40000000;\nmov.b32 %r3, %f4;\n" + w(2, "%r3")).ok();
        assertEquals(0x7FFFFFFFL, w(r, 0));
        assertEquals(0x7FFFFFFFL, w(r, 1));
        assertEquals(f32(2f), w(r, 2));
    }

    @Test
    void minMaxXorsignAbs() {
        // .xorsign.abs: magnitude min/max of |a|, |b|; sign = sign(a) XOR sign(b).
        LaunchedRun r = ExecKernel.of("min.xorsign.abs.f32 %f1, 0fC0400000, 0f40000000;\nmov.b32 %r1, %f1;\n" + w(0, "%r1")
                + "max.xorsign.abs.f32 %f2, 0fC0400000, 0fC0000000;\nmov.b32 %r2, %f2;\n" + w(1, "%r2")).ok();
        assertEquals(f32(-2f), w(r, 0));
        assertEquals(f32(3f), w(r, 1));
    }

    @Test
    void minOfTwoNaNsIsTheCanonicalNaN() {
        LaunchedRun r = ExecKernel.of("mov.b32 %f1, 0x7fc00001;\nmov.b32 %f2, 0xffc00002;\nmin.f32 %f3, %f1, %f2;\n"
                + "mov.b32 %r1, %f3;\n" + w(0, "%r1")).ok();
        assertEquals(0x7FFFFFFFL, w(r, 0));
    }

    @Test
    void anF32NaNResultOfArithmeticIsTheCanonicalNaNWhicheverOperandCarriesAPayload() {
        long q1 = 0x7FC00001L;
        long q2 = 0xFFC00002L;
        long s1 = 0x7F800005L;
        long one = 0x3F800000L;
        long inf = 0x7F800000L;
        long ninf = 0xFF800000L;
        long[] a = {q1, q2, one, s1, inf, 0, q2};
        long[] b = {q2, q1, q1, one, ninf, 0, s1};
        long[] c = {one, one, q2, q1, one, one, q1};
        String[][] forms = {{"add.f32", "%r1, %r2"}, {"sub.rz.f32", "%r1, %r2"}, {"mul.ftz.f32", "%r1, %r2"}, {"div.rn.f32", "%r1, %r2"},
            {"fma.rn.f32", "%r1, %r2, %r3"}, {"fma.rp.f32", "%r1, %r2, %r3"}, {"sqrt.rn.f32", "%r1"}, {"rcp.rn.f32", "%r1"},
            {"ex2.approx.f32", "%r1"}};
        for (String[] f : forms) {
            // run many times: the JVM's own NaN payload depends on operand order once the JIT compiles it
            for (int round = 0; round < 3; round++) {
                long[] out = LaneKernel.run32(f[0] + " %r10, " + f[1] + ";", a, b, c);
                for (int i = 0; i < out.length; i++) {
                    if (Float.isNaN(Float.intBitsToFloat((int) out[i]))) assertEquals("7fffffff", Long.toHexString(out[i]), f[0] + " row " + i);
                }
                assertTrue(Float.isNaN(Float.intBitsToFloat((int) out[0])), f[0]);
            }
        }
        // neg and abs change only the sign bit of what they are given
        long[] neg = LaneKernel.run32("neg.f32 %r10, %r1;", new long[] {q1});
        assertEquals(Long.toHexString(q1 | 0x80000000L), Long.toHexString(neg[0]));
    }
}
