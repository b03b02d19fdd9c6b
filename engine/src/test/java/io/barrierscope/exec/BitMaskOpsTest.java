package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import org.junit.jupiter.api.Test;

/**
 * bmsk and szext (PTX ISA 9.7.1): each result checked against a reference that builds the mask or the
 * extension bit by bit from the instruction's description, not from its pseudocode.
 */
class BitMaskOpsTest {
    private static final long[] EDGES = {0, 1, 5, 16, 31, 32, 33, 40, 63, 64, 0xFFFFFFFFL};

    /** Bits [pos, pos + width) below bit 32; .clamp: pos >= 32 gives no bits, width >= 32 reaches bit 31; .wrap: both mod 32. */
    private static long maskReference(long pos, long width, boolean clamp) {
        long p = clamp ? pos : pos % 32;
        long n = clamp ? Math.min(width, 32) : width % 32;
        long r = 0;
        for (long i = p; i < p + n && i < 32; i++) r |= 1L << i;
        return r;
    }

    /** The low N bits of a, sign- or zero-extended; N is b capped at 32 (.clamp) or b mod 32 (.wrap); N = 0 gives 0. */
    private static long extendReference(long a, long b, boolean clamp, boolean signed) {
        long n = clamp ? Math.min(b, 32) : b % 32;
        long r = 0;
        for (int i = 0; i < 32; i++) {
            long bit = i < n ? (a >>> i) & 1 : (signed && n > 0 ? (a >>> (n - 1)) & 1 : 0);
            r |= bit << i;
        }
        return r;
    }

    private static void checkAll(String mode, boolean clamp) {
        StringBuilder body = new StringBuilder();
        int i = 0;
        for (long pos : EDGES) {
            for (long width : EDGES) {
                body.append("mov.u32 %r1, ").append(pos).append(";\nmov.u32 %r2, ").append(width).append(";\n")
                        .append("bmsk.").append(mode).append(".b32 %r3, %r1, %r2;\n").append(w(i++, "%r3"));
            }
        }
        LaunchedRun r = ExecKernel.of(body.toString()).wSlots(i).ok();
        i = 0;
        for (long pos : EDGES) {
            for (long width : EDGES) {
                assertEquals(maskReference(pos, width, clamp), w(r, i++), "bmsk." + mode + " " + pos + ", " + width);
            }
        }
    }

    @Test
    void bmskClampGivesNoBitsFromPositionsPast31AndCapsTheWidthAtBit31() { checkAll("clamp", true); }

    @Test
    void bmskWrapTakesPositionAndWidthModulo32() { checkAll("wrap", false); }

    @Test
    void bmskMatchesTheIsaExample() {
        LaunchedRun r = ExecKernel.of("bmsk.wrap.b32 %r1, 1, 2;\n" + w(0, "%r1")).ok();
        assertEquals(0x6L, w(r, 0));
    }

    @Test
    void szextWrapTakesTheWidthModulo32AndClampCapsItAt32() {
        long[] values = {0x80000000L, 0x7FFFFFFFL, 0xFFFF8001L, 0x5L};
        long[] widths = {0, 1, 4, 16, 31, 32, 33, 48, 0xFFFFFFFFL};
        String[] forms = {"clamp.s32", "clamp.u32", "wrap.s32", "wrap.u32"};
        StringBuilder body = new StringBuilder();
        int i = 0;
        for (String f : forms) {
            for (long a : values) {
                for (long b : widths) {
                    body.append("mov.u32 %r1, ").append(a).append(";\nmov.u32 %r2, ").append(b).append(";\n")
                            .append("szext.").append(f).append(" %r3, %r1, %r2;\n").append(w(i++, "%r3"));
                }
            }
        }
        LaunchedRun r = ExecKernel.of(body.toString()).wSlots(i).ok();
        i = 0;
        for (String f : forms) {
            for (long a : values) {
                for (long b : widths) {
                    long want = extendReference(a, b, f.startsWith("clamp"), f.endsWith("s32"));
                    assertEquals(want, w(r, i++), "szext." + f + " " + Long.toHexString(a) + ", " + b);
                }
            }
        }
    }
}
