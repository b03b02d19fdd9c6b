package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.MmaTest.Matrix;
import io.barrierscope.exec.WgmmaTest.Case;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.math.BigDecimal;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Sparse {@code wgmma.mma_async.sp} (PTX ISA 9.7.15.6) against a dense reference built here: the
 * test draws a structured-sparse A (64 x K, two non-zeros in each chunk of four, one in each pair
 * for tf32), stores only its non-zeros (64 x K/2) and writes each lane's metadata register from
 * CUTLASS's metadata layouts (thread and value index to row and column, cute ELayout_64x32,
 * _64x16 and _64x64; chunk j of a register at bits 4j..4j+3, the low 2-bit index placing the
 * chunk's first stored element). D is then the exact dense product A·B (+ C) rounded once,
 * read through the ISA's accumulator table.
 */
class WgmmaSparseTest {

    /** A drawn sparse A: the dense matrix (zeros included), the stored half, and the per-chunk nibbles. */
    record Sparse(Matrix dense, Matrix packed, int[][] nibble) {}

    /** {@code elems} stored values of which two (or one for chunk 2) per chunk; positions in a random order. */
    static Sparse sparse(int k, int chunk, MmaTest.Gen g, java.util.function.IntFunction<BigDecimal> value, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Matrix packed = MmaTest.matrix(64, k / 2, g, value, seed + 1);
        int[][] bits = new int[64][k];
        BigDecimal[][] v = new BigDecimal[64][k];
        int[][] nib = new int[64][k / chunk];
        for (int i = 0; i < 64; i++) {
            java.util.Arrays.fill(v[i], BigDecimal.ZERO);
            for (int c = 0; c < k / chunk; c++) {
                if (chunk == 2) {
                    int pos = r.nextInt(2);
                    nib[i][c] = pos == 0 ? 0b0100 : 0b1110;
                    bits[i][2 * c + pos] = packed.bits()[i][c];
                    v[i][2 * c + pos] = packed.value()[i][c];
                    continue;
                }
                int p0 = r.nextInt(4);
                int p1 = (p0 + 1 + r.nextInt(3)) % 4;
                nib[i][c] = p0 | p1 << 2;
                bits[i][4 * c + p0] = packed.bits()[i][2 * c];
                v[i][4 * c + p0] = packed.value()[i][2 * c];
                bits[i][4 * c + p1] = packed.bits()[i][2 * c + 1];
                v[i][4 * c + p1] = packed.value()[i][2 * c + 1];
            }
        }
        return new Sparse(new Matrix(bits, v), packed, nib);
    }

    /**
     * Each thread's metadata register. CUTLASS's layouts give thread (t0, t1, t2, t3) = (lane bit 0,
     * lane bit 1, lane / 4, warp) and value v of the register the element (m, k):
     * f16 (64x32): m = t2 + 16 t3 + 8 (v / 16), k = 16 t0 + v mod 16, t1 the selector;
     * tf32 (64x16): m = t2 + 16 t3 + 8 (v / 8), k = 8 t0 + v mod 8, t1 the selector;
     * 8-bit (64x64): m = t2 + 16 t3 + 8 t0, k = 32 t1 + v.
     * Lanes the selector leaves out get {@code other}.
     */
    static long[] metadata(Sparse s, int k, int sel, int other) {
        long[] out = new long[128];
        for (int t = 0; t < 128; t++) {
            int t0 = t & 1, t1 = (t >> 1) & 1, t2 = (t >> 2) & 7, t3 = t >> 5;
            int word = 0;
            if (k == 64) {
                for (int v = 0; v < 32; v += 4) word |= s.nibble()[t2 + 16 * t3 + 8 * t0][(32 * t1 + v) / 4] << v;
            } else if (t1 != sel) {
                word = other;
            } else {
                int per = k / 2; // elements along K a thread covers per row
                int chunk = k == 32 ? 4 : 2;
                for (int v = 0; v < 2 * per; v += chunk) {
                    int m = t2 + 16 * t3 + 8 * (v / per);
                    int kk = per * t0 + v % per;
                    word |= s.nibble()[m][kk / chunk] << (4 * (v / chunk));
                }
            }
            out[t] = word & 0xFFFFFFFFL;
        }
        return out;
    }

    static final int OFF_A = WgmmaTest.OFF_A;
    static final int OFF_B = WgmmaTest.OFF_B;

    /** A (packed) and B K-major: 128-byte swizzle rows (TMA's pattern), or core matrices (A: LBO 128, SBO 256; B: LBO 128, SBO 512). */
    static byte[] image(Matrix packed, Matrix b, int e, boolean swizzled) {
        byte[] img = new byte[WgmmaTest.IMAGE];
        int kp = packed.bits()[0].length;
        int k = b.bits().length;
        for (int m = 0; m < 64; m++) {
            for (int j = 0; j < kp; j++) WgmmaTest.put(img, at(OFF_A, m, j * e, swizzled, 256), packed.bits()[m][j], e);
        }
        for (int n = 0; n < b.bits()[0].length; n++) {
            for (int j = 0; j < k; j++) WgmmaTest.put(img, at(OFF_B, n, j * e, swizzled, 512), b.bits()[j][n], e);
        }
        return img;
    }

    static int at(int base, int row, int colByte, boolean swizzled, int sbo) {
        if (swizzled) return WgmmaTest.swizzled(base, row, colByte, 128);
        return base + (row / 8) * sbo + (colByte / 16) * 128 + (row % 8) * 16 + colByte % 16;
    }

    static final long CORE_A = WgmmaTest.desc(128, 256, 0);
    static final long CORE_B = WgmmaTest.desc(128, 512, 0);

    /** Runs the instruction with each thread's metadata in %r20 (loaded from buffer "meta") and returns D. */
    static LaunchedRun launch(Case c, long[] meta) {
        String load = "ld.param.u64 %rd30, [meta];\ncvta.to.global.u64 %rd30, %rd30;\nmul.wide.u32 %rd31, %r60, 4;\n"
                + "add.s64 %rd30, %rd30, %rd31;\nld.global.u32 %r20, [%rd30];\n";
        String body = WgmmaTest.body(c, "", "").replace("wgmma.fence.sync.aligned;\n", load + "wgmma.fence.sync.aligned;\n");
        return WgmmaTest.kernel(c, body).buffer("meta", ScalarType.U32, MmaTest.list(meta)).run();
    }

    static long[] result(LaunchedRun r, Case c) {
        assertEquals(List.of(), ExecKernel.codes(r), r.summary());
        long[] out = new long[128 * c.dRegs()];
        for (int i = 0; i < out.length; i++) out[i] = ExecKernel.w(r, i);
        return out;
    }

    /** One f16/bf16 case: A from descriptor or registers, selector sel, the unselected lanes' metadata 0 (meaningless). */
    static void halfCase(String ab, NarrowFloatReference ref, int n, String acc, int sel, boolean regs, boolean swizzled, long seed) {
        Sparse s = sparse(32, 4, MmaTest.smallNeg(ref), ref::value, seed);
        Matrix b = WgmmaTest.halves(ref, 32, n, seed + 7);
        boolean halfAcc = acc.equals("f16");
        Matrix c = halfAcc ? WgmmaTest.halves(WgmmaTest.F16, 64, n, seed + 8) : WgmmaTest.f32c(n, seed + 8);
        String insn = "wgmma.mma_async.sp.sync.aligned.m64n" + n + "k32." + acc + "." + ab + "." + ab + " D, A, B, %r20, " + sel
                + ", P, 1, 1" + (regs ? ", 0" : ", 0, 0");
        long rest = swizzled ? WgmmaTest.SW128 : CORE_A;
        Case cs = new Case(insn, image(s.packed(), b, 2, swizzled), rest, swizzled ? WgmmaTest.SW128 : CORE_B, halfAcc ? n / 4 : n / 2,
                WgmmaTest.dInit(c, n, halfAcc), regs ? WgmmaTest.aFragment(s.packed(), MmaTest.A_16x16_HALF, 16) : null, true);
        WgmmaTest.check(result(launch(cs, metadata(s, 32, sel, 0)), cs), WgmmaTest.scaled(WgmmaTest.product(s.dense(), b), 1, c, true), n, acc);
    }

    @Test
    void f16FromDescriptorsIsTheDenseProductOfTheExpandedAForSeveralNAndBothSelectors() {
        for (int n : new int[] {8, 64, 256}) {
            halfCase("f16", WgmmaTest.F16, n, "f32", 0, false, true, n);
            halfCase("f16", WgmmaTest.F16, n, "f32", 1, false, true, n + 1);
        }
    }

    @Test
    void bf16AndF16AccumulatorsAndUnswizzledCoreMatrices() {
        halfCase("bf16", WgmmaTest.BF16, 24, "f32", 1, false, true, 40);
        halfCase("f16", WgmmaTest.F16, 32, "f16", 0, false, false, 41);
    }

    @Test
    void aFromRegistersIsTheDenseK16FragmentOfTheStoredHalf() {
        halfCase("f16", WgmmaTest.F16, 16, "f32", 0, true, true, 50);
        halfCase("bf16", WgmmaTest.BF16, 8, "f32", 1, true, true, 51);
    }

    @Test
    void transposedOperandsAreReadMnMajorTheStoredAAsADenseK16One() {
        // imm-trans 1: the stored A as 16 rows (K/2) of its 64 M elements, B as 32 rows of N
        // elements (blocks of 64 along N, LBO apart); rows of 128 bytes, swizzled as TMA would.
        int n = 96;
        Sparse s = sparse(32, 4, MmaTest.smallNeg(WgmmaTest.F16), WgmmaTest.F16::value, 45);
        Matrix b = WgmmaTest.halves(WgmmaTest.F16, 32, n, 46);
        Matrix c = WgmmaTest.f32c(n, 47);
        byte[] img = new byte[WgmmaTest.IMAGE];
        for (int k = 0; k < 16; k++) for (int m = 0; m < 64; m++) WgmmaTest.put(img, WgmmaTest.swizzled(OFF_A, k, 2 * m, 128), s.packed().bits()[m][k], 2);
        for (int k = 0; k < 32; k++) {
            for (int j = 0; j < n; j++) WgmmaTest.put(img, WgmmaTest.swizzled(OFF_B + (j / 64) * 4096, k, 2 * (j % 64), 128), b.bits()[k][j], 2);
        }
        Case cs = new Case("wgmma.mma_async.sp.sync.aligned.m64n" + n + "k32.f32.f16.f16 D, A, B, %r20, 0, P, 1, 1, 1, 1", img,
                WgmmaTest.desc(2048, 1024, 1), WgmmaTest.desc(4096, 1024, 1), n / 2, WgmmaTest.dInit(c, n, false), null, true);
        WgmmaTest.check(result(launch(cs, metadata(s, 32, 0, 0)), cs), WgmmaTest.scaled(WgmmaTest.product(s.dense(), b), 1, c, true), n, "f32");
    }

    @Test
    void tf32K16PlacesOneElementOfEachPair() {
        NarrowFloatReference tf = NarrowFloatReference.tf32();
        int n = 16;
        for (boolean regs : new boolean[] {false, true}) {
            Sparse s = sparse(16, 2, MmaTest.small(tf), tf::value, 60);
            Matrix b = MmaTest.matrix(16, n, MmaTest.small(tf), tf::value, 61);
            Matrix c = WgmmaTest.f32c(n, 62);
            Case cs = new Case("wgmma.mma_async.sp.sync.aligned.m64n16k16.f32.tf32.tf32 D, A, B, %r20, 1, P, 1, 1",
                    image(s.packed(), b, 4, true), WgmmaTest.SW128, WgmmaTest.SW128, n / 2, WgmmaTest.dInit(c, n, false),
                    regs ? WgmmaTest.aFragment(s.packed(), MmaTest.A_16x8_TF32, 32) : null, true);
            WgmmaTest.check(result(launch(cs, metadata(s, 16, 1, 0)), cs), WgmmaTest.scaled(WgmmaTest.product(s.dense(), b), 1, c, true), n, "f32");
        }
    }

    @Test
    void eightBitK64TakesMetadataFromEveryLane() {
        int n = 16;
        java.util.function.IntFunction<BigDecimal> s8 = x -> BigDecimal.valueOf((byte) x);
        for (boolean regs : new boolean[] {false, true}) {
            Sparse s = sparse(64, 4, r -> r.nextInt(256), s8, 70);
            Matrix b = MmaTest.matrix(64, n, r -> r.nextInt(256), s8, 71);
            Matrix c = MmaTest.matrix(64, n, r -> r.nextInt(2001) - 1000, BigDecimal::valueOf, 72);
            Case cs = new Case("wgmma.mma_async.sp.sync.aligned.m64n16k64.s32.s8.s8 D, A, B, %r20, 0, P", image(s.packed(), b, 1, true),
                    WgmmaTest.SW128, WgmmaTest.SW128, n / 2, WgmmaTest.dInit(c, n, false),
                    regs ? WgmmaTest.aFragment(s.packed(), MmaTest.A_16x32_BYTE, 8) : null, true);
            WgmmaTest.check(result(launch(cs, metadata(s, 64, 0, 0)), cs), WgmmaTest.scaled(WgmmaTest.product(s.dense(), b), 1, c, true), n, "s32");
        }
        NarrowFloatReference e4 = NarrowFloatReference.E4M3;
        Sparse s = sparse(64, 4, MmaTest.small(e4), e4::value, 73);
        Matrix b = MmaTest.matrix(64, 8, MmaTest.small(e4), e4::value, 74);
        Matrix c = WgmmaTest.f32c(8, 75);
        Case cs = new Case("wgmma.mma_async.sp.sync.aligned.m64n8k64.f32.e4m3.e4m3 D, A, B, %r20, 0, P, 1, 1", image(s.packed(), b, 1, true),
                WgmmaTest.SW128, WgmmaTest.SW128, 4, WgmmaTest.dInit(c, 8, false), null, true);
        WgmmaTest.check(result(launch(cs, metadata(s, 64, 0, 0)), cs), WgmmaTest.scaled(WgmmaTest.product(s.dense(), b), 1, c, true), 8, "f32");
    }

    @Test
    void aMetadataNibbleWithTwoEqualIndicesIsADiagnostic() {
        Sparse s = sparse(32, 4, MmaTest.smallNeg(WgmmaTest.F16), WgmmaTest.F16::value, 80);
        Matrix b = WgmmaTest.halves(WgmmaTest.F16, 32, 8, 81);
        Case cs = new Case("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 D, A, B, %r20, 0, P, 1, 1, 0, 0", image(s.packed(), b, 2, true),
                WgmmaTest.SW128, WgmmaTest.SW128, 4, new long[128 * 4], null, true);
        long[] meta = metadata(s, 32, 0, 0);
        meta[32 + 5] = (meta[32 + 5] & ~0xF0L) | 0x50L; // warp 1, lane 5 (selected, T1 of its group): chunk 1 = 0b0101
        LaunchedRun r = launch(cs, meta);
        assertEquals(List.of("wgmma-bad-sparsity-metadata"), ExecKernel.codes(r), r.summary());
        assertTrue(r.summary().contains("0b0101"), r.summary());
    }

    @Test
    void aTf32NibbleOtherThan0100Or1110IsADiagnostic() {
        NarrowFloatReference tf = NarrowFloatReference.tf32();
        Sparse s = sparse(16, 2, MmaTest.small(tf), tf::value, 90);
        Matrix b = MmaTest.matrix(16, 8, MmaTest.small(tf), tf::value, 91);
        Case cs = new Case("wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 D, A, B, %r20, 0, P, 1, 1", image(s.packed(), b, 4, true),
                WgmmaTest.SW128, WgmmaTest.SW128, 4, new long[128 * 4], null, true);
        long[] meta = metadata(s, 16, 0, 0);
        meta[0] = (meta[0] & ~0xFL) | 0b0001; // two different indices, but not a tf32 value
        LaunchedRun r = launch(cs, meta);
        assertEquals(List.of("wgmma-bad-sparsity-metadata"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void aKMajorBThroughA32ByteSwizzleIsRefusedAtRunTime() {
        Sparse s = sparse(32, 4, MmaTest.smallNeg(WgmmaTest.F16), WgmmaTest.F16::value, 95);
        Matrix b = WgmmaTest.halves(WgmmaTest.F16, 32, 8, 96);
        Case cs = new Case("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 D, A, B, %r20, 0, P, 1, 1, 0, 0", image(s.packed(), b, 2, true),
                WgmmaTest.SW128, WgmmaTest.desc(16, 256, 3), 4, new long[128 * 4], null, true);
        LaunchedRun r = launch(cs, metadata(s, 32, 0, 0));
        assertEquals(List.of("wgmma-bad-descriptor"), ExecKernel.codes(r), r.summary());
        assertTrue(r.summary().contains("not modelled"), r.summary());
    }

    @Test
    void formsOutsideTheIsasSparseListAndBadSelectorsAreRefused() {
        String d4 = "{%r10, %r11, %r12, %r13}";
        for (String bad : new String[] {
            "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.f16.f16 " + d4 + ", %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;",
            "wgmma.mma_async.sp.sync.aligned.m64n8k8.f32.tf32.tf32 " + d4 + ", %rd1, %rd2, %r1, 0, %p1, 1, 1;",
            "wgmma.mma_async.sp.sync.aligned.m64n8k32.s32.s8.s8 " + d4 + ", %rd1, %rd2, %r1, 0, %p1;",
            "wgmma.mma_async.sp.sync.aligned.m64n8k512.s32.b1.b1.and.popc " + d4 + ", %rd1, %rd2, %r1, 0, %p1;",
            "wgmma.mma_async.sp.sync.aligned.m64n40k64.s32.s8.s8 " + d4 + ", %rd1, %rd2, %r1, 0, %p1;",
            "wgmma.mma_async.sp.m64n8k32.f32.f16.f16 " + d4 + ", %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;"}) {
            Exception e = assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(128).launch());
            assertTrue(e.getMessage().contains("unsupported instruction " + bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
        for (String bad : new String[] {
            "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 " + d4 + ", %rd1, %rd2, %r1, 2, %p1, 1, 1, 0, 0;",
            "wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.s8.s8 " + d4 + ", %rd1, %rd2, %r1, 1, %p1;",
            "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 " + d4 + ", %rd1, %rd2, %r1, %r2, %p1, 1, 1, 0, 0;"}) {
            Exception e = assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(128).launch());
            assertTrue(e.getMessage().contains("sp-sel"), e.getMessage());
        }
    }
    /** ptxas answers "Arguments mismatch" for an sp-meta that is not a 32-bit register; so does the engine, naming the operand. */
    @Test
    void aMetadataOperandThatIsNotA32BitRegisterIsRefused() {
        String d4 = "{%r10, %r11, %r12, %r13}";
        for (String meta : new String[] {"5", "%rd3", "%p2"}) {
            String bad = "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 " + d4 + ", %rd1, %rd2, " + meta + ", 0, %p1, 1, 1, 0, 0;";
            Exception e = assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(128).launch(), bad);
            assertTrue(e.getMessage().contains("operand 4 (sp-meta)") && e.getMessage().contains("32-bit register only"), e.getMessage());
        }
    }
}
