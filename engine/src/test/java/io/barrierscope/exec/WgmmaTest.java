package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.MmaTest.Gen;
import io.barrierscope.exec.MmaTest.Matrix;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * wgmma.mma_async (PTX ISA 9.7.15.5.2) run by a warpgroup of 128 threads on hand-written PTX,
 * against references written here: shared memory is filled with an image the test lays out
 * from the ISA's pictures (a TMA-swizzled tile, or core matrices), the accumulator fragment is
 * read through the ISA's table of which lane holds which element of D, and D is the exact
 * product (BigDecimal) rounded once. Inputs keep every sum exact, where the ISA leaves the
 * accumulation order open.
 */
class WgmmaTest {
    static final NarrowFloatReference F16 = NarrowFloatReference.F16;
    static final NarrowFloatReference BF16 = NarrowFloatReference.BF16;
    static final int OFF_A = 0;
    static final int OFF_B = 8192;
    static final int IMAGE = 8192 + 32768;

    /** The ISA's accumulator table: warp w, lane l, element i of D: {row, col}. */
    static int[] dAt(int w, int l, int i) {
        int row = 16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0);
        int col = (i / 4) * 8 + (l % 4) * 2 + (i % 2);
        return new int[] {row, col};
    }

    /** Byte address of byte colByte of row row, rows of w bytes, stored by TMA with swizzle w at a 1024-aligned base. */
    static int swizzled(int base, int row, int colByte, int w) {
        int linear = base + row * w + colByte;
        int chunk = (linear / 16) % 8;
        int swapped = chunk ^ ((linear / 128) % (w / 16));
        return linear + (swapped - chunk) * 16;
    }

    static void put(byte[] img, int at, long bits, int bytes) {
        for (int i = 0; i < bytes; i++) img[at + i] = (byte) (bits >>> (8 * i));
    }

    /** A (64 x K) and B (K x N) K-major with swizzle w (rows of w bytes along K). */
    static byte[] kMajor(Matrix a, Matrix b, int e, int w) {
        byte[] img = new byte[IMAGE];
        int k = a.bits()[0].length;
        for (int m = 0; m < 64; m++) for (int j = 0; j < k; j++) put(img, swizzled(OFF_A, m, j * e, w), a.bits()[m][j], e);
        for (int n = 0; n < b.bits()[0].length; n++) for (int j = 0; j < k; j++) put(img, swizzled(OFF_B, n, j * e, w), b.bits()[j][n], e);
        return img;
    }

    static long desc(long lbo, long sbo, int swizzleMode) {
        return ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | ((long) swizzleMode << 62);
    }

    static final long SW128 = desc(16, 1024, 1);

    /** One run: {@code insn} is the instruction up to its D operand's end marker "D" and A marker "A". */
    record Case(String insn, byte[] image, long restA, long restB, int dRegs, long[] dInit, long[] aRegs, boolean scaleD) {}

    static String dList(int n) {
        List<String> ds = new ArrayList<>();
        for (int i = 0; i < n; i++) ds.add("%d" + i);
        return "{" + String.join(", ", ds) + "}";
    }

    /** The kernel: copy the image to shared memory, load D (and A), issue, commit, wait, store D. */
    static String body(Case c, String between, String afterIssue) {
        StringBuilder k = new StringBuilder(".reg .b32 %d<" + c.dRegs() + ">;\n");
        k.append("mov.u32 %r60, %tid.x;\nld.param.u64 %rd1, [img];\ncvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %r60;\n");
        k.append("COPY:\nsetp.ge.u32 %p1, %r1, ").append(IMAGE / 4).append(";\n@%p1 bra COPIED;\n");
        k.append("mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r2, [%rd3];\n");
        k.append("mov.u32 %r3, smem;\nshl.b32 %r4, %r1, 2;\nadd.u32 %r3, %r3, %r4;\nst.shared.u32 [%r3], %r2;\n");
        k.append("add.u32 %r1, %r1, 128;\nbra COPY;\nCOPIED:\nfence.proxy.async.shared::cta;\nbar.sync 0;\n");
        for (String[] ab : new String[][] {{"%rd10", "ra", "" + OFF_A}, {"%rd11", "rb", "" + OFF_B}}) {
            k.append("mov.u32 %r5, smem;\nadd.u32 %r5, %r5, ").append(ab[2]).append(";\nshr.u32 %r5, %r5, 4;\nand.b32 %r5, %r5, 16383;\n")
                    .append("cvt.u64.u32 %rd5, %r5;\nld.param.u64 %rd6, [").append(ab[1]).append("];\nor.b64 ").append(ab[0]).append(", %rd5, %rd6;\n");
        }
        k.append("ld.param.u64 %rd7, [dinit];\ncvta.to.global.u64 %rd7, %rd7;\nmul.wide.u32 %rd8, %r60, ").append(4 * c.dRegs())
                .append(";\nadd.s64 %rd7, %rd7, %rd8;\n");
        for (int i = 0; i < c.dRegs(); i++) k.append("ld.global.u32 %d").append(i).append(", [%rd7+").append(4 * i).append("];\n");
        if (c.aRegs() != null) {
            k.append("ld.param.u64 %rd12, [fa];\ncvta.to.global.u64 %rd12, %rd12;\nmul.wide.u32 %rd8, %r60, 16;\nadd.s64 %rd12, %rd12, %rd8;\n");
            for (int i = 0; i < 4; i++) k.append("ld.global.u32 %r").append(10 + i).append(", [%rd12+").append(4 * i).append("];\n");
        }
        k.append("mov.u32 %r9, ").append(c.scaleD() ? 1 : 0).append(";\nsetp.ne.u32 %p2, %r9, 0;\n");
        k.append("wgmma.fence.sync.aligned;\n");
        k.append(c.insn().replace("D", dList(c.dRegs())).replace("A", c.aRegs() != null ? "{%r10, %r11, %r12, %r13}" : "%rd10")
                .replace("B", "%rd11").replace("P", "%p2")).append(";\n");
        k.append(between);
        k.append("wgmma.commit_group.sync.aligned;\n").append(afterIssue).append("wgmma.wait_group.sync.aligned 0;\n");
        k.append("mul.wide.u32 %rd9, %r60, ").append(4 * c.dRegs()).append(";\nadd.s64 %rd9, %rd40, %rd9;\n");
        for (int i = 0; i < c.dRegs(); i++) k.append("st.global.u32 [%rd9+").append(4 * i).append("], %d").append(i).append(";\n");
        return k.toString();
    }

    static ExecKernel kernel(Case c, String between, String afterIssue) { return kernel(c, body(c, between, afterIssue)); }

    static ExecKernel kernel(Case c, String body) {
        ExecKernel e = ExecKernel.of(body).header(".shared .align 1024 .b8 smem[" + IMAGE + "];")
                .threads(128).wSlots(128 * c.dRegs());
        List<Number> img = new ArrayList<>();
        for (int i = 0; i < IMAGE; i += 4) img.add(((c.image()[i] & 0xFFL) | (c.image()[i + 1] & 0xFFL) << 8 | (c.image()[i + 2] & 0xFFL) << 16
                | (c.image()[i + 3] & 0xFFL) << 24));
        e.buffer("img", ScalarType.U32, img).value("ra", ScalarType.U64, c.restA()).value("rb", ScalarType.U64, c.restB())
                .buffer("dinit", ScalarType.U32, MmaTest.list(c.dInit()));
        if (c.aRegs() != null) e.buffer("fa", ScalarType.U32, MmaTest.list(c.aRegs()));
        return e;
    }

    static long[] run(Case c) {
        LaunchedRun r = kernel(c, "", "").ok();
        long[] out = new long[128 * c.dRegs()];
        for (int i = 0; i < out.length; i++) out[i] = ExecKernel.w(r, i);
        return out;
    }

    /** D's initial registers from matrix c (f32 bits, or f16 pairs with halfAcc). */
    static long[] dInit(Matrix c, int n, boolean halfAcc) {
        int regs = halfAcc ? n / 4 : n / 2;
        long[] out = new long[128 * regs];
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < n / 2; i++) {
                    int[] rc = dAt(w, l, i);
                    long bits = c.bits()[rc[0]][rc[1]] & (halfAcc ? 0xFFFFL : 0xFFFFFFFFL);
                    out[(32 * w + l) * regs + (halfAcc ? i / 2 : i)] |= halfAcc ? bits << (16 * (i % 2)) : bits;
                }
            }
        }
        return out;
    }

    /** Checks every lane's D against the exact value rounded to f32, f16 (halfAcc) or, with ints, wrapped to s32. */
    static void check(long[] got, BigDecimal[][] d, int n, String acc) {
        boolean half = acc.equals("f16");
        int regs = half ? n / 4 : n / 2;
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < n / 2; i++) {
                    int[] rc = dAt(w, l, i);
                    BigDecimal v = d[rc[0]][rc[1]];
                    long want = switch (acc) {
                        case "f16" -> F16.round(v, v.signum() < 0, "rn", false);
                        case "s32" -> v.longValueExact() & 0xFFFFFFFFL;
                        default -> Float.floatToRawIntBits((float) v.doubleValue()) & 0xFFFFFFFFL;
                    };
                    long reg = got[(32 * w + l) * regs + (half ? i / 2 : i)];
                    long have = half ? (reg >>> (16 * (i % 2))) & 0xFFFF : reg;
                    assertEquals(Long.toHexString(want), Long.toHexString(have), "warp " + w + " lane " + l + " d" + i + " = D[" + rc[0] + "][" + rc[1] + "]");
                }
            }
        }
    }

    static BigDecimal[][] scaled(BigDecimal[][] ab, int sign, Matrix c, boolean scaleD) {
        BigDecimal[][] out = new BigDecimal[ab.length][ab[0].length];
        for (int i = 0; i < ab.length; i++) {
            for (int j = 0; j < ab[0].length; j++) {
                BigDecimal p = sign < 0 ? ab[i][j].negate() : ab[i][j];
                out[i][j] = scaleD ? p.add(c.value()[i][j]) : p;
            }
        }
        return out;
    }

    static BigDecimal[][] product(Matrix a, Matrix b) {
        Matrix zero = MmaTest.matrix(a.bits().length, b.bits()[0].length, r -> 0, x -> BigDecimal.ZERO, 0);
        return MmaTest.product(a, b, zero);
    }

    static Matrix f32c(int n, long seed) { return MmaTest.matrix(64, n, r -> MmaTest.f32small().pattern(r), MmaTest::f32value, seed); }

    static Matrix halves(NarrowFloatReference ref, int rows, int cols, long seed) {
        return MmaTest.matrix(rows, cols, MmaTest.smallNeg(ref), ref::value, seed);
    }

    private static void halfDescCase(String ab, NarrowFloatReference ref, int n, String acc, int scaleA, int scaleB, boolean scaleD) {
        Matrix a = halves(ref, 64, 16, n);
        Matrix b = halves(ref, 16, n, n + 1);
        boolean halfAcc = acc.equals("f16");
        Matrix c = halfAcc ? halves(F16, 64, n, 3) : f32c(n, 3);
        String insn = "wgmma.mma_async.sync.aligned.m64n" + n + "k16." + acc + "." + ab + "." + ab + " D, A, B, P, " + scaleA + ", " + scaleB + ", 0, 0";
        long[] got = run(new Case(insn, kMajor(a, b, 2, 128), SW128, SW128, halfAcc ? n / 4 : n / 2, dInit(c, n, halfAcc), null, scaleD));
        check(got, scaled(product(a, b), scaleA * scaleB, c, scaleD), n, acc);
    }

    @Test
    void f16WithF32AccumulatorsForSeveralN() {
        for (int n : new int[] {8, 24, 64, 136, 256}) halfDescCase("f16", F16, n, "f32", 1, 1, true);
    }

    @Test
    void f16WithF16Accumulators() { halfDescCase("f16", F16, 32, "f16", 1, 1, true); }

    @Test
    void bf16WithF32Accumulators() { halfDescCase("bf16", BF16, 48, "f32", 1, 1, true); }

    @Test
    void immScaleNegatesAOrBAndScaleDFalseIgnoresTheAccumulator() {
        halfDescCase("f16", F16, 16, "f32", -1, 1, true);
        halfDescCase("f16", F16, 16, "f32", 1, -1, true);
        halfDescCase("f16", F16, 16, "f32", -1, -1, false);
    }

    @Test
    void aFromRegistersUsesTheMmaSyncFragmentPerWarp() {
        int n = 40;
        Matrix a = halves(F16, 64, 16, 21);
        Matrix b = halves(F16, 16, n, 22);
        Matrix c = f32c(n, 23);
        // The ISA's A fragment for m64nNk16 f16: warp w holds rows 16w..16w+15 as mma.m16n8k16's A.
        long[] fa = new long[128 * 4];
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 8; i++) {
                    int[] rc = MmaTest.A_16x16_HALF.at(l, i);
                    fa[(32 * w + l) * 4 + i / 2] |= (a.bits()[16 * w + rc[0]][rc[1]] & 0xFFFFL) << (16 * (i % 2));
                }
            }
        }
        String insn = "wgmma.mma_async.sync.aligned.m64n" + n + "k16.f32.f16.f16 D, A, B, P, 1, 1, 0";
        long[] got = run(new Case(insn, kMajor(a, b, 2, 128), SW128, SW128, n / 2, dInit(c, n, false), fa, true));
        check(got, scaled(product(a, b), 1, c, true), n, "f32");
    }

    @Test
    void transposedOperandsAreReadMnMajor() {
        // imm-trans 1: A stored as K rows of its 64 M elements, B as K rows of N elements (128-byte
        // blocks of 64 along N, LBO apart), each row 128 bytes, swizzled as TMA would.
        int n = 128;
        Matrix a = halves(F16, 64, 16, 31);
        Matrix b = halves(F16, 16, n, 32);
        Matrix c = f32c(n, 33);
        byte[] img = new byte[IMAGE];
        for (int k = 0; k < 16; k++) {
            for (int m = 0; m < 64; m++) put(img, swizzled(OFF_A, k, 2 * m, 128), a.bits()[m][k], 2);
            for (int j = 0; j < n; j++) put(img, swizzled(OFF_B + (j / 64) * 2048, k, 2 * (j % 64), 128), b.bits()[k][j], 2);
        }
        String insn = "wgmma.mma_async.sync.aligned.m64n" + n + "k16.f32.f16.f16 D, A, B, P, 1, 1, 1, 1";
        long[] got = run(new Case(insn, img, desc(2048, 1024, 1), desc(2048, 1024, 1), n / 2, dInit(c, n, false), null, true));
        check(got, scaled(product(a, b), 1, c, true), n, "f32");
    }

    @Test
    void unswizzledCoreMatricesAnd32BAnd64BSwizzles() {
        int n = 16;
        Matrix a = halves(F16, 64, 16, 41);
        Matrix b = halves(F16, 16, n, 42);
        Matrix c = f32c(n, 43);
        String insn = "wgmma.mma_async.sync.aligned.m64n" + n + "k16.f32.f16.f16 D, A, B, P, 1, 1, 0, 0";
        // No swizzle: 8x16-byte core matrices, each 128 contiguous bytes; along K 128 bytes apart (LBO), along M/N 256 (SBO).
        byte[] img = new byte[IMAGE];
        for (int m = 0; m < 64; m++) {
            for (int k = 0; k < 16; k++) {
                put(img, OFF_A + (m / 8) * 256 + (k / 8) * 128 + (m % 8) * 16 + (k % 8) * 2, a.bits()[m][k], 2);
            }
        }
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < 16; k++) put(img, OFF_B + (j / 8) * 256 + (k / 8) * 128 + (j % 8) * 16 + (k % 8) * 2, b.bits()[k][j], 2);
        }
        long[] got = run(new Case(insn, img, desc(128, 256, 0), desc(128, 256, 0), n / 2, dInit(c, n, false), null, true));
        check(got, scaled(product(a, b), 1, c, true), n, "f32");
        for (int[] sw : new int[][] {{64, 2}, {32, 3}}) {
            got = run(new Case(insn, kMajor(a, b, 2, sw[0]), desc(16, 8L * sw[0], sw[1]), desc(16, 8L * sw[0], sw[1]), n / 2,
                    dInit(c, n, false), null, true));
            check(got, scaled(product(a, b), 1, c, true), n, "f32");
        }
    }

    @Test
    void tf32K8IgnoresTheLow13Bits() {
        NarrowFloatReference tf = NarrowFloatReference.tf32();
        Gen g = r -> MmaTest.small(tf).pattern(r) | (r.nextInt(8) == 0 ? 0x1FFF & r.nextInt() : 0) | (r.nextBoolean() ? 0x80000000 : 0);
        int n = 24;
        Matrix a = MmaTest.matrix(64, 8, g, bits -> tf.value(bits & ~0x1FFF), 51);
        Matrix b = MmaTest.matrix(8, n, g, bits -> tf.value(bits & ~0x1FFF), 52);
        Matrix c = f32c(n, 53);
        String insn = "wgmma.mma_async.sync.aligned.m64n" + n + "k8.f32.tf32.tf32 D, A, B, P, 1, -1";
        long[] got = run(new Case(insn, kMajor(a, b, 4, 128), SW128, SW128, n / 2, dInit(c, n, false), null, true));
        check(got, scaled(product(a, b), -1, c, true), n, "f32");
    }

    @Test
    void fp8K32WithF32AndF16Accumulators() {
        NarrowFloatReference e4 = NarrowFloatReference.E4M3;
        NarrowFloatReference e5 = NarrowFloatReference.E5M2;
        Gen g4 = r -> e4.round(new BigDecimal(r.nextInt(33) - 16).divide(BigDecimal.valueOf(8)).abs(), r.nextBoolean(), "rn", false);
        Gen g5 = r -> e5.round(new BigDecimal(r.nextInt(17) - 8).divide(BigDecimal.valueOf(4)).abs(), r.nextBoolean(), "rn", false);
        int n = 16;
        Matrix a = MmaTest.matrix(64, 32, g4, e4::value, 61);
        Matrix b = MmaTest.matrix(32, n, g5, e5::value, 62);
        Matrix c = f32c(n, 63);
        long[] got = run(new Case("wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e5m2 D, A, B, P, 1, 1", kMajor(a, b, 1, 128), SW128, SW128,
                n / 2, dInit(c, n, false), null, true));
        check(got, scaled(product(a, b), 1, c, true), n, "f32");
        Matrix ch = halves(F16, 64, n, 64);
        got = run(new Case("wgmma.mma_async.sync.aligned.m64n16k32.f16.e4m3.e5m2 D, A, B, P, 1, 1", kMajor(a, b, 1, 128), SW128, SW128,
                n / 4, dInit(ch, n, true), null, true));
        check(got, scaled(product(a, b), 1, ch, true), n, "f16");
    }

    @Test
    void s8AndU8K32WithS32AccumulatorsWrapOrSaturate() {
        int n = 32;
        IntFunction<BigDecimal> s8 = x -> BigDecimal.valueOf((byte) x);
        IntFunction<BigDecimal> u8 = x -> BigDecimal.valueOf(x & 0xFF);
        Matrix a = MmaTest.matrix(64, 32, r -> r.nextInt(256), s8, 71);
        Matrix b = MmaTest.matrix(32, n, r -> r.nextInt(256), u8, 72);
        Matrix c = MmaTest.matrix(64, n, r -> r.nextBoolean() ? Integer.MAX_VALUE - r.nextInt(1000) : r.nextInt(2001) - 1000, BigDecimal::valueOf, 73);
        BigDecimal[][] exact = scaled(product(a, b), 1, c, true);
        long[] got = run(new Case("wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.u8 D, A, B, P", kMajor(a, b, 1, 128), SW128, SW128, n / 2,
                dInit(c, n, false), null, true));
        BigDecimal[][] wrapped = new BigDecimal[64][n];
        BigDecimal[][] clamped = new BigDecimal[64][n];
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < n; j++) {
                long v = exact[i][j].longValueExact();
                wrapped[i][j] = BigDecimal.valueOf((int) v);
                clamped[i][j] = BigDecimal.valueOf(Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)));
            }
        }
        check(got, wrapped, n, "s32");
        got = run(new Case("wgmma.mma_async.sync.aligned.m64n32k32.satfinite.s32.s8.u8 D, A, B, P", kMajor(a, b, 1, 128), SW128, SW128, n / 2,
                dInit(c, n, false), null, true));
        check(got, clamped, n, "s32");
    }

    @Test
    void twoOperationsOnTheSameAccumulatorsInOneGroupChain() {
        int n = 16;
        Matrix a = halves(F16, 64, 16, 81);
        Matrix b = halves(F16, 16, n, 82);
        Matrix c = f32c(n, 83);
        String insn = "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 D, A, B, P, 1, 1, 0, 0";
        Case cs = new Case(insn, kMajor(a, b, 2, 128), SW128, SW128, n / 2, dInit(c, n, false), null, true);
        // The second issue, before any wait, reads the first one's result, not the stale registers.
        String second = insn.replace("D", dList(n / 2)).replace("A", "%rd10").replace("B", "%rd11").replace("P", "%p2") + ";\n";
        LaunchedRun r = kernel(cs, second, "").ok();
        BigDecimal[][] ab = product(a, b);
        BigDecimal[][] twice = new BigDecimal[64][n];
        for (int i = 0; i < 64; i++) for (int j = 0; j < n; j++) twice[i][j] = ab[i][j].add(ab[i][j]).add(c.value()[i][j]);
        long[] got = new long[128 * n / 2];
        for (int i = 0; i < got.length; i++) got[i] = ExecKernel.w(r, i);
        check(got, twice, n, "f32");
    }

    @Test
    void aRunStoppedWhileLandingAChainKeepsTheResultItLandedLast() {
        // Two operations on the same accumulators in one group, their operands overwritten before the
        // wait: the run stops at the first one's landing, whose result the registers then hold (the
        // second, which would overwrite them, never lands), in every warp that landed it.
        int n = 16;
        Matrix a = halves(F16, 64, 16, 81);
        Matrix b = halves(F16, 16, n, 82);
        Matrix c = f32c(n, 83);
        String insn = "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 D, A, B, P, 1, 1, 0, 0";
        Case cs = new Case(insn, kMajor(a, b, 2, 128), SW128, SW128, n / 2, dInit(c, n, false), null, true);
        String second = insn.replace("D", dList(n / 2)).replace("A", "%rd10").replace("B", "%rd11").replace("P", "%p2") + ";\n";
        String clobber = "mov.u32 %r7, smem;\nshl.b32 %r8, %r60, 2;\nadd.u32 %r7, %r7, %r8;\nst.shared.u32 [%r7], 12345;\n";
        LaunchedRun once = kernel(cs, "", "").ok();
        LaunchedRun r = kernel(cs, second, clobber).racy().run();
        assertEquals(List.of("wgmma-operand-overwritten"), ExecKernel.codes(r), r.summary());
        Machine m = r.machine();
        WgmmaOp op = null;
        for (Op o : m.program.code) if (o instanceof WgmmaOp w && op == null) op = w;
        int landed = 0;
        for (int t = 0; t < 128; t++) {
            for (int i = 0; i < n / 2; i++) {
                long got = m.regs[m.regIndex(t, op.d[i])] & 0xFFFFFFFFL;
                long first = ExecKernel.w(once, t * (n / 2) + i) & 0xFFFFFFFFL;
                long initial = cs.dInit()[t * (n / 2) + i] & 0xFFFFFFFFL;
                assertTrue(got == first || got == initial, "thread " + t + " register " + i);
                if (got == first && got != initial) landed++;
            }
        }
        assertTrue(landed > 0, r.summary());
    }

    private static Case small() {
        Matrix a = halves(F16, 64, 16, 91);
        Matrix b = halves(F16, 16, 8, 92);
        return new Case("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 D, A, B, P, 1, 1, 0, 0", kMajor(a, b, 2, 128), SW128, SW128, 4,
                new long[128 * 4], null, true);
    }

    @Test
    void operandsWrittenWithStSharedAndReadByWgmmaNeedAProxyFenceBetween() {
        // Descriptor operands are read through the async proxy (PTX ISA 9.7.15.4): the threads' generic
        // st.shared of the tile, ordered by bar.sync alone, is not visible to it without fence.proxy.async.
        Case c = small();
        LaunchedRun bad = kernel(c, body(c, "", "").replace("fence.proxy.async.shared::cta;\n", "")).run();
        assertEquals(List.of("proxy-fence-missing"), ExecKernel.codes(bad), bad.summary());
        var d = bad.interpreter().diagnostics().get(0);
        assertEquals(2, d.ptxLocations().size(), d.message());
        assertTrue(d.message().contains("st.shared.u32 at line") && d.message().contains("wgmma.mma_async.sync.aligned.m64n8k16")
                && d.message().contains("fence.proxy.async.shared::cta"), d.message());
        // Fenced after the writes and before the barrier that hands the tile over: clean (the other tests of this class).
        kernel(c, "", "").ok();
        // A fence before the writes orders nothing.
        String early = body(c, "", "").replace("fence.proxy.async.shared::cta;\n", "").replace("COPY:\n", "fence.proxy.async.shared::cta;\nCOPY:\n");
        assertEquals(List.of("proxy-fence-missing"), ExecKernel.codes(kernel(c, early).run()));
    }

    @Test
    void readingAnAccumulatorBeforeWaitGroupIsADiagnostic() {
        LaunchedRun r = kernel(small(), "", "mov.b32 %r20, %d1;\n").run();
        assertEquals(List.of("wgmma-accumulator-in-flight"), ExecKernel.codes(r), r.summary());
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("%d1"), r.summary());
    }

    @Test
    void writingAnAccumulatorBeforeWaitGroupIsADiagnostic() {
        LaunchedRun r = kernel(small(), "mov.b32 %d3, 0;\n", "").run();
        assertEquals(List.of("wgmma-accumulator-in-flight"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void overwritingSharedOperandsBeforeWaitGroupIsADiagnostic() {
        String clobber = "mov.u32 %r7, smem;\nshl.b32 %r8, %r60, 2;\nadd.u32 %r7, %r7, %r8;\nst.shared.u32 [%r7], 12345;\n";
        LaunchedRun r = kernel(small(), "", clobber).racy().run();
        assertEquals(List.of("wgmma-operand-overwritten"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void aWarpAheadWaitsForItsWarpgroupToIssue() {
        // Warp 3 spins a while before the mma: the others reach wait_group first and must wait for it.
        Case c = small();
        String body = body(c, "", "").replace("wgmma.fence.sync.aligned;\n", "setp.ge.u32 %p3, %r60, 96;\n@!%p3 bra GO;\nmov.u32 %r21, 0;\n"
                + "SPIN:\nadd.u32 %r21, %r21, 1;\nsetp.lt.u32 %p4, %r21, 50;\n@%p4 bra SPIN;\nGO:\nwgmma.fence.sync.aligned;\n");
        Case plain = small();
        long[] want = run(plain);
        LaunchedRun r = kernel(c, body).ok();
        for (int i = 0; i < want.length; i++) assertEquals(want[i], ExecKernel.w(r, i), "slot " + i);
    }

    @Test
    void aWarpgroupWithFewerThanFourWarpsIsADiagnostic() {
        Case c = small();
        LaunchedRun r = kernel(c, "", "").threads(96).run();
        assertEquals(List.of("warpgroup-collective-partial"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void formsNotInTheIsaOrNotModelledAreRefusedByName() {
        String d4 = "{%r10, %r11, %r12, %r13}";
        for (String bad : new String[] {
            "wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%r10, %r11}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
            "wgmma.mma_async.sync.aligned.m64n8k32.f32.f16.f16 " + d4 + ", %rd1, %rd2, %p1, 1, 1, 0, 0;",
            "wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 " + d4 + ", %rd1, %rd2, %p1;",
            "wgmma.mma_async.sync.aligned.m64n264k16.f32.f16.f16 " + d4 + ", %rd1, %rd2, %p1, 1, 1, 0, 0;",
            "wgmma.mma_async.m64n8k16.f32.f16.f16 " + d4 + ", %rd1, %rd2, %p1, 1, 1, 0, 0;"}) {
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(128).launch());
            assertTrue(e.getMessage().contains("unsupported instruction " + bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
    }

    @Test
    void badImmediatesAndRegisterCountsAreErrors() {
        for (String bad : new String[] {
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1, 2, 1, 0, 0;",
            "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1, 1, 1, 0, 2;",
            "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1, 1, 1, 0, 0;"}) {
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(128).launch());
            assertTrue(e.getMessage().contains("wgmma.mma_async"), e.getMessage());
        }
    }

    @Test
    void waitGroupOneLandsOnlyTheOlderGroup() {
        Case c = small();
        String second = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%e0, %e1, %e2, %e3}, %rd10, %rd11, %p2, 1, 1, 0, 0;\n"
                + "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;\nmov.b32 %r20, %d0;\n";
        // The older group has landed: its accumulators may be read; the newer one's may not.
        LaunchedRun ok = kernel(c, ".reg .b32 %e<4>;\n" + body(c, "", second)).ok();
        long[] want = run(small());
        for (int i = 0; i < want.length; i++) assertEquals(want[i], ExecKernel.w(ok, i), "slot " + i);
        LaunchedRun bad = kernel(c, ".reg .b32 %e<4>;\n" + body(c, "", second + "mov.b32 %r21, %e2;\n")).run();
        assertEquals(List.of("wgmma-accumulator-in-flight"), ExecKernel.codes(bad), bad.summary());
        assertTrue(bad.interpreter().diagnostics().get(0).message().contains("%e2"), bad.summary());
    }

    @Test
    void commitOrWaitByPartOfAWarpIsADiagnostic() {
        Case c = small();
        for (String op : new String[] {"wgmma.commit_group.sync.aligned;\n", "wgmma.wait_group.sync.aligned 0;\n"}) {
            String b = body(c, "", "").replace(op, "setp.lt.u32 %p5, %r60, 16;\n@%p5 " + op);
            LaunchedRun r = kernel(c, b).run();
            assertEquals(List.of("warp-collective-partial"), ExecKernel.codes(r), op + r.summary());
        }
    }

    @Test
    void lanesPassingDifferentDescriptorsIsADiagnostic() {
        Case c = small();
        String b = body(c, "", "").replace("wgmma.fence.sync.aligned;\n",
                "setp.eq.u32 %p6, %r60, 5;\n@%p6 add.s64 %rd11, %rd11, 2;\nwgmma.fence.sync.aligned;\n");
        LaunchedRun r = kernel(c, b).run();
        assertEquals(List.of("wgmma-bad-descriptor"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void anAccumulatorWrittenAfterTheFenceIsAMissingFence() {
        Case c = small();
        String b = body(c, "", "").replace("wgmma.fence.sync.aligned;\n", "wgmma.fence.sync.aligned;\nmov.b32 %d2, 0;\n");
        LaunchedRun r = kernel(c, b).run();
        assertEquals(List.of("wgmma-missing-fence"), ExecKernel.codes(r), r.summary());
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("%d2"), r.summary());
        LaunchedRun none = kernel(c, body(c, "", "").replace("wgmma.fence.sync.aligned;\n", "")).run();
        assertEquals(List.of("wgmma-missing-fence"), ExecKernel.codes(none), none.summary());
    }

    @Test
    void aChainedOperationFormedAfterItsPredecessorLandedStillAccumulatesOntoIt() {
        // Warp 3 lags: warps 0-2 issue both operations (two groups), land the first at
        // wait_group 1 once warp 3 issues it, and only then is the second formed.
        int n = 16;
        Matrix a = halves(F16, 64, 16, 101);
        Matrix b = halves(F16, 16, n, 102);
        Matrix c = f32c(n, 103);
        String insn = "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 D, A, B, P, 1, 1, 0, 0";
        Case cs = new Case(insn, kMajor(a, b, 2, 128), SW128, SW128, n / 2, dInit(c, n, false), null, true);
        String second = "wgmma.commit_group.sync.aligned;\n" + insn.replace("D", dList(n / 2)).replace("A", "%rd10").replace("B", "%rd11")
                .replace("P", "%p2") + ";\n";
        String body = body(cs, second, "wgmma.wait_group.sync.aligned 1;\n").replace("wgmma.fence.sync.aligned;\n",
                "setp.ge.u32 %p3, %r60, 96;\n@!%p3 bra GO;\nmov.u32 %r21, 0;\nSPIN:\nadd.u32 %r21, %r21, 1;\n"
                + "setp.lt.u32 %p4, %r21, 50;\n@%p4 bra SPIN;\nGO:\nwgmma.fence.sync.aligned;\n");
        LaunchedRun r = kernel(cs, body).ok();
        BigDecimal[][] ab = product(a, b);
        BigDecimal[][] twice = new BigDecimal[64][n];
        for (int i = 0; i < 64; i++) for (int j = 0; j < n; j++) twice[i][j] = ab[i][j].add(ab[i][j]).add(c.value()[i][j]);
        long[] got = new long[128 * n / 2];
        for (int i = 0; i < got.length; i++) got[i] = ExecKernel.w(r, i);
        check(got, twice, n, "f32");
    }

    /** A's register fragment: warp w holds rows 16w..16w+15 in the given mma.sync A table (4 registers). */
    static long[] aFragment(Matrix a, MmaTest.Layout layout, int bits) {
        int per = 32 / bits;
        long[] fa = new long[128 * 4];
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 4 * per; i++) {
                    int[] rc = layout.at(l, i);
                    fa[(32 * w + l) * 4 + i / per] |= (a.bits()[16 * w + rc[0]][rc[1]] & ((1L << bits) - 1)) << (bits * (i % per));
                }
            }
        }
        return fa;
    }

    @Test
    void aFromRegistersForTf32AndS8() {
        NarrowFloatReference tf = NarrowFloatReference.tf32();
        int n = 8;
        Matrix a = MmaTest.matrix(64, 8, r -> MmaTest.small(tf).pattern(r) | (r.nextBoolean() ? 0x80000000 : 0), tf::value, 111);
        Matrix b = MmaTest.matrix(8, n, r -> MmaTest.small(tf).pattern(r), tf::value, 112);
        Matrix c = f32c(n, 113);
        long[] got = run(new Case("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 D, A, B, P, 1, 1", kMajor(a, b, 4, 128), SW128, SW128,
                n / 2, dInit(c, n, false), aFragment(a, MmaTest.A_16x8_TF32, 32), true));
        check(got, scaled(product(a, b), 1, c, true), n, "f32");
        IntFunction<BigDecimal> s8 = x -> BigDecimal.valueOf((byte) x);
        Matrix ai = MmaTest.matrix(64, 32, r -> r.nextInt(256), s8, 114);
        Matrix bi = MmaTest.matrix(32, n, r -> r.nextInt(256), s8, 115);
        Matrix ci = MmaTest.matrix(64, n, r -> r.nextInt(2001) - 1000, BigDecimal::valueOf, 116);
        got = run(new Case("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 D, A, B, P", kMajor(ai, bi, 1, 128), SW128, SW128, n / 2,
                dInit(ci, n, false), aFragment(ai, MmaTest.A_16x32_BYTE, 8), true));
        check(got, scaled(product(ai, bi), 1, ci, true), n, "s32");
    }

    @Test
    void aWarpOfTheWarpgroupExitingWithoutIssuingIsADiagnostic() {
        // Warp 3 spins, then exits instead of issuing: the others wait for it at wait_group.
        Case c = small();
        String b = body(c, "", "").replace("wgmma.fence.sync.aligned;\n", "setp.ge.u32 %p3, %r60, 96;\n@!%p3 bra GO;\nmov.u32 %r21, 0;\n"
                + "SPIN:\nadd.u32 %r21, %r21, 1;\nsetp.lt.u32 %p4, %r21, 50;\n@%p4 bra SPIN;\nexit;\nGO:\nwgmma.fence.sync.aligned;\n");
        LaunchedRun r = kernel(c, b).run();
        assertEquals(List.of("warpgroup-collective-partial"), ExecKernel.codes(r), r.summary());
    }
}
