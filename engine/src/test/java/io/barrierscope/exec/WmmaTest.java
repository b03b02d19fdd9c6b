package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * wmma.load, wmma.mma and wmma.store (PTX ISA 9.7.14.4) as one warp runs them: the product of
 * matrices laid out in memory as the ISA's .row/.col and stride define, against the product
 * computed here from the same small integers (every sum exact, so the bits are the only right
 * ones); the fragment register counts are the ISA's table; misuse is a diagnostic.
 */
class WmmaTest {
    /** One configuration: shape, input type, accumulator types, layouts, d stride (0: default). */
    record Config(int m, int n, int k, String in, String c, String d, String aLay, String bLay, String cLay, String dLay, int dStride,
            boolean sat, long cBias) {}

    private static int bits(String t) {
        return switch (t) { case "f16", "bf16" -> 16; case "s8", "u8" -> 8; default -> 32; };
    }

    private static ScalarType bufType(String t) {
        return switch (bits(t)) { case 16 -> ScalarType.U16; case 8 -> ScalarType.U8; default -> ScalarType.U32; };
    }

    /** The ISA's register count of each fragment (9.7.14.4.1): .f16 A/B 8; others R*C/32 elements, 32 bits a register. */
    private static int regs(char which, String t, int rows, int cols) {
        if (t.equals("f16") && which != 'c') return 8;
        return rows * cols / 32 / (32 / bits(t));
    }

    /** The bit pattern of small integer v in type t. */
    private static long enc(String t, double v) {
        return switch (t) {
            case "f16" -> FloatFormat.F16.encode(v, FloatFormat.Round.RN, false) & 0xFFFF;
            case "bf16" -> FloatFormat.BF16.encode(v, FloatFormat.Round.RN, false) & 0xFFFF;
            case "s8", "u8" -> (long) v & 0xFF;
            case "s32" -> (long) v & 0xFFFFFFFFL;
            default -> Float.floatToRawIntBits((float) v) & 0xFFFFFFFFL;
        };
    }

    private static String vec(int from, int n) {
        StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < n; i++) s.append(i == 0 ? "" : ", ").append("%r").append(from + i);
        return s.append("}").toString();
    }

    /** Offset of element (r, c) in a matrix of the given layout and leading dimension. */
    private static int at(String lay, int r, int c, int ld) { return lay.equals("row") ? r * ld + c : c * ld + r; }

    private static void check(Config g, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        boolean unsigned = g.in.equals("u8");
        double[][] a = new double[g.m][g.k], b = new double[g.k][g.n], c = new double[g.m][g.n];
        for (double[] row : a) for (int i = 0; i < row.length; i++) row[i] = unsigned ? rnd.nextInt(16) : rnd.nextInt(-8, 8);
        for (double[] row : b) for (int i = 0; i < row.length; i++) row[i] = unsigned ? rnd.nextInt(16) : rnd.nextInt(-8, 8);
        for (double[] row : c) for (int i = 0; i < row.length; i++) row[i] = rnd.nextInt(-50, 50) + g.cBias;
        int lda = g.aLay.equals("row") ? g.k : g.m, ldb = g.bLay.equals("row") ? g.n : g.k, ldc = g.cLay.equals("row") ? g.n : g.m;
        int ldd = g.dStride != 0 ? g.dStride : g.dLay.equals("row") ? g.n : g.m;
        List<Number> ba = new ArrayList<>(), bb = new ArrayList<>(), bc = new ArrayList<>(), bd = new ArrayList<>();
        for (int i = 0; i < g.m * g.k; i++) ba.add(0L);
        for (int i = 0; i < g.k * g.n; i++) bb.add(0L);
        for (int i = 0; i < g.m * g.n; i++) bc.add(0L);
        for (int i = 0; i < ldd * (g.dLay.equals("row") ? g.m : g.n); i++) bd.add(0L);
        // tf32 inputs carry garbage in their 13 low bits, which are not part of a tf32 (5.2.3).
        long junk = g.in.equals("tf32") ? 0x0AB5 : 0;
        for (int r = 0; r < g.m; r++) for (int q = 0; q < g.k; q++) ba.set(at(g.aLay, r, q, lda), enc(g.in, a[r][q]) | (a[r][q] != 0 ? junk : 0));
        for (int r = 0; r < g.k; r++) for (int q = 0; q < g.n; q++) bb.set(at(g.bLay, r, q, ldb), enc(g.in, b[r][q]) | (b[r][q] != 0 ? junk : 0));
        for (int r = 0; r < g.m; r++) for (int q = 0; q < g.n; q++) bc.set(at(g.cLay, r, q, ldc), enc(g.c, c[r][q]));
        String shape = ".m" + g.m + "n" + g.n + "k" + g.k;
        int na = regs('a', g.in, g.m, g.k), nb = regs('b', g.in, g.k, g.n), nc = regs('c', g.c, g.m, g.n), nd = regs('c', g.d, g.m, g.n);
        String types = g.in.equals("f16") ? "." + g.d + "." + g.c : "." + g.d + "." + g.in + "." + g.in + "." + g.c;
        String body = "ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\nld.param.u64 %rd4, [pd];\n"
                + "wmma.load.a.sync.aligned." + g.aLay + shape + "." + g.in + " " + vec(0, na) + ", [%rd1];\n"
                + "wmma.load.b.sync.aligned." + g.bLay + shape + ".global." + g.in + " " + vec(8, nb) + ", [%rd2], " + ldb + ";\n"
                + "wmma.load.c.sync.aligned." + g.cLay + shape + "." + g.c + " " + vec(16, nc) + ", [%rd3];\n"
                + "wmma.mma.sync.aligned." + g.aLay + "." + g.bLay + shape + types + (g.sat ? ".satfinite" : "") + " " + vec(24, nd)
                + ", " + vec(0, na) + ", " + vec(8, nb) + ", " + vec(16, nc) + ";\n"
                + "wmma.store.d.sync.aligned." + g.dLay + shape + ".global." + g.d + " [%rd4], " + vec(24, nd)
                + (g.dStride != 0 ? ", " + g.dStride : "") + ";\n";
        LaunchedRun r = ExecKernel.of(body).threads(32).buffer("pa", bufType(g.in), ba).buffer("pb", bufType(g.in), bb)
                .buffer("pc", bufType(g.c), bc).buffer("pd", bufType(g.d), bd).ok();
        List<Number> out = r.buffers().get("pd");
        for (int i = 0; i < g.m; i++) {
            for (int j = 0; j < g.n; j++) {
                double s = c[i][j];
                for (int q = 0; q < g.k; q++) s += a[i][q] * b[q][j];
                if (g.sat) s = Math.min(Integer.MAX_VALUE, Math.max(Integer.MIN_VALUE, s));
                assertEquals(enc(g.d, s), out.get(at(g.dLay, i, j, ldd)).longValue() & (bits(g.d) == 16 ? 0xFFFF : 0xFFFFFFFFL),
                        g + " D[" + i + "][" + j + "]");
            }
        }
    }

    @Test
    void loadMmaStoreGiveTheProductForEveryModelledShapeTypeAndLayout() {
        check(new Config(16, 16, 16, "f16", "f32", "f32", "row", "col", "row", "col", 0, false, 0), 1);
        check(new Config(32, 8, 16, "f16", "f16", "f16", "col", "row", "row", "row", 0, false, 0), 2);
        check(new Config(8, 32, 16, "f16", "f32", "f16", "row", "row", "col", "row", 40, false, 0), 3);
        check(new Config(16, 16, 16, "bf16", "f32", "f32", "row", "col", "col", "row", 24, false, 0), 4);
        check(new Config(32, 8, 16, "bf16", "f32", "f32", "col", "col", "row", "col", 0, false, 0), 5);
        check(new Config(8, 32, 16, "s8", "s32", "s32", "row", "col", "row", "row", 0, false, 0), 6);
        check(new Config(16, 16, 16, "u8", "s32", "s32", "col", "row", "row", "col", 0, false, 0), 7);
        check(new Config(16, 16, 8, "tf32", "f32", "f32", "row", "col", "row", "row", 0, false, 0), 8);
    }

    @Test
    void integerSatfiniteClampsTheSumAndWithoutItTheSumWraps() {
        // C near the s32 maximum: .satfinite gives 0x7FFFFFFF where the sum passes it.
        check(new Config(16, 16, 16, "u8", "s32", "s32", "row", "col", "row", "row", 0, true, Integer.MAX_VALUE - 600), 9);
    }

    @Test
    void anF16FragmentWithMoreElementsThanItsShareOfTheMatrixRepeatsThem() {
        // m16n16k16 A: 256 elements, 8 per lane, held in 8 .f16x2 registers (16 elements): registers 4..7 repeat 0..3.
        List<Number> a = new ArrayList<>();
        for (int i = 0; i < 256; i++) a.add(FloatFormat.F16.encode(i, FloatFormat.Round.RN, false) & 0xFFFF);
        LaunchedRun r = ExecKernel.of("ld.param.u64 %rd1, [pa];\nwmma.load.a.sync.aligned.row.m16n16k16.f16 " + vec(0, 8) + ", [%rd1];\n"
                + "mov.u32 %r30, %tid.x;\nsetp.eq.u32 %p1, %r30, 5;\n"
                + "@%p1 " + w(0, "%r0") + "@%p1 " + w(1, "%r4") + "@%p1 " + w(2, "%r3") + "@%p1 " + w(3, "%r7")).threads(32).buffer("pa", ScalarType.U16, a).ok();
        assertEquals(w(r, 0), w(r, 1));
        assertEquals(w(r, 2), w(r, 3));
    }

    @Test
    void lanesGivingDifferentAddressesOrStridesAreADiagnostic() {
        List<Number> a = new ArrayList<>();
        for (int i = 0; i < 1024; i++) a.add(0);
        LaunchedRun r = ExecKernel.of("ld.param.u64 %rd1, [pa];\nmov.u32 %r20, %tid.x;\nshr.u32 %r20, %r20, 4;\nmul.wide.u32 %rd2, %r20, 32;\n"
                + "add.u64 %rd1, %rd1, %rd2;\nwmma.load.a.sync.aligned.row.m16n16k16.global.f16 " + vec(0, 8) + ", [%rd1];\n")
                .threads(32).buffer("pa", ScalarType.U16, a).run();
        assertEquals(List.of("wmma-operand-mismatch"), ExecKernel.codes(r), r.summary());
        r = ExecKernel.of("ld.param.u64 %rd1, [pa];\nmov.u32 %r20, %tid.x;\nshr.u32 %r20, %r20, 4;\nshl.b32 %r20, %r20, 4;\n"
                + "add.u32 %r20, %r20, 16;\nwmma.load.a.sync.aligned.row.m16n16k16.global.f16 " + vec(0, 8) + ", [%rd1], %r20;\n")
                .threads(32).buffer("pa", ScalarType.U16, a).run();
        assertEquals(List.of("wmma-operand-mismatch"), ExecKernel.codes(r), r.summary());
    }

    @Test
    void aRowNotStartingAtAMultipleOfTheFragmentSizeIsMisaligned() {
        List<Number> a = new ArrayList<>();
        for (int i = 0; i < 1024; i++) a.add(0);
        // f16 A fragment: 8 registers, 32 bytes: a start 16 bytes in fails; so does a stride of 20 halves (40-byte rows; 12 would be below the row length, another diagnostic).
        for (String op : List.of("add.u64 %rd1, %rd1, 16;\nwmma.load.a.sync.aligned.row.m16n16k16.f16 " + vec(0, 8) + ", [%rd1];\n",
                "wmma.load.a.sync.aligned.row.m16n16k16.f16 " + vec(0, 8) + ", [%rd1], 20;\n")) {
            LaunchedRun r = ExecKernel.of("ld.param.u64 %rd1, [pa];\n" + op).threads(32).buffer("pa", ScalarType.U16, a).run();
            assertEquals(List.of("misaligned-access"), ExecKernel.codes(r), r.summary());
        }
    }

    @Test
    void shapesAndTypesNotModelledAreRefusedByName() {
        for (String bad : List.of("wmma.load.a.sync.aligned.row.m8n8k4.f64 {%fd0}, [%rd1];",
                "wmma.load.a.sync.aligned.row.m8n8k32.s4 {%r0}, [%rd1];",
                "wmma.load.a.sync.aligned.row.m16n16k8.f16 " + vec(0, 8) + ", [%rd1];",
                "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite " + vec(0, 8) + ", " + vec(8, 8) + ", " + vec(16, 8) + ", " + vec(24, 8) + ";",
                "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r0, %r1}, [%rd1];")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).threads(32).launch(), bad);
            assertTrue(e.getMessage().contains("wmma."), e.getMessage());
        }
    }

    /**
     * Independent of {@link #check}: s8 A column-major with ldm 24, B row-major with ldm 32 holding
     * a signed permutation (B[q][j] = +-1 where q = (5j + 3) mod 16, -1 for odd j), so D[i][j] =
     * C +- A[i][(5j + 3) mod 16]; C = 0x7FFFFFF0 makes D pass the s32 maximum for A above 15:
     * wrapping without .satfinite, clamped with it; D stored column-major with ldm 20.
     */
    @Test
    void s8WithColumnMajorAAndRowMajorBAtNonDefaultStridesWrapsOrSaturatesNearTheS32Maximum() {
        for (boolean sat : List.of(false, true)) {
            List<Number> a = new ArrayList<>(), b = new ArrayList<>(), c = new ArrayList<>(), d = new ArrayList<>();
            for (int i = 0; i < 24 * 16; i++) a.add(0);
            for (int i = 0; i < 16 * 32; i++) b.add(0);
            for (int i = 0; i < 256; i++) c.add(0x7FFFFFF0L);
            for (int i = 0; i < 20 * 16; i++) d.add(0);
            for (int r = 0; r < 16; r++) for (int q = 0; q < 16; q++) a.set(q * 24 + r, (long) ((r * 16 + q) % 200 - 100) & 0xFF);
            for (int j = 0; j < 16; j++) b.set(((5 * j + 3) % 16) * 32 + j, j % 2 == 0 ? 1 : 0xFF);
            String body = "ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\nld.param.u64 %rd4, [pd];\n"
                    + "wmma.load.a.sync.aligned.col.m16n16k16.global.s8 {%r0, %r1}, [%rd1], 24;\n"
                    + "wmma.load.b.sync.aligned.row.m16n16k16.global.s8 {%r2, %r3}, [%rd2], 32;\n"
                    + "wmma.load.c.sync.aligned.row.m16n16k16.global.s32 " + vec(8, 8) + ", [%rd3];\n"
                    + "wmma.mma.sync.aligned.col.row.m16n16k16.s32.s8.s8.s32" + (sat ? ".satfinite" : "") + " " + vec(16, 8)
                    + ", {%r0, %r1}, {%r2, %r3}, " + vec(8, 8) + ";\n"
                    + "wmma.store.d.sync.aligned.col.m16n16k16.global.s32 [%rd4], " + vec(16, 8) + ", 20;\n";
            LaunchedRun r = ExecKernel.of(body).threads(32).buffer("pa", ScalarType.U8, a).buffer("pb", ScalarType.U8, b)
                    .buffer("pc", ScalarType.U32, c).buffer("pd", ScalarType.U32, d).ok();
            List<Number> out = r.buffers().get("pd");
            for (int i = 0; i < 16; i++) {
                for (int j = 0; j < 16; j++) {
                    long av = (i * 16 + (5 * j + 3) % 16) % 200 - 100;
                    long sum = 0x7FFFFFF0L + (j % 2 == 0 ? av : -av);
                    long want = sat ? Math.min(sum, Integer.MAX_VALUE) : sum & 0xFFFFFFFFL;
                    assertEquals(want, out.get(j * 20 + i).longValue() & 0xFFFFFFFFL, "sat " + sat + " D[" + i + "][" + j + "]");
                }
            }
        }
    }

    @Test
    void aStrideBelowTheRowOrColumnLengthIsADiagnostic() {
        // 9.7.14.4.3: a stride lower than the default is undefined (rows would overlap).
        List<Number> a = new ArrayList<>();
        for (int i = 0; i < 1024; i++) a.add(0);
        for (String op : List.of("wmma.load.a.sync.aligned.row.m16n16k16.f16 " + vec(0, 8) + ", [%rd1], 8;\n",
                "wmma.load.b.sync.aligned.col.m32n8k16.f16 " + vec(0, 8) + ", [%rd1], 8;\n",
                "wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd1], " + vec(0, 8) + ", 8;\n")) {
            LaunchedRun r = ExecKernel.of("ld.param.u64 %rd1, [pa];\n" + op).threads(32).buffer("pa", ScalarType.U32, a).run();
            assertEquals(List.of("wmma-stride-too-small"), ExecKernel.codes(r), op + r.summary());
        }
    }

    @Test
    void satfiniteOnALoadOrStoreAndAnMmaWithoutBothLayoutsAreRefusedByName() {
        for (String bad : List.of("wmma.load.a.sync.aligned.row.m16n16k16.satfinite.f16 " + vec(0, 8) + ", [%rd1];",
                "wmma.store.d.sync.aligned.row.m16n16k16.satfinite.s32 [%rd1], " + vec(0, 8) + ";",
                "wmma.mma.sync.aligned.m16n16k16.f32.f32 " + vec(0, 8) + ", " + vec(8, 8) + ", " + vec(16, 8) + ", " + vec(24, 8) + ";",
                "wmma.mma.sync.aligned.row.m16n16k16.f32.f32 " + vec(0, 8) + ", " + vec(8, 8) + ", " + vec(16, 8) + ", " + vec(24, 8) + ";")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).threads(32).launch(), bad);
            assertTrue(e.getMessage().contains("wmma."), e.getMessage());
        }
    }
}
