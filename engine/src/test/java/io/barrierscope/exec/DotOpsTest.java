package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** dp4a, dp2a and sad (PTX ISA 9.7.1): byte and half-word dot products, sum of absolute difference. */
class DotOpsTest {
    @Test
    void dp4aAddsTheFourByteProductsSignExtendingSignedOperands() {
        // a bytes (low first) 1, -2 (0xFE), 3, -128 (0x80); b bytes 5, 6, -7 (0xF9), 2.
        String body = "mov.b32 %r1, 0x8003FE01;\nmov.b32 %r2, 0x02F90605;\n"
                + "dp4a.s32.s32 %r3, %r1, %r2, 10;\n" + w(0, "%r3")
                + "dp4a.u32.u32 %r4, %r1, %r2, 10;\n" + w(1, "%r4")
                + "dp4a.u32.s32 %r5, %r1, %r2, 0;\n" + w(2, "%r5")
                + "dp4a.s32.u32 %r6, %r1, %r2, 0xFFFFFFFF;\n" + w(3, "%r6");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals((10 + 5 - 12 - 21 - 256) & 0xFFFFFFFFL, w(r, 0));
        assertEquals(10L + 5 + 254 * 6 + 3 * 249 + 128 * 2, w(r, 1));
        assertEquals((5 + 254 * 6 + 3 * -7 + 128 * 2) & 0xFFFFFFFFL, w(r, 2), "a unsigned, b signed");
        assertEquals((-1 + 5 - 12 + 3 * 249 - 256) & 0xFFFFFFFFL, w(r, 3), "a signed, b unsigned; the sum wraps");
    }

    @Test
    void dp2aTakesBBytesZeroAndOneWithLoAndTwoAndThreeWithHi() {
        // a halves 300, -2 (0xFFFE); b bytes 1, 2, 3, -4 (0xFC).
        String body = "mov.b32 %r1, 0xFFFE012C;\nmov.b32 %r2, 0xFC030201;\n"
                + "dp2a.lo.s32.s32 %r3, %r1, %r2, 7;\n" + w(0, "%r3")
                + "dp2a.hi.s32.s32 %r4, %r1, %r2, 7;\n" + w(1, "%r4")
                + "dp2a.hi.u32.u32 %r5, %r1, %r2, 0;\n" + w(2, "%r5");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(7L + 300 - 4, w(r, 0));
        assertEquals(7L + 900 + 8, w(r, 1));
        assertEquals(900L + 65534L * 252, w(r, 2));
    }

    @Test
    void sadAddsTheAbsoluteDifferenceInTheTypesSignedness() {
        String body = "sad.s32 %r1, -5, 3, 100;\n" + w(0, "%r1")
                + "sad.u32 %r2, -5, 3, 100;\n" + w(1, "%r2")
                + "sad.u16 %h1, 2, 9, 1;\ncvt.u32.u16 %r3, %h1;\n" + w(2, "%r3");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(108L, w(r, 0));
        assertEquals((100L + 0xFFFFFFFBL - 3) & 0xFFFFFFFFL, w(r, 1), "unsigned: -5 is 2^32 - 5");
        assertEquals(8L, w(r, 2));
    }

    @Test
    void operandTypesOtherThanU32AndS32AndAMissingModeAreRefused() {
        for (String bad : List.of("dp4a.s32.s16 %r1, %r2, %r3, %r4;", "dp2a.s32.s32 %r1, %r2, %r3, %r4;", "sad.f32 %f1, %f2, %f3, %f4;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains(bad.substring(0, 4)), e.getMessage());
        }
    }

    @Test
    void dp4aAndDp2aAtTheSignedExtremesWrapModulo2To32() {
        // Bytes -128 (0x80): 4 * 16384 = 65536 added to 0x7FFFFFFF wraps to 0x8000FFFF; a signed, b unsigned 255:
        // 4 * -32640 = -130560. dp2a: halves -32768 times bytes -128 twice = 2^23; .hi with a unsigned: 32768*127 + 32768*-128.
        String body = "mov.b32 %r1, 0x80808080;\ndp4a.s32.s32 %r2, %r1, %r1, 0x7FFFFFFF;\n" + w(0, "%r2")
                + "dp4a.s32.u32 %r3, %r1, 0xFFFFFFFF, 0;\n" + w(1, "%r3")
                + "dp4a.u32.u32 %r4, %r1, %r1, 0xFFFFFFFF;\n" + w(2, "%r4")
                + "mov.b32 %r5, 0x80008000;\ndp2a.lo.s32.s32 %r6, %r5, %r1, 0;\n" + w(3, "%r6")
                + "dp2a.hi.u32.s32 %r7, %r5, 0x807F0000, 0;\n" + w(4, "%r7");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(0x8000FFFFL, w(r, 0));
        assertEquals(-130560L & 0xFFFFFFFFL, w(r, 1));
        assertEquals(0xFFFFL, w(r, 2), "65536 - 1");
        assertEquals(1L << 23, w(r, 3));
        assertEquals(-32768L & 0xFFFFFFFFL, w(r, 4));
    }

    @Test
    void sadOfTheTypesExtremesWrapsInTheTypesWidth() {
        // |MAX - MIN| = 2^n - 1, so c + it is c - 1 in n bits, for every width and signedness.
        String body = "sad.s32 %r1, 0x7FFFFFFF, 0x80000000, 5;\n" + w(0, "%r1")
                + "sad.u32 %r2, 0, 0xFFFFFFFF, 5;\n" + w(1, "%r2")
                + "sad.s16 %h1, 0x7FFF, 0x8000, 2;\ncvt.u32.u16 %r3, %h1;\n" + w(2, "%r3")
                + "sad.u64 %rd1, 0, -1, 7;\n" + ExecKernel.x(0, "%rd1")
                + "sad.s64 %rd2, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 3;\n" + ExecKernel.x(1, "%rd2");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(4L, w(r, 0));
        assertEquals(4L, w(r, 1));
        assertEquals(1L, w(r, 2));
        assertEquals(6L, ExecKernel.x(r, 0));
        assertEquals(2L, ExecKernel.x(r, 1));
    }

    @Test
    void sadOnABitSizeTypeIsRefusedByName() {
        // .type = {.u16, .u32, .u64, .s16, .s32, .s64} (9.7.1): sad.b32 was run as unsigned.
        BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of("sad.b32 %r1, 1, 2, 3;").launch());
        assertTrue(e.getMessage().contains("sad.b32"), e.getMessage());
    }
}
