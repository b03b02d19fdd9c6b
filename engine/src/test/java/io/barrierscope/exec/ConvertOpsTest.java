package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.f32;
import static io.barrierscope.exec.ExecKernel.f64;
import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.u32;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** mov, cvt and cvta (PTX ISA 9.7.9.7-9.7.9.21). */
class ConvertOpsTest {
    @Test
    void integerWideningSignOrZeroExtendsBySourceType() {
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0x1234ff80;\n"
                + "cvt.s32.s8 %r2, %r1;\n" + w(0, "%r2") + "cvt.u32.u8 %r3, %r1;\n" + w(1, "%r3")
                + "cvt.s32.s16 %r4, %r1;\n" + w(2, "%r4") + "cvt.u32.u16 %r5, %r1;\n" + w(3, "%r5")
                + "mov.b32 %r6, -5;\ncvt.s64.s32 %rd1, %r6;\n" + x(0, "%rd1") + "cvt.u64.u32 %rd2, %r6;\n" + x(1, "%rd2")
                + "cvt.u64.s32 %rd3, %r6;\n" + x(2, "%rd3") + "cvt.s64.u32 %rd4, %r6;\n" + x(3, "%rd4")
                + "mov.b64 %rd5, 0x123456789abcdef0;\ncvt.u32.u64 %r7, %rd5;\n" + w(4, "%r7")
                + "cvt.u16.u64 %h1, %rd5;\ncvt.u32.u16 %r8, %h1;\n" + w(5, "%r8")).ok();
        assertEquals(u32((byte) 0x80), w(r, 0));
        assertEquals(0x80L, w(r, 1));
        assertEquals(u32((short) 0xff80), w(r, 2));
        assertEquals(0xff80L, w(r, 3));
        assertEquals(-5L, x(r, 0));
        assertEquals(0xFFFFFFFBL, x(r, 1));
        assertEquals(-5L, x(r, 2));
        assertEquals(0xFFFFFFFBL, x(r, 3));
        assertEquals(0x9abcdef0L, w(r, 4));
        assertEquals(0xdef0L, w(r, 5));
    }

    @Test
    void narrowSignedDestinationIsSignExtendedToAWiderRegister() {
        // ISA 6.4.x "operand size exceeding instruction-type size": a destination register wider than the
        // instruction type is sign-extended for signed types and zero-extended otherwise.
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0x000001f0;\ncvt.s8.s32 %r2, %r1;\n" + w(0, "%r2")
                + "cvt.u8.s32 %r3, %r1;\n" + w(1, "%r3") + "mov.b32 %r4, 0x00018000;\ncvt.s16.u32 %r5, %r4;\n" + w(2, "%r5")
                + "cvt.rzi.s16.f32 %r6, 0fC0400000;\n" + w(3, "%r6") + "cvt.rzi.s8.f32 %r7, 0fC0400000;\n" + w(4, "%r7")).ok();
        assertEquals(u32((byte) 0xf0), w(r, 0));
        assertEquals(0xf0L, w(r, 1));
        assertEquals(u32((short) 0x8000), w(r, 2));
        assertEquals(u32(-3), w(r, 3));
        assertEquals(u32(-3), w(r, 4));
    }

    @Test
    void saturatingIntegerConversionsClampToTheDestinationRange() {
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 300;\nmov.b32 %r2, -300;\nmov.b32 %r3, -5;\n"
                + "cvt.sat.s8.s32 %r4, %r1;\n" + w(0, "%r4") + "cvt.sat.s8.s32 %r5, %r2;\n" + w(1, "%r5")
                + "cvt.sat.u8.s32 %r6, %r3;\n" + w(2, "%r6") + "cvt.sat.u8.s32 %r7, %r1;\n" + w(3, "%r7")
                + "cvt.sat.s32.u32 %r8, %r3;\n" + w(4, "%r8") + "cvt.sat.u32.s32 %r9, %r3;\n" + w(5, "%r9")
                + "mov.b64 %rd1, 0x100000000;\ncvt.sat.u32.s64 %r10, %rd1;\n" + w(6, "%r10")
                + "mov.b64 %rd2, -0x100000000;\ncvt.sat.s32.s64 %r11, %rd2;\n" + w(7, "%r11")
                + "cvt.sat.u64.s64 %rd3, %rd2;\n" + x(0, "%rd3") + "mov.b64 %rd4, -1;\ncvt.sat.s64.u64 %rd5, %rd4;\n"
                + x(1, "%rd5")).ok();
        assertEquals(127L, w(r, 0));
        assertEquals(u32(-128), w(r, 1));
        assertEquals(0L, w(r, 2));
        assertEquals(255L, w(r, 3));
        assertEquals(0x7FFFFFFFL, w(r, 4));
        assertEquals(0L, w(r, 5));
        assertEquals(0xFFFFFFFFL, w(r, 6));
        assertEquals(u32(Integer.MIN_VALUE), w(r, 7));
        assertEquals(0L, x(r, 0));
        assertEquals(Long.MAX_VALUE, x(r, 1));
    }

    @Test
    void floatToIntegerRoundingModes() {
        float[] vs = {2.5f, 3.5f, -2.5f, -2.7f, 2.1f, -2.1f, 0.49999997f};
        String[] modes = {"rni", "rzi", "rmi", "rpi"};
        StringBuilder body = new StringBuilder();
        int slot = 0;
        for (float v : vs) {
            for (String m : modes) body.append("cvt.").append(m).append(".s32.f32 %r1, ").append(imm(v)).append(";\n").append(w(slot++, "%r1"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        slot = 0;
        for (float v : vs) {
            assertEquals(u32((int) Math.rint(v)), w(r, slot++), "rni " + v);
            assertEquals(u32((int) v), w(r, slot++), "rzi " + v);
            assertEquals(u32((int) Math.floor(v)), w(r, slot++), "rmi " + v);
            assertEquals(u32((int) Math.ceil(v)), w(r, slot++), "rpi " + v);
        }
    }

    @Test
    void floatToIntegerSaturatesAndMapsNaNToZero() {
        LaunchedRun r = ExecKernel.of("mov.b32 %f1, 0x7fc00000;\ncvt.rzi.s32.f32 %r1, %f1;\n" + w(0, "%r1")
                + "cvt.rzi.s32.f32 %r2, " + imm(3e9f) + ";\n" + w(1, "%r2") + "cvt.rzi.s32.f32 %r3, " + imm(-3e9f) + ";\n" + w(2, "%r3")
                + "cvt.rzi.u32.f32 %r4, 0fBF800000;\n" + w(3, "%r4") + "cvt.rzi.u32.f32 %r5, " + imm(5e9f) + ";\n" + w(4, "%r5")
                + "cvt.rzi.s64.f64 %rd1, " + imm(1e19) + ";\n" + x(0, "%rd1") + "cvt.rzi.u64.f64 %rd2, " + imm(1.5e19) + ";\n"
                + x(1, "%rd2") + "cvt.rzi.u64.f32 %rd3, 0f7F800000;\n" + x(2, "%rd3") + "cvt.rni.s64.f64 %rd4, " + imm(-1e300)
                + ";\n" + x(3, "%rd4") + "cvt.rzi.u16.f32 %r6, " + imm(70000f) + ";\n" + w(5, "%r6")).ok();
        assertEquals(0L, w(r, 0));
        assertEquals(0x7FFFFFFFL, w(r, 1));
        assertEquals(0x80000000L, w(r, 2));
        assertEquals(0L, w(r, 3));
        assertEquals(0xFFFFFFFFL, w(r, 4));
        assertEquals(Long.MAX_VALUE, x(r, 0));
        assertEquals(new BigDecimal(1.5e19).toBigInteger().longValue(), x(r, 1));
        assertEquals(-1L, x(r, 2));
        assertEquals(Long.MIN_VALUE, x(r, 3));
        assertEquals(0xFFFFL, w(r, 4 + 1));
    }

    @Test
    void integerToFloatRoundsToNearestEven() {
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 16777217;\ncvt.rn.f32.s32 %f1, %r1;\nmov.b32 %r2, %f1;\n" + w(0, "%r2")
                + "mov.b32 %r3, -1;\ncvt.rn.f32.u32 %f2, %r3;\nmov.b32 %r4, %f2;\n" + w(1, "%r4")
                + "cvt.rn.f32.s32 %f3, %r3;\nmov.b32 %r5, %f3;\n" + w(2, "%r5")
                + "cvt.rn.f64.u32 %fd1, %r3;\nmov.b64 %rd1, %fd1;\n" + x(0, "%rd1")
                + "mov.b64 %rd2, -1;\ncvt.rn.f64.u64 %fd2, %rd2;\nmov.b64 %rd3, %fd2;\n" + x(1, "%rd3")
                + "mov.b64 %rd4, 0x20000001;\ncvt.rn.f32.s64 %f4, %rd4;\nmov.b32 %r6, %f4;\n" + w(3, "%r6")
                + "mov.b64 %rd5, -9007199254740993;\ncvt.rn.f64.s64 %fd3, %rd5;\nmov.b64 %rd6, %fd3;\n" + x(2, "%rd6")).ok();
        assertEquals(f32(16777216f), w(r, 0));
        assertEquals(f32(4294967296f), w(r, 1));
        assertEquals(f32(-1f), w(r, 2));
        assertEquals(f64(4294967295.0), x(r, 0));
        assertEquals(f64(0x1p64), x(r, 1));
        assertEquals(f32(0x20000000), w(r, 3));
        assertEquals(f64(-9007199254740992.0), x(r, 2));
    }

    @Test
    void unsigned64ToFloatRoundsOnceFromTheExactInteger() {
        // 2^63 + 2^10 + 1 is just above the midpoint between doubles 2^63 and 2^63 + 2^11: it rounds up.
        // 2^63 + 2^39 + 1 is just above the midpoint between floats 2^63 and 2^63 + 2^40: it rounds up.
        long u1 = Long.MIN_VALUE + (1L << 10) + 1;
        long u2 = Long.MIN_VALUE + (1L << 39) + 1;
        LaunchedRun r = ExecKernel.of("mov.b64 %rd1, " + u1 + ";\ncvt.rn.f64.u64 %fd1, %rd1;\nmov.b64 %rd2, %fd1;\n" + x(0, "%rd2")
                + "mov.b64 %rd3, " + u2 + ";\ncvt.rn.f32.u64 %f1, %rd3;\nmov.b32 %r1, %f1;\n" + w(0, "%r1")).ok();
        assertEquals(f64(0x1p63 + 0x1p11), x(r, 0));
        assertEquals(f64(new BigDecimal(new BigInteger(Long.toUnsignedString(u1))).doubleValue()), x(r, 0));
        assertEquals(0x5F000001L, w(r, 0)); // 2^63 + 2^40
    }

    @Test
    void f32AndF64Conversions() {
        LaunchedRun r = ExecKernel.of("cvt.f64.f32 %fd1, " + imm(0.1f) + ";\nmov.b64 %rd1, %fd1;\n" + x(0, "%rd1")
                + "cvt.rn.f32.f64 %f1, " + imm(0.1) + ";\nmov.b32 %r1, %f1;\n" + w(0, "%r1")
                + "cvt.rn.f32.f64 %f2, " + imm(1e300) + ";\nmov.b32 %r2, %f2;\n" + w(1, "%r2")
                + "cvt.rni.f32.f32 %f3, 0f40200000;\nmov.b32 %r3, %f3;\n" + w(2, "%r3")
                + "cvt.rzi.f64.f64 %fd2, " + imm(-2.7) + ";\nmov.b64 %rd2, %fd2;\n" + x(1, "%rd2")
                + "cvt.rmi.f32.f32 %f4, 0fC0200000;\nmov.b32 %r4, %f4;\n" + w(3, "%r4")
                + "cvt.rn.f32.f64 %f5, " + imm(1e-50) + ";\nmov.b32 %r5, %f5;\n" + w(4, "%r5")
                + "cvt.sat.f32.f32 %f6, 0f40000000;\nmov.b32 %r6, %f6;\n" + w(5, "%r6")).ok();
        assertEquals(f64(0.1f), x(r, 0));
        assertEquals(f32((float) 0.1), w(r, 0));
        assertEquals(f32(Float.POSITIVE_INFINITY), w(r, 1));
        assertEquals(f32(2f), w(r, 2)); // rint(2.5) = 2
        assertEquals(f64(-2.0), x(r, 1));
        assertEquals(f32(-3f), w(r, 3));
        assertEquals(0L, w(r, 4));
        assertEquals(f32(1f), w(r, 5));
    }

    @Test
    void halfPrecisionConversions() {
        // f16 bit patterns: 1.0 = 0x3c00, 65504 = 0x7bff (max), 2^-24 = 0x0001 (min subnormal), 1/3 = 0x3555.
        float[] in = {1f, 65504f, 65520f, 1f / 3, 0x1p-24f, 0x1p-25f, 3 * 0x1p-26f, -0f, -2.5f, 1f + 0x1p-11f, 1f + 3 * 0x1p-11f};
        int[] out = {0x3c00, 0x7bff, 0x7c00, 0x3555, 0x0001, 0x0000, 0x0001, 0x8000, 0xc100, 0x3c00, 0x3c02};
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < in.length; i++) {
            body.append("cvt.rn.f16.f32 %h1, ").append(imm(in[i])).append(";\nst.global.u16 [%rd40+").append(4 * i)
                    .append("], %h1;\n");
        }
        int[] back = {0x3555, 0x8001, 0x7c00, 0xfbff, 0x0400};
        for (int i = 0; i < back.length; i++) {
            body.append("mov.b16 %h2, ").append(back[i]).append(";\ncvt.f32.f16 %f1, %h2;\nmov.b32 %r1, %f1;\n").append(w(20 + i, "%r1"));
        }
        body.append("mov.b16 %h3, 0x7e00;\ncvt.f32.f16 %f2, %h3;\nmov.b32 %r2, %f2;\n").append(w(30, "%r2"));
        body.append("mov.b32 %f3, 0x7fc00000;\ncvt.rn.f16.f32 %h4, %f3;\nst.global.u16 [%rd40+124], %h4;\n");
        body.append("mov.b32 %r3, 3;\ncvt.rn.f16.s32 %h5, %r3;\nst.global.u16 [%rd40+128], %h5;\n");
        body.append("mov.b16 %h6, 0xc500;\ncvt.rni.s32.f16 %r4, %h6;\n").append(w(33, "%r4"));
        body.append("cvt.f64.f16 %fd1, %h2;\nmov.b64 %rd1, %fd1;\n").append(x(0, "%rd1"));
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        for (int i = 0; i < in.length; i++) assertEquals(out[i], w(r, i), "f16 of " + in[i]);
        assertEquals(f32(0x1.554p-2f), w(r, 20)); // 0x3555 = (1 + 0x155/1024) * 2^-2
        assertEquals(f32(-0x1p-24f), w(r, 21));
        assertEquals(f32(Float.POSITIVE_INFINITY), w(r, 22));
        assertEquals(f32(-65504f), w(r, 23));
        assertEquals(f32(0x1p-14f), w(r, 24));
        assertTrue(Float.isNaN(Float.intBitsToFloat((int) w(r, 30))));
        long nanHalf = w(r, 31);
        assertTrue((nanHalf & 0x7c00) == 0x7c00 && (nanHalf & 0x3ff) != 0, "NaN stays NaN: " + Long.toHexString(nanHalf));
        assertEquals(0x4200L, w(r, 32));
        assertEquals(u32(-5), w(r, 33));
        assertEquals(f64(0x1p-14), x(r, 0));
    }

    @Test
    void f64ToHalfRoundsOnce() {
        // 1 + 2^-11 + 2^-40 lies above the midpoint between halves 1.0 and 1 + 2^-10; going through f32 first
        // would make it an exact tie (1 + 2^-11) and round to even (1.0).
        LaunchedRun r = ExecKernel.of("cvt.rn.f16.f64 %h1, " + imm(1 + 0x1p-11 + 0x1p-40) + ";\nst.global.u16 [%rd40], %h1;\n").ok();
        assertEquals(0x3c01L, w(r, 0));
    }

    @Test
    void reluAndSatfiniteHalfConversions() {
        // .relu: negative results become +0, NaN becomes the canonical NaN (0x7fff); .satfinite: beyond the
        // largest finite half (65504) the result is +-65504 instead of infinity.
        LaunchedRun r = ExecKernel.of("cvt.rn.relu.f16.f32 %h1, 0fC0000000;\nst.global.u16 [%rd40], %h1;\n"
                + "cvt.rn.relu.f16.f32 %h2, 0f40000000;\nst.global.u16 [%rd40+4], %h2;\nmov.b32 %f1, 0x7fc00000;\n"
                + "cvt.rn.relu.f16.f32 %h3, %f1;\nst.global.u16 [%rd40+8], %h3;\n"
                + "cvt.rn.satfinite.f16.f32 %h4, " + imm(70000f) + ";\nst.global.u16 [%rd40+12], %h4;\n"
                + "cvt.rn.satfinite.f16.f32 %h5, 0fFF800000;\nst.global.u16 [%rd40+16], %h5;\n").ok();
        assertEquals(0L, w(r, 0));
        assertEquals(0x4000L, w(r, 1));
        assertEquals(0x7fffL, w(r, 2));
        assertEquals(0x7bffL, w(r, 3));
        assertEquals(0xfbffL, w(r, 4));
    }

    @Test
    void movPacksAndUnpacksVectors() {
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0x11112222;\nmov.b32 %r2, 0x33334444;\nmov.b64 %rd1, {%r1, %r2};\n" + x(0, "%rd1")
                + "mov.b64 {%r3, %r4}, %rd1;\n" + w(0, "%r3") + w(1, "%r4") + "mov.b32 {%h1, %h2}, %r1;\n"
                + "st.global.u16 [%rd40+8], %h1;\nst.global.u16 [%rd40+12], %h2;\nmov.b32 %r5, {%h2, %h1};\n" + w(4, "%r5")).ok();
        assertEquals(0x3333444411112222L, x(r, 0));
        assertEquals(0x11112222L, w(r, 0));
        assertEquals(0x33334444L, w(r, 1));
        assertEquals(0x2222L, w(r, 2));
        assertEquals(0x1111L, w(r, 3));
        assertEquals(0x22221111L, w(r, 4));
    }

    @Test
    void cvtaRoundTripsThroughTheGenericWindows() {
        String body = "mov.u64 %rd1, sm;\ncvta.shared.u64 %rd2, %rd1;\ncvta.to.shared.u64 %rd3, %rd2;\n" + x(0, "%rd3")
                + "mov.u32 %r1, 77;\nst.u32 [%rd2+4], %r1;\nld.shared.u32 %r2, [sm+4];\n" + w(0, "%r2")
                + "mov.u64 %rd4, loc;\ncvta.local.u64 %rd5, %rd4;\nst.u32 [%rd5], %r1;\nld.local.u32 %r3, [loc];\n" + w(1, "%r3")
                + "cvta.global.u64 %rd6, %rd40;\ncvta.to.global.u64 %rd7, %rd6;\nsub.s64 %rd8, %rd7, %rd40;\n" + x(1, "%rd8");
        LaunchedRun r = ExecKernel.of(".local .align 4 .b8 loc[16];\n" + body).header(".shared .align 4 .b8 sm[64];").ok();
        assertEquals(0L, x(r, 0)); // sm is at offset 0 of the shared window
        assertEquals(77L, w(r, 0));
        assertEquals(77L, w(r, 1));
        assertEquals(0L, x(r, 1));
    }

    @Test
    void cvtaToSharedOfANonSharedAddressFaults() {
        LaunchedRun r = ExecKernel.of("cvta.to.shared.u64 %rd1, %rd40;").run();
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        assertEquals(java.util.List.of("memory-fault"), ExecKernel.codes(r));
    }
}
