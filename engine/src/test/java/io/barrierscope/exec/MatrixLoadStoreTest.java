package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * ldmatrix, stmatrix and movmatrix (PTX ISA 9.7.14.5.15-17) against the ISA's description written
 * out here: lanes 8i..8i+7 address the eight 16-byte rows of matrix i; lane l holds row l/4,
 * columns 2(l%4) and 2(l%4)+1 (low half first), or the transposed elements with .trans. Rows are
 * placed in a shuffled order, so each lane's own address is what counts.
 */
class MatrixLoadStoreTest {
    /** 64 rows of 8 halves in shared memory, copied in from the {@code src} buffer (512 halves as 256 words). */
    private static final String SETUP = ".shared .align 16 .b8 sm[1024];\nmov.u32 %r60, %tid.x;\n"
            + "ld.param.u64 %rd1, [src];\ncvta.to.global.u64 %rd1, %rd1;\nmul.wide.u32 %rd2, %r60, 32;\nadd.s64 %rd3, %rd1, %rd2;\n"
            + "mov.u32 %r1, sm;\nmul.lo.u32 %r2, %r60, 32;\nadd.u32 %r3, %r1, %r2;\n"
            + "ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd3];\nst.shared.v4.u32 [%r3], {%r4, %r5, %r6, %r7};\n"
            + "ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd3+16];\nst.shared.v4.u32 [%r3+16], {%r4, %r5, %r6, %r7};\nbar.sync 0;\n"
            + "ld.param.u64 %rd4, [rows];\ncvta.to.global.u64 %rd4, %rd4;\nmul.wide.u32 %rd5, %r60, 4;\nadd.s64 %rd4, %rd4, %rd5;\n"
            + "ld.global.u32 %r8, [%rd4];\nshl.b32 %r9, %r8, 4;\nadd.u32 %r10, %r1, %r9;\n"; // %r10: this lane's row address

    static int[] halves(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] h = new int[512];
        for (int i = 0; i < h.length; i++) h[i] = r.nextInt(1 << 16);
        return h;
    }

    /** A row index per lane, all different, in a shuffled order. */
    static int[] rows(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < 64; i++) all.add(i);
        int[] out = new int[32];
        for (int l = 0; l < 32; l++) out[l] = all.remove(r.nextInt(all.size()));
        return out;
    }

    private static ExecKernel kernel(String body, int[] h, int[] rows, int wSlots) {
        List<Number> src = new ArrayList<>();
        for (int i = 0; i < 256; i++) src.add(((long) h[2 * i + 1] << 16) | h[2 * i]);
        List<Number> rs = new ArrayList<>();
        for (int x : rows) rs.add(x);
        return ExecKernel.of(SETUP + body).threads(32).wSlots(wSlots).buffer("src", ScalarType.U32, src).buffer("rows", ScalarType.U32, rs);
    }

    /** Element (r, c) of matrix i as the ISA defines it: row r is at the address lane 8i+r gave. */
    private static int element(int[] h, int[] rows, int i, int r, int c) { return h[rows[8 * i + r] * 8 + c]; }

    private static void checkLoad(String shape, int n, boolean trans, boolean generic) {
        int[] h = halves(n * 10L + (trans ? 1 : 0));
        int[] rows = rows(n + 100L);
        StringBuilder regs = new StringBuilder();
        StringBuilder stores = new StringBuilder("mul.wide.u32 %rd6, %r60, " + 4 * n + ";\nadd.s64 %rd6, %rd40, %rd6;\n");
        for (int i = 0; i < n; i++) {
            regs.append(i == 0 ? "" : ", ").append("%r").append(20 + i);
            stores.append("st.global.u32 [%rd6+").append(4 * i).append("], %r").append(20 + i).append(";\n");
        }
        String addr = generic ? "cvta.shared.u64 %rd7, %rd8;\n" : "";
        String pre = generic ? "cvt.u64.u32 %rd8, %r10;\n" + addr : "";
        // lanes that give no row address (beyond 8n) hold an unaligned junk address, which must be ignored
        String junk = "setp.ge.u32 %p1, %r60, " + 8 * n + ";\n@%p1 mov.u32 %r10, 3;\n" + (generic ? "@%p1 mov.u64 %rd7, 3;\n" : "");
        String insn = "ldmatrix.sync.aligned.m8n8.x" + n + (trans ? ".trans" : "") + (generic ? "" : ".shared") + ".b16 {" + regs + "}, ["
                + (generic ? "%rd7" : "%r10") + "];\n";
        LaunchedRun r = kernel(pre + junk + insn + stores, h, rows, 32 * n).ok();
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < n; i++) {
                int g = l / 4;
                int t = l % 4;
                int lo = trans ? element(h, rows, i, 2 * t, g) : element(h, rows, i, g, 2 * t);
                int hi = trans ? element(h, rows, i, 2 * t + 1, g) : element(h, rows, i, g, 2 * t + 1);
                assertEquals(((long) hi << 16) | lo, ExecKernel.w(r, l * n + i), shape + " lane " + l + " matrix " + i);
            }
        }
    }

    @Test
    void ldmatrixX1X2X4() {
        checkLoad("x1", 1, false, false);
        checkLoad("x2", 2, false, false);
        checkLoad("x4", 4, false, false);
    }

    @Test
    void ldmatrixTrans() {
        checkLoad("x1.trans", 1, true, false);
        checkLoad("x4.trans", 4, true, false);
    }

    @Test
    void ldmatrixThroughAGenericAddress() {
        checkLoad("x2 generic", 2, false, true);
    }

    private static void checkStore(int n, boolean trans) {
        int[] h = new int[512]; // shared memory starts zero except what is stored
        int[] rows = rows(n + 200L);
        SplittableRandom rnd = new SplittableRandom(n);
        long[][] regs = new long[32][n];
        StringBuilder k = new StringBuilder("ld.param.u64 %rd11, [vals];\ncvta.to.global.u64 %rd11, %rd11;\nmul.wide.u32 %rd12, %r60, "
                + 4 * n + ";\nadd.s64 %rd11, %rd11, %rd12;\n");
        List<Number> vals = new ArrayList<>();
        StringBuilder names = new StringBuilder();
        for (int l = 0; l < 32; l++) for (int i = 0; i < n; i++) { regs[l][i] = rnd.nextLong() & 0xFFFFFFFFL; vals.add(regs[l][i]); }
        for (int i = 0; i < n; i++) {
            k.append("ld.global.u32 %r").append(20 + i).append(", [%rd11+").append(4 * i).append("];\n");
            names.append(i == 0 ? "" : ", ").append("%r").append(20 + i);
        }
        k.append("stmatrix.sync.aligned.m8n8.x").append(n).append(trans ? ".trans" : "").append(".shared.b16 [%r10], {").append(names).append("};\n");
        // copy all of shared memory out: 8 words per lane
        k.append("bar.sync 0;\nmul.wide.u32 %rd13, %r60, 32;\nadd.s64 %rd13, %rd40, %rd13;\n");
        for (int w = 0; w < 8; w++) k.append("ld.shared.u32 %r30, [%r3+").append(4 * w).append("];\nst.global.u32 [%rd13+").append(4 * w).append("], %r30;\n");
        LaunchedRun r = kernel(k.toString(), h, rows, 256).buffer("vals", ScalarType.U32, vals).ok();
        int[] want = new int[512];
        for (int l = 0; l < 32; l++) {
            for (int i = 0; i < n; i++) {
                int g = l / 4;
                int t = l % 4;
                int lo = (int) regs[l][i] & 0xFFFF;
                int hi = (int) (regs[l][i] >>> 16);
                int r0 = trans ? 2 * t : g;
                int c0 = trans ? g : 2 * t;
                int r1 = trans ? 2 * t + 1 : g;
                int c1 = trans ? g : 2 * t + 1;
                want[rows[8 * i + r0] * 8 + c0] = lo;
                want[rows[8 * i + r1] * 8 + c1] = hi;
            }
        }
        for (int w = 0; w < 256; w++) {
            long got = ExecKernel.w(r, w);
            assertEquals(((long) want[2 * w + 1] << 16) | want[2 * w], got, "stmatrix x" + n + (trans ? ".trans" : "") + " word " + w);
        }
    }

    @Test
    void stmatrixX1X2X4AndTrans() {
        checkStore(1, false);
        checkStore(2, false);
        checkStore(4, false);
        checkStore(4, true);
    }

    @Test
    void movmatrixTransposesTheWarpsFragment() {
        SplittableRandom rnd = new SplittableRandom(77);
        long[] a = new long[32];
        for (int l = 0; l < 32; l++) a[l] = rnd.nextLong() & 0xFFFFFFFFL;
        long[] d = LaneKernel.run32("movmatrix.sync.aligned.m8n8.trans.b16 %r10, %r1;", a);
        int[][] m = new int[8][8];
        for (int l = 0; l < 32; l++) { m[l / 4][2 * (l % 4)] = (int) a[l] & 0xFFFF; m[l / 4][2 * (l % 4) + 1] = (int) (a[l] >>> 16); }
        for (int l = 0; l < 32; l++) {
            long want = m[2 * (l % 4)][l / 4] | ((long) m[2 * (l % 4) + 1][l / 4] << 16);
            assertEquals(want, d[l], "movmatrix lane " + l);
        }
    }

    @Test
    void aMisalignedRowAddressIsADiagnostic() {
        LaunchedRun r = kernel("add.u32 %r10, %r10, 2;\nldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r10];\n", halves(1), rows(1), 64).run();
        assertEquals(List.of("misaligned-access"), ExecKernel.codes(r), r.summary());
    }
}
