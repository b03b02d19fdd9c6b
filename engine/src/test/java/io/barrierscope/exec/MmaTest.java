package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * mma.sync.aligned (PTX ISA 9.7.14.5.14) with the fragment layouts of 9.7.14.5.x, against a
 * reference written here: the fragments are built from the ISA's tables ("a0, a1: row groupID
 * ..."), D = A*B + C is computed exactly with BigDecimal and rounded once. Inputs are chosen so
 * every sum is exact in double precision, where the ISA leaves accumulation order open.
 */
class MmaTest {
    /** Where register element {@code i} of lane {@code lane} sits in its matrix: {row, col}. */
    interface Layout { int[] at(int lane, int i); }

    // The ISA's fragment tables, row then column, groupID = lane >> 2, threadID_in_group = lane % 4.
    static final Layout A_16x16_HALF = (l, i) -> new int[] {
        (i == 0 || i == 1 || i == 4 || i == 5) ? l / 4 : l / 4 + 8, (l % 4) * 2 + (i % 2) + (i >= 4 ? 8 : 0)};
    static final Layout A_16x8_HALF = (l, i) -> new int[] {i < 2 ? l / 4 : l / 4 + 8, (l % 4) * 2 + (i % 2)};
    static final Layout B_16x8_HALF = (l, i) -> new int[] {(l % 4) * 2 + (i % 2) + (i >= 2 ? 8 : 0), l / 4};
    static final Layout B_8x8_HALF = (l, i) -> new int[] {(l % 4) * 2 + i, l / 4};
    static final Layout A_16x8_TF32 = (l, i) -> new int[] {(i == 0 || i == 2) ? l / 4 : l / 4 + 8, (i < 2) ? l % 4 : l % 4 + 4};
    static final Layout B_8x8_TF32 = (l, i) -> new int[] {i == 0 ? l % 4 : l % 4 + 4, l / 4};
    static final Layout A_16x32_BYTE = (l, i) -> new int[] {
        (i < 4 || (i >= 8 && i < 12)) ? l / 4 : l / 4 + 8, (l % 4) * 4 + (i % 4) + (i >= 8 ? 16 : 0)};
    static final Layout B_32x8_BYTE = (l, i) -> new int[] {(l % 4) * 4 + (i % 4) + (i >= 4 ? 16 : 0), l / 4};
    static final Layout A_16x4_TF32 = (l, i) -> new int[] {i == 0 ? l / 4 : l / 4 + 8, l % 4};
    static final Layout B_4x8_TF32 = (l, i) -> new int[] {l % 4, l / 4};
    static final Layout A_16x16_BYTE = (l, i) -> new int[] {i < 4 ? l / 4 : l / 4 + 8, (l % 4) * 4 + (i % 4)};
    static final Layout B_16x8_BYTE = (l, i) -> new int[] {(l % 4) * 4 + i, l / 4};
    static final Layout C_16x8 = (l, i) -> new int[] {i < 2 ? l / 4 : l / 4 + 8, (l % 4) * 2 + (i % 2)};

    /** A matrix of element bit patterns and the exact value of each. */
    record Matrix(int[][] bits, BigDecimal[][] value) {}

    interface Gen { int pattern(SplittableRandom r); }

    static Matrix matrix(int rows, int cols, Gen g, java.util.function.IntFunction<BigDecimal> value, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[][] b = new int[rows][cols];
        BigDecimal[][] v = new BigDecimal[rows][cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                b[i][j] = g.pattern(r);
                v[i][j] = value.apply(b[i][j]);
            }
        }
        return new Matrix(b, v);
    }

    /** Packs the fragment of every lane: regs registers of (32 / bits) elements, element 0 in the low bits. */
    static long[] fragment(Matrix m, Layout layout, int regs, int bits) {
        int per = 32 / bits;
        long[] out = new long[32 * regs];
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < regs * per; i++) {
                int[] rc = layout.at(l, i);
                long e = m.bits()[rc[0]][rc[1]] & ((1L << bits) - 1);
                out[l * regs + i / per] |= e << (bits * (i % per));
            }
        }
        return out;
    }

    /** Runs {@code insn} with A, B, C fragments loaded per lane; returns D registers per lane. */
    static long[] run(String insn, long[] a, int aRegs, long[] b, int bRegs, long[] c, int cRegs, int dRegs) {
        StringBuilder k = new StringBuilder("mov.u32 %r60, %tid.x;\n");
        String[] names = {"fa", "fb", "fc"};
        int[] counts = {aRegs, bRegs, cRegs};
        int reg = 1;
        List<String> groups = new ArrayList<>();
        for (int o = 0; o < 3; o++) {
            k.append("ld.param.u64 %rd1, [").append(names[o]).append("];\ncvta.to.global.u64 %rd1, %rd1;\n")
                    .append("mul.wide.u32 %rd2, %r60, ").append(4 * counts[o]).append(";\nadd.s64 %rd1, %rd1, %rd2;\n");
            List<String> rs = new ArrayList<>();
            for (int i = 0; i < counts[o]; i++) {
                k.append("ld.global.u32 %r").append(reg).append(", [%rd1+").append(4 * i).append("];\n");
                rs.add("%r" + reg++);
            }
            groups.add("{" + String.join(", ", rs) + "}");
        }
        List<String> ds = new ArrayList<>();
        for (int i = 0; i < dRegs; i++) ds.add("%r" + (30 + i));
        k.append(insn).append(" {").append(String.join(", ", ds)).append("}, ").append(String.join(", ", groups)).append(";\n");
        k.append("mul.wide.u32 %rd3, %r60, ").append(4 * dRegs).append(";\nadd.s64 %rd3, %rd40, %rd3;\n");
        for (int i = 0; i < dRegs; i++) k.append("st.global.u32 [%rd3+").append(4 * i).append("], %r").append(30 + i).append(";\n");
        ExecKernel e = ExecKernel.of(k.toString()).threads(32).wSlots(32 * dRegs);
        e.buffer("fa", ScalarType.U32, list(a)).buffer("fb", ScalarType.U32, list(b)).buffer("fc", ScalarType.U32, list(c));
        LaunchedRun r = e.ok();
        long[] out = new long[32 * dRegs];
        for (int i = 0; i < out.length; i++) out[i] = ExecKernel.w(r, i);
        return out;
    }

    static List<Number> list(long[] v) {
        List<Number> l = new ArrayList<>();
        for (long x : v) l.add(x);
        return l;
    }

    /** D = A*B + C exactly. */
    static BigDecimal[][] product(Matrix a, Matrix b, Matrix c) {
        int m = a.value().length;
        int kk = b.value().length;
        int n = b.value()[0].length;
        BigDecimal[][] d = new BigDecimal[m][n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                BigDecimal s = c.value()[i][j];
                for (int x = 0; x < kk; x++) s = s.add(a.value()[i][x].multiply(b.value()[x][j]));
                d[i][j] = s;
            }
        }
        return d;
    }

    static final NarrowFloatReference F16 = NarrowFloatReference.F16;
    static final NarrowFloatReference BF16 = NarrowFloatReference.BF16;

    /** Values k/16 for |k| <= 64, as patterns of {@code ref}: products and sums stay exact. */
    static Gen small(NarrowFloatReference ref) {
        return r -> ref.round(new BigDecimal(r.nextInt(129) - 64).divide(BigDecimal.valueOf(16)), false, "rn", false);
    }

    static Gen smallNeg(NarrowFloatReference ref) {
        return r -> {
            int k = r.nextInt(129) - 64;
            BigDecimal v = new BigDecimal(k).divide(BigDecimal.valueOf(16));
            return ref.round(v, k < 0, "rn", false);
        };
    }

    static Gen f32small() { return r -> Float.floatToRawIntBits((r.nextInt(2001) - 1000) / 64f); }

    static BigDecimal f32value(int bits) { return new BigDecimal(Float.intBitsToFloat(bits)); }

    /** Checks D registers of every lane against the exact product rounded to f32 (or f16 with {@code halfAcc}). */
    static void checkD(long[] got, BigDecimal[][] d, boolean halfAcc) {
        int per = halfAcc ? 2 : 1;
        int regs = 4 / per;
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < 4; i++) {
                int[] rc = C_16x8.at(l, i);
                long want = halfAcc ? F16.round(d[rc[0]][rc[1]], d[rc[0]][rc[1]].signum() < 0, "rn", false)
                        : Float.floatToRawIntBits((float) d[rc[0]][rc[1]].doubleValue()) & 0xFFFFFFFFL;
                long reg = got[l * regs + i / per];
                long have = halfAcc ? (reg >>> (16 * (i % 2))) & 0xFFFF : reg;
                assertEquals(Long.toHexString(want), Long.toHexString(have), "lane " + l + " d" + i + " = D[" + rc[0] + "][" + rc[1] + "]");
            }
        }
    }

    private static void halfCase(String insn, NarrowFloatReference ref, int k, boolean halfAcc) {
        halfCase(insn, ref, k, halfAcc, halfAcc);
    }

    /** {@code halfC}: C is f16 (two f16x2 registers), {@code halfD}: D is. */
    private static void halfCase(String insn, NarrowFloatReference ref, int k, boolean halfC, boolean halfD) {
        Matrix a = matrix(16, k, smallNeg(ref), b -> ref.value(b), insn.hashCode());
        Matrix b = matrix(k, 8, smallNeg(ref), bb -> ref.value(bb), insn.hashCode() + 1);
        Matrix c = halfC ? matrix(16, 8, smallNeg(F16), bb -> F16.value(bb), 3) : matrix(16, 8, r -> f32small().pattern(r), MmaTest::f32value, 3);
        long[] fa = fragment(a, k == 16 ? A_16x16_HALF : A_16x8_HALF, k / 4, 16);
        long[] fb = fragment(b, k == 16 ? B_16x8_HALF : B_8x8_HALF, k / 8, 16);
        long[] fc = fragment(c, C_16x8, halfC ? 2 : 4, halfC ? 16 : 32);
        long[] d = run(insn, fa, k / 4, fb, k / 8, fc, halfC ? 2 : 4, halfD ? 2 : 4);
        checkD(d, product(a, b, c), halfD);
    }

    @Test
    void f16WithMixedAccumulatorTypes() {
        halfCase("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16", F16, 16, true, false);
        halfCase("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32", F16, 16, false, true);
        halfCase("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", F16, 8, true, true);
    }

    @Test
    void f16M16n8k16WithF32Accumulators() { halfCase("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", F16, 16, false); }

    @Test
    void f16M16n8k16WithF16Accumulators() { halfCase("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", F16, 16, true); }

    @Test
    void f16M16n8k8WithF32Accumulators() { halfCase("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", F16, 8, false); }

    @Test
    void bf16M16n8k16AndK8() {
        halfCase("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", BF16, 16, false);
        halfCase("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", BF16, 8, false);
    }

    @Test
    void tf32M16n8k8IgnoresTheLow13Bits() {
        NarrowFloatReference tf = NarrowFloatReference.tf32();
        // the pattern carries junk in its 13 low bits, which are not part of a tf32 value
        Gen g = r -> small(tf).pattern(r) | (r.nextInt(8) == 0 ? 0x1FFF & r.nextInt() : 0) | (r.nextBoolean() ? 0x80000000 : 0);
        Matrix a = matrix(16, 8, g, bits -> tf.value(bits & ~0x1FFF), 5);
        Matrix b = matrix(8, 8, g, bits -> tf.value(bits & ~0x1FFF), 6);
        Matrix c = matrix(16, 8, r -> f32small().pattern(r), MmaTest::f32value, 7);
        long[] d = run("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", fragment(a, A_16x8_TF32, 4, 32), 4,
                fragment(b, B_8x8_TF32, 2, 32), 2, fragment(c, C_16x8, 4, 32), 4, 4);
        checkD(d, product(a, b, c), false);
    }

    private static void byteCase(String at, String bt, boolean sat, boolean big) {
        Gen g = r -> r.nextInt(256);
        java.util.function.IntFunction<BigDecimal> va = at.equals("s8") ? x -> BigDecimal.valueOf((byte) x) : x -> BigDecimal.valueOf(x);
        java.util.function.IntFunction<BigDecimal> vb = bt.equals("s8") ? x -> BigDecimal.valueOf((byte) x) : x -> BigDecimal.valueOf(x);
        Matrix a = matrix(16, 32, g, va, 11);
        Matrix b = matrix(32, 8, g, vb, 12);
        Gen cg = big ? r -> r.nextBoolean() ? Integer.MAX_VALUE - r.nextInt(1000) : Integer.MIN_VALUE + r.nextInt(1000) : r -> r.nextInt(2001) - 1000;
        Matrix c = matrix(16, 8, cg, x -> BigDecimal.valueOf(x), 13);
        String insn = "mma.sync.aligned.m16n8k32.row.col" + (sat ? ".satfinite" : "") + ".s32." + at + "." + bt + ".s32";
        long[] d = run(insn, fragment(a, A_16x32_BYTE, 4, 8), 4, fragment(b, B_32x8_BYTE, 2, 8), 2, fragment(c, C_16x8, 4, 32), 4, 4);
        BigDecimal[][] exact = product(a, b, c);
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < 4; i++) {
                int[] rc = C_16x8.at(l, i);
                long v = exact[rc[0]][rc[1]].longValueExact();
                long want = sat ? Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)) : (int) v; // wraps without .satfinite
                assertEquals(want & 0xFFFFFFFFL, d[l * 4 + i], insn + " lane " + l + " d" + i);
            }
        }
    }

    @Test
    void tf32M16n8k4() {
        NarrowFloatReference tf = NarrowFloatReference.tf32();
        Gen g = r -> small(tf).pattern(r) | (r.nextBoolean() ? 0x80000000 : 0);
        Matrix a = matrix(16, 4, g, tf::value, 8);
        Matrix b = matrix(4, 8, g, tf::value, 9);
        Matrix c = matrix(16, 8, r -> f32small().pattern(r), MmaTest::f32value, 10);
        long[] d = run("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", fragment(a, A_16x4_TF32, 2, 32), 2,
                fragment(b, B_4x8_TF32, 1, 32), 1, fragment(c, C_16x8, 4, 32), 4, 4);
        checkD(d, product(a, b, c), false);
    }

    @Test
    void int8M16n8k16() {
        Gen g = r -> r.nextInt(256);
        Matrix a = matrix(16, 16, g, x -> BigDecimal.valueOf((byte) x), 14);
        Matrix b = matrix(16, 8, g, x -> BigDecimal.valueOf(x), 15);
        Matrix c = matrix(16, 8, r -> r.nextInt(2001) - 1000, x -> BigDecimal.valueOf(x), 16);
        long[] d = run("mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32", fragment(a, A_16x16_BYTE, 2, 8), 2,
                fragment(b, B_16x8_BYTE, 1, 8), 1, fragment(c, C_16x8, 4, 32), 4, 4);
        BigDecimal[][] exact = product(a, b, c);
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < 4; i++) {
                int[] rc = C_16x8.at(l, i);
                assertEquals(exact[rc[0]][rc[1]].longValueExact() & 0xFFFFFFFFL, d[l * 4 + i], "lane " + l + " d" + i);
            }
        }
    }

    @Test
    void int8M16n8k32SignedAndUnsigned() {
        byteCase("s8", "s8", false, false);
        byteCase("u8", "s8", false, false);
        byteCase("u8", "u8", false, false);
    }

    @Test
    void int8SatfiniteClampsAndPlainWraps() {
        byteCase("u8", "u8", true, true);
        byteCase("s8", "u8", false, true);
    }

    @Test
    void fp8M16n8k32WithF32Accumulators() {
        for (String[] t : new String[][] {{"e4m3", "e4m3"}, {"e5m2", "e4m3"}, {"e5m2", "e5m2"}}) {
            NarrowFloatReference ra = t[0].equals("e4m3") ? NarrowFloatReference.E4M3 : NarrowFloatReference.E5M2;
            NarrowFloatReference rb = t[1].equals("e4m3") ? NarrowFloatReference.E4M3 : NarrowFloatReference.E5M2;
            // moderate exponents, so every product sum is exact in double
            Gen ga = r -> (r.nextBoolean() ? 0x80 : 0) | (ra == NarrowFloatReference.E4M3 ? 0x20 + r.nextInt(0x40) : 0x28 + r.nextInt(0x30));
            Gen gb = r -> (r.nextBoolean() ? 0x80 : 0) | (rb == NarrowFloatReference.E4M3 ? 0x20 + r.nextInt(0x40) : 0x28 + r.nextInt(0x30));
            Matrix a = matrix(16, 32, ga, x -> ra.value(x), 21);
            Matrix b = matrix(32, 8, gb, x -> rb.value(x), 22);
            Matrix c = matrix(16, 8, r -> f32small().pattern(r), MmaTest::f32value, 23);
            long[] d = run("mma.sync.aligned.m16n8k32.row.col.f32." + t[0] + "." + t[1] + ".f32", fragment(a, A_16x32_BYTE, 4, 8), 4,
                    fragment(b, B_32x8_BYTE, 2, 8), 2, fragment(c, C_16x8, 4, 32), 4, 4);
            checkD(d, product(a, b, c), false);
        }
    }

    @Test
    void fp8M16n8k32WithF16Accumulators() {
        NarrowFloatReference e4 = NarrowFloatReference.E4M3;
        Gen g = r -> (r.nextBoolean() ? 0x80 : 0) | (0x28 + r.nextInt(0x20)); // values 2^-2..2^1: exact in double, rounded once to f16 (the engine's documented choice)
        Matrix a = matrix(16, 32, g, x -> e4.value(x), 31);
        Matrix b = matrix(32, 8, g, x -> e4.value(x), 32);
        Matrix c = matrix(16, 8, smallNeg(F16), x -> F16.value(x), 33);
        long[] d = run("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", fragment(a, A_16x32_BYTE, 4, 8), 4,
                fragment(b, B_32x8_BYTE, 2, 8), 2, fragment(c, C_16x8, 2, 16), 2, 2);
        checkD(d, product(a, b, c), true);
    }

    @Test
    void f64M8n8k4RoundsTheExactSumOnce() {
        // the ISA's table: a0 = A(groupID, threadID_in_group), b0 = B(threadID_in_group, groupID),
        // c0, c1 = C(groupID, 2 threadID_in_group + 0, 1)
        SplittableRandom rnd = new SplittableRandom(51);
        double[][] a = new double[8][4];
        double[][] b = new double[4][8];
        double[][] c = new double[8][8];
        for (int i = 0; i < 8; i++) for (int j = 0; j < 4; j++) a[i][j] = rnd.nextDouble() * 2 - 1;
        for (int i = 0; i < 4; i++) for (int j = 0; j < 8; j++) b[i][j] = rnd.nextDouble() * 2 - 1;
        for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) c[i][j] = rnd.nextDouble() * 2 - 1;
        c[0][0] = -(a[0][0] * b[0][0]); // a cancellation
        long[] fa = new long[32];
        long[] fb = new long[32];
        long[] fc = new long[64];
        for (int l = 0; l < 32; l++) {
            fa[l] = Double.doubleToRawLongBits(a[l / 4][l % 4]);
            fb[l] = Double.doubleToRawLongBits(b[l % 4][l / 4]);
            fc[2 * l] = Double.doubleToRawLongBits(c[l / 4][2 * (l % 4)]);
            fc[2 * l + 1] = Double.doubleToRawLongBits(c[l / 4][2 * (l % 4) + 1]);
        }
        String body = "mov.u32 %r60, %tid.x;\nmul.wide.u32 %rd2, %r60, 8;\n"
                + "ld.param.u64 %rd1, [fa];\ncvta.to.global.u64 %rd1, %rd1;\nadd.s64 %rd1, %rd1, %rd2;\nld.global.f64 %fd1, [%rd1];\n"
                + "ld.param.u64 %rd1, [fb];\ncvta.to.global.u64 %rd1, %rd1;\nadd.s64 %rd1, %rd1, %rd2;\nld.global.f64 %fd2, [%rd1];\n"
                + "ld.param.u64 %rd1, [fc];\ncvta.to.global.u64 %rd1, %rd1;\nmul.wide.u32 %rd3, %r60, 16;\nadd.s64 %rd1, %rd1, %rd3;\n"
                + "ld.global.f64 %fd3, [%rd1];\nld.global.f64 %fd4, [%rd1+8];\n"
                + "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%fd5, %fd6}, {%fd1}, {%fd2}, {%fd3, %fd4};\n"
                + "add.s64 %rd4, %rd41, %rd3;\nst.global.f64 [%rd4], %fd5;\nst.global.f64 [%rd4+8], %fd6;\n";
        ExecKernel e = ExecKernel.of(body).threads(32);
        e.buffer("fa", ScalarType.U64, list(fa)).buffer("fb", ScalarType.U64, list(fb)).buffer("fc", ScalarType.U64, list(fc));
        LaunchedRun r = e.ok();
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < 2; i++) {
                int row = l / 4;
                int col = 2 * (l % 4) + i;
                BigDecimal s = new BigDecimal(c[row][col]);
                for (int j = 0; j < 4; j++) s = s.add(new BigDecimal(a[row][j]).multiply(new BigDecimal(b[j][col])));
                long want = Double.doubleToRawLongBits(s.doubleValue());
                assertEquals(Long.toHexString(want), Long.toHexString(ExecKernel.x(r, 2 * l + i)), "lane " + l + " d" + i);
            }
        }
    }

    @Test
    void aWarpWithFewerThan32LanesIsADiagnostic() {
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0;\nmma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r10, %r11, %r12, %r13}, "
                + "{%r1, %r1}, {%r1}, {%r1, %r1, %r1, %r1};").threads(16).run();
        assertEquals(List.of("warp-collective-partial"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void lanesAtDifferentMmaInstructionsAreADiagnostic() {
        LaunchedRun r = ExecKernel.of("mov.u32 %r60, %tid.x;\nmov.b32 %r1, 0;\nsetp.lt.u32 %p1, %r60, 16;\n@%p1 bra LOW;\n"
                + "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r10, %r11, %r12, %r13}, {%r1, %r1}, {%r1}, {%r1, %r1, %r1, %r1};\n"
                + "bra END;\nLOW:\n"
                + "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r10, %r11, %r12, %r13}, {%r1, %r1}, {%r1}, {%r1, %r1, %r1, %r1};\n"
                + "END:").threads(32).run();
        assertEquals(List.of("warp-sync-mismatch"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void shapesAndTypesNotModelledAreRefusedByName() {
        for (String bad : new String[] {"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r10, %r11, %r12, %r13}, {%r1, %r1}, {%r1, %r1}, {%r1, %r1, %r1, %r1};",
            "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%r10, %r11, %r12, %r13}, {%r1, %r1}, {%r1}, {%r1, %r1, %r1, %r1};"}) {
            Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> ExecKernel.of(bad).threads(32).launch());
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("unsupported instruction " + bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
    }
}
