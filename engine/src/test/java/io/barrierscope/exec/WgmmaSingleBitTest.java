package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.WgmmaTest.Case;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Single-bit {@code wgmma.mma_async.m64nNk256.s32.b1.b1.and.popc} (PTX ISA 9.7.15.5.2) against
 * a reference written here from the matrix definition: D(i, j) = (scale-d ? C(i, j) : 0) + the
 * number of k in 0..255 with A(i, k) = B(k, j) = 1, in 32-bit wrapping arithmetic. Shared memory
 * is laid out by the test from the ISA's shared-memory layout (a row of 256 bits is 32 bytes,
 * element k at bit k mod 8 of byte k / 8), A's registers from the ISA's fragment formula, and
 * D is read through the accumulator table ({@link WgmmaTest#dAt}).
 */
class WgmmaSingleBitTest {
    static final String INSN = "wgmma.mma_async.sync.aligned.m64n%dk256.s32.b1.b1.and.popc D, A, B, P";

    static boolean[][] bits(int rows, int cols, SplittableRandom r) {
        boolean[][] m = new boolean[rows][cols];
        for (boolean[] row : m) for (int j = 0; j < cols; j++) row[j] = r.nextInt(3) != 0;
        return m;
    }

    /** Byte {@code kb} (0..31) of row {@code row} of a K-major operand: elements 8kb..8kb+7, low bit first. */
    static int rowByte(boolean[] row, int kb) {
        int v = 0;
        for (int i = 0; i < 8; i++) if (row[8 * kb + i]) v |= 1 << i;
        return v;
    }

    /** Byte offset of byte kb of row r: 32-byte swizzle (rows of 32 bytes, TMA's pattern), or unswizzled core matrices. */
    static int at(int base, int row, int kb, boolean swizzle32) {
        if (swizzle32) return WgmmaTest.swizzled(base, row, kb, 32);
        // core matrices of 8 rows x 16 bytes; LBO 128 (next along K), SBO 256 (next 8 rows)
        return base + (row / 8) * 256 + (kb / 16) * 128 + (row % 8) * 16 + kb % 16;
    }

    static final long REST_SW32 = WgmmaTest.desc(16, 256, 3);
    static final long REST_CORE = WgmmaTest.desc(128, 256, 0);

    static byte[] image(boolean[][] a, boolean[][] bt, boolean swizzle32) {
        byte[] img = new byte[WgmmaTest.IMAGE];
        for (int m = 0; m < 64; m++) for (int kb = 0; kb < 32; kb++) img[at(WgmmaTest.OFF_A, m, kb, swizzle32)] = (byte) rowByte(a[m], kb);
        for (int n = 0; n < bt.length; n++) for (int kb = 0; kb < 32; kb++) img[at(WgmmaTest.OFF_B, n, kb, swizzle32)] = (byte) rowByte(bt[n], kb);
        return img;
    }

    /**
     * A's registers as the ISA's formula places them: warp w holds rows 16w..16w+15; lane l,
     * element i (register i / 32, bit i mod 32): row groupID for i in 0..31 or 64..95, else
     * groupID + 8; column threadID_in_group * 32 + (i mod 32), + 128 for i >= 64.
     */
    static long[] aRegisters(boolean[][] a) {
        long[] regs = new long[128 * 4];
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                int g = l / 4;
                int tg = l % 4;
                for (int i = 0; i < 128; i++) {
                    int row = (i < 32 || (i >= 64 && i < 96)) ? g : g + 8;
                    int col = tg * 32 + (i % 32) + (i >= 64 ? 128 : 0);
                    if (a[16 * w + row][col]) regs[(32 * w + l) * 4 + i / 32] |= 1L << (i % 32);
                }
            }
        }
        return regs;
    }

    static long[] dInit(int[][] c, int n) {
        long[] out = new long[128 * (n / 2)];
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < n / 2; i++) {
                    int[] rc = WgmmaTest.dAt(w, l, i);
                    out[(32 * w + l) * (n / 2) + i] = c[rc[0]][rc[1]] & 0xFFFFFFFFL;
                }
            }
        }
        return out;
    }

    /** Runs the case and compares every element of D with the reference. */
    static void check(int n, boolean[][] a, boolean[][] bt, int[][] c, boolean scaleD, boolean fromRegisters, boolean swizzle32) {
        Case cs = new Case(String.format(INSN, n), image(a, bt, swizzle32), swizzle32 ? REST_SW32 : REST_CORE,
                swizzle32 ? REST_SW32 : REST_CORE, n / 2, dInit(c, n), fromRegisters ? aRegisters(a) : null, scaleD);
        long[] got = WgmmaTest.run(cs);
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < n / 2; i++) {
                    int[] rc = WgmmaTest.dAt(w, l, i);
                    int want = scaleD ? c[rc[0]][rc[1]] : 0;
                    for (int k = 0; k < 256; k++) if (a[rc[0]][k] && bt[rc[1]][k]) want++;
                    assertEquals(want, (int) got[(32 * w + l) * (n / 2) + i], "N " + n + " D(" + rc[0] + ", " + rc[1] + ")");
                }
            }
        }
    }

    static int[][] ints(int rows, int cols, SplittableRandom r) {
        int[][] c = new int[rows][cols];
        for (int[] row : c) for (int j = 0; j < cols; j++) row[j] = r.nextInt(-1000, 1000);
        return c;
    }

    @Test
    void andPopcFromDescriptorsForSeveralN() {
        SplittableRandom r = new SplittableRandom(11);
        for (int n : new int[] {8, 24, 48, 256}) {
            boolean[][] a = bits(64, 256, r);
            boolean[][] bt = bits(n, 256, r); // column j of B, as a row along K
            check(n, a, bt, ints(64, n, r), true, false, true);
        }
    }

    @Test
    void unswizzledCoreMatricesAndScaleDFalse() {
        SplittableRandom r = new SplittableRandom(12);
        boolean[][] a = bits(64, 256, r);
        boolean[][] bt = bits(16, 256, r);
        check(16, a, bt, ints(64, 16, r), false, false, false);
        check(16, a, bt, ints(64, 16, r), true, false, false);
    }

    @Test
    void aFromRegistersUsesTheM16n8k256FragmentPerWarp() {
        SplittableRandom r = new SplittableRandom(13);
        for (int n : new int[] {8, 32}) {
            boolean[][] a = bits(64, 256, r);
            boolean[][] bt = bits(n, 256, r);
            check(n, a, bt, ints(64, n, r), true, true, true);
        }
    }

    @Test
    void theSumWrapsModulo2To32() {
        SplittableRandom r = new SplittableRandom(14);
        boolean[][] a = bits(64, 256, r);
        boolean[][] bt = bits(8, 256, r);
        int[][] c = new int[64][8];
        for (int[] row : c) java.util.Arrays.fill(row, Integer.MAX_VALUE - 3);
        check(8, a, bt, c, true, false, true);
    }

    @Test
    void formsOutsideTheIsasSingleBitListAreRefusedByName() {
        String d4 = "{%r10, %r11, %r12, %r13}";
        for (String bad : new String[] {
            "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.xor.popc " + d4 + ", %rd1, %rd2, %p1;",
            "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1 " + d4 + ", %rd1, %rd2, %p1;",
            "wgmma.mma_async.sync.aligned.m64n8k128.s32.b1.b1.and.popc " + d4 + ", %rd1, %rd2, %p1;",
            "wgmma.mma_async.sync.aligned.m64n40k256.s32.b1.b1.and.popc " + d4 + ", %rd1, %rd2, %p1;",
            "wgmma.mma_async.sync.aligned.m64n8k256.f32.b1.b1.and.popc " + d4 + ", %rd1, %rd2, %p1;"}) {
            Exception e = assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(128).launch());
            assertTrue(e.getMessage().contains("unsupported instruction " + bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
        for (String bad : new String[] {
            "wgmma.mma_async.sync.aligned.m64n8k256.satfinite.s32.b1.b1.and.popc " + d4 + ", %rd1, %rd2, %p1;",
            "wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc " + d4 + ", %rd1, %rd2, %p1;",
            "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc " + d4 + ", %rd1, %rd2, %p1, 1, 1;",
            "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8.and.popc " + d4 + ", %rd1, %rd2, %p1;"}) {
            Exception e = assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(128).launch());
            assertTrue(e.getMessage().contains("wgmma.mma_async"), e.getMessage());
        }
    }
}
