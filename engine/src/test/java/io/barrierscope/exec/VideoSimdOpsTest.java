package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * SIMD video instructions (PTX ISA 9.7.18.2.1-4) with the default selectors and mask, against a
 * reference written here from the ISA's pseudocode: elements extended to 64-bit longs by their
 * operand's type, combined, clamped with .sat, merged into d's elements or summed onto c with .add.
 */
class VideoSimdOpsTest {
    static final String[] OPS = {"add", "sub", "avrg", "absdiff", "min", "max"};

    static long elem(long v, int i, int w, boolean s) {
        long x = (v >> (w * i)) & ((1L << w) - 1);
        return s && x >= (1L << (w - 1)) ? x - (1L << w) : x;
    }

    static long ref(String op, int n, String[] types, String mode, long a, long b, long c) {
        int w = 32 / n;
        long d = mode.equals("add") ? c : 0;
        for (int i = 0; i < n; i++) {
            long p = elem(a, i, w, types[1].equals("s32"));
            long q = elem(b, i, w, types[2].equals("s32"));
            long t = switch (op) {
                case "add" -> p + q;
                case "sub" -> p - q;
                case "avrg" -> p + q >= 0 ? (p + q + 1) / 2 : -((-(p + q) + 1) / 2);
                case "absdiff" -> p > q ? p - q : q - p;
                case "min" -> p < q ? p : q;
                default -> p > q ? p : q;
            };
            if (mode.equals("sat")) {
                long lo = types[0].equals("s32") ? -(1L << (w - 1)) : 0, hi = types[0].equals("s32") ? (1L << (w - 1)) - 1 : (1L << w) - 1;
                t = t < lo ? lo : t > hi ? hi : t;
            }
            d = mode.equals("add") ? d + t : d | ((t & ((1L << w) - 1)) << (w * i));
        }
        return d & 0xFFFFFFFFL;
    }

    @Test
    void everyOpOnBytesAndHalfWordsWithMergeSaturationAndAccumulate() {
        SplittableRandom r = new SplittableRandom(9);
        String[][] typeSets = {{"u32", "u32", "u32"}, {"s32", "s32", "s32"}, {"s32", "u32", "s32"}, {"u32", "s32", "u32"}};
        long[][] inputs = {{0x80FF7F01L, 0x017F80FFL, 0x12345678L}, {0xFFFF8000L, 0x7FFF0001L, 0xFFFFFFF0L},
            {r.nextLong() & 0xFFFFFFFFL, r.nextLong() & 0xFFFFFFFFL, r.nextLong() & 0xFFFFFFFFL}};
        List<String> forms = new ArrayList<>();
        List<Long> want = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        int slot = 0;
        for (long[] in : inputs) {
            body.append("mov.b32 %r1, ").append(in[0]).append(";\nmov.b32 %r2, ").append(in[1]).append(";\nmov.b32 %r3, ").append(in[2]).append(";\n");
            for (String op : OPS) {
                for (int n : new int[] {2, 4}) {
                    for (String[] ts : typeSets) {
                        for (String mode : new String[] {"", "sat", "add"}) {
                            String insn = "v" + op + n + "." + String.join(".", ts) + (mode.isEmpty() ? "" : "." + mode);
                            body.append(insn).append(" %r4, %r1, %r2, %r3;\n").append(w(slot++, "%r4"));
                            forms.add(insn + " " + Long.toHexString(in[0]) + ", " + Long.toHexString(in[1]) + ", " + Long.toHexString(in[2]));
                            want.add(ref(op, n, ts, mode, in[0], in[1], in[2]));
                        }
                    }
                }
            }
        }
        LaunchedRun run = ExecKernel.of(body.toString()).wSlots(slot).ok();
        for (int i = 0; i < slot; i++) assertEquals(Long.toHexString(want.get(i)), Long.toHexString(w(run, i)), forms.get(i));
    }

    /**
     * End to end: video_simd.json runs nvcc's PTX of video_simd.cu (CUDA's __vabsdiffs4,
     * __vabsdiffu4, __vsads4, __vsadu4, __vsads2, __vsadu2, __vabsdiffs2: vabsdiff4, vabsdiff4.add
     * and vabsdiff2.add among plain integer code) over 64 pairs; its expect block, computed apart
     * from the engine from CUDA's definitions of the intrinsics, is met.
     */
    @Test
    void theNvccLoweringOfCudasAbsoluteDifferenceIntrinsicsMeetsItsExpectBlock() throws Exception {
        java.nio.file.Path launch = java.nio.file.Path.of(VideoSimdOpsTest.class.getResource("/ptx-corpus/video_simd.json").toURI());
        LaunchedRun r = io.barrierscope.launch.LaunchValidation.validate(launch).start("round-robin", 0L);
        r.runToEnd();
        assertEquals(List.of(), r.expectDifferences(), r.summary());
    }

    @Test
    void saturationWithAccumulateAndOtherFormsAreRefused() {
        for (String bad : List.of("vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", "vabsdiff2.u32.u32 %r1, %r2, %r3, %r4;",
                "vmin4.u16.u32.u32 %r1, %r2, %r3, %r4;", "vadd.u32.u32.u32 %r1, %r2, %r3, %r4;", "vset4.u32.u32.lt.sat %r1, %r2, %r3, %r4;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains(bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
    }

    /** ptxas: "Incorrect video selector" / "Arguments mismatch"; the engine refuses them too, naming the operand. */
    @Test
    void immediatesAndOperandsOtherThan32BitIntegerRegistersAreRefused() {
        for (String bad : List.of("vadd4.u32.u32.u32 %r1, %r2, %r3, 7;", "vadd4.u32.u32.u32 %r1, 3, %r3, %r4;",
                "vabsdiff2.s32.s32.s32 %rd1, %r2, %r3, %r4;", "vmax4.u32.u32.u32 %r1, %f2, %r3, %r4;", "vmin2.u32.u32.u32.add %r1, %r2, %r3, %h4;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains("registers only"), e.getMessage());
        }
    }

    /** The PTX text of a SIMD form: d = %r4, a = %r1, b = %r2, c = %r3. */
    static String ptx(VideoReference.Simd f) {
        boolean set = f.op().equals("set");
        StringBuilder s = new StringBuilder("v" + f.op() + f.n());
        if (!set) s.append(VideoScalarOpsTest.t(f.dSigned()));
        s.append(VideoScalarOpsTest.t(f.aSigned())).append(VideoScalarOpsTest.t(f.bSigned()));
        if (set) s.append('.').append(f.cmp());
        if (f.sat()) s.append(".sat");
        if (f.add()) s.append(".add");
        return s.append(' ').append(VideoScalarOpsTest.sel("%r4", f.mask())).append(", ").append(VideoScalarOpsTest.sel("%r1", f.asel()))
                .append(", ").append(VideoScalarOpsTest.sel("%r2", f.bsel())).append(", %r3;").toString();
    }

    static String randomSelector(SplittableRandom r, int n) {
        if (r.nextInt(4) == 0) return null; // the default
        StringBuilder s = new StringBuilder(n == 2 ? "h" : "b");
        for (int i = 0; i < n; i++) s.append(r.nextInt(2 * n));
        return s.toString();
    }

    /**
     * Every SIMD op (9.7.18.2.1-4), both widths, every type triple (vset: pair and comparison),
     * merge, .sat merge and .add, with masks and selectors drawn by a fixed seed (the defaults
     * among them), each on 32 operand triples, against the reference written from the pseudocode.
     */
    @Test
    void everySimdFormWithMasksAndSelectorsMatchesTheIsaPseudocode() {
        SplittableRandom r = new SplittableRandom(11);
        List<VideoReference.Simd> forms = new ArrayList<>();
        for (String op : new String[] {"add", "sub", "avrg", "absdiff", "min", "max", "set"}) {
            for (int n : new int[] {2, 4}) {
                List<String> masks = n == 2 ? VideoOperands.MASKS2 : VideoOperands.MASKS4;
                for (int types = 0; types < 8; types++) {
                    for (String cmp : op.equals("set") ? VideoScalarOpsTest.CMPS : new String[] {null}) {
                        if (op.equals("set") && types >= 4) continue;
                        for (String mode : op.equals("set") ? new String[] {"", "add"} : new String[] {"", "sat", "add"}) {
                            for (int rep = 0; rep < 2; rep++) {
                                String mask = r.nextInt(3) == 0 ? null : masks.get(r.nextInt(masks.size()));
                                forms.add(new VideoReference.Simd(op, n, (types & 4) != 0, (types & 2) != 0, (types & 1) != 0,
                                        randomSelector(r, n), randomSelector(r, n), mask, mode.equals("sat"), mode.equals("add"), cmp));
                            }
                        }
                    }
                }
            }
        }
        VideoScalarOpsTest.compare(forms, VideoSimdOpsTest::ptx, VideoReference::simd, 12);
    }

    /** The ISA's examples (9.7.18.2.1-4), with operands chosen here and results worked by hand. */
    @Test
    void theIsasSimdExamplesGiveTheResultsWorkedByHand() {
        String[][] cases = {
            // h1: 32767 + 1 saturates to 32767; h0: -32768 + 1 = -32767 (0x8001)
            {"vadd2.s32.s32.u32.sat %r4, %r1, %r2, %r3;", "0x7FFF8000", "0x00010001", "0", "0x7FFF8001"},
            // mask h0: element 0 is a.h0 - b.h0 = 5 - 3, element 1 is c's
            {"vsub2.s32.s32.s32.sat %r4.h0, %r1.h10, %r2.h32, %r3;", "0x00010005", "0x00020003", "0xABCD1234", "0xABCD0002"},
            // both lanes min(a.h0, b.h0) = min(7, 4) = 4, summed onto c = 100
            {"vmin2.s32.u32.u32.add %r4.h10, %r1.h00, %r2.h22, %r3;", "0x00000007", "0x00000004", "100", "108"},
            // a signed: h1 -1 < 0 is 1, h0 1 < 0 is 0
            {"vset2.s32.u32.lt %r4, %r1, %r2, %r3;", "0xFFFF0001", "0", "0xFFFFFFFF", "0x00010000"},
            // h0 differs (2, 3), h1 equal: c + 1
            {"vset2.u32.u32.ne.add %r4, %r1, %r2, %r3;", "0x00010002", "0x00010003", "41", "42"},
            // 127 + 1 -> 127; -128 + 255 = 127; -1 + 1 = 0; 1 + 2 = 3
            {"vadd4.s32.s32.u32.sat %r4, %r1, %r2, %r3;", "0x7F80FF01", "0x01FF0102", "0", "0x7F7F0003"},
            // mask b0: -128 - 1 saturates to -128; bytes 1-3 from c
            {"vsub4.s32.s32.s32.sat %r4.b0, %r1.b3210, %r2.b7654, %r3;", "0x00000080", "0x00000001", "0xAABBCCDD", "0xAABBCC80"},
            // four lanes of a.b0 (signed -1) < b's bytes (unsigned 0, 1, 0x80, 0xFF): all 1
            {"vset4.s32.u32.lt %r4, %r1.b0000, %r2, %r3;", "0x000000FF", "0xFF800100", "0", "0x01010101"},
            // bytes selected across a and b: lanes 3..0 are byte 7 (b's byte 3: 9), 0 (a's: 1), 4 (b's byte 0: 5), 3 (a's: 2),
            // each minus byte 3 (a's: 2): 7, -1, 3, 0
            {"vsub4.u32.u32.u32 %r4, %r1.b7043, %r2.b3333, %r3;", "0x02000001", "0x09000005", "0", "0x07FF0300"},
        };
        List<String> insns = new ArrayList<>();
        long[][] ops = new long[cases.length][3];
        for (int i = 0; i < cases.length; i++) {
            insns.add(cases[i][0]);
            for (int k = 0; k < 3; k++) ops[i][k] = Long.decode(cases[i][k + 1]);
        }
        long[][] got = VideoBatch.run(insns, ops);
        for (int i = 0; i < cases.length; i++) assertEquals(Long.toHexString(Long.decode(cases[i][4])), Long.toHexString(got[i][i]), cases[i][0]);
    }

    /**
     * Masks and selectors outside the ISA's lists are refused by name: two of them are the ISA's own
     * examples, which its syntax (and ptxas) does not take (mask .b00, vset4 with .max).
     */
    @Test
    void masksSelectorsAndModifiersOutsideTheIsasListsAreRefusedByName() {
        String[][] bad = {
            {"vmin4.s32.u32.u32.add %r1.b00, %r2.b0000, %r3.b2222, %r1;", "%r1.b00) is not a mask of vmin4"},
            {"vset4.u32.u32.ne.max %r1, %r2, %r3, %r0;", ".max is not a modifier of vset4"},
            {"vadd2.u32.u32.u32 %r1.h01, %r2, %r3, %r4;", "is not a mask of vadd2"},
            {"vadd4.u32.u32.u32 %r1.b13, %r2, %r3, %r4;", "is not a mask of vadd4"},
            {"vadd4.u32.u32.u32 %r1, %r2.b0, %r3, %r4;", "(%r2.b0) is not a selector of vadd4"},
            {"vadd2.u32.u32.u32 %r1, %r2.h0, %r3, %r4;", "(%r2.h0) is not a selector of vadd2"},
            {"vadd2.u32.u32.u32 %r1, %r2.b10, %r3, %r4;", "is not a selector of vadd2"},
            {"vadd2.u32.u32.u32 %r1, %r2, %r3, %r4.h10;", "c takes no selector"},
            {"vset2.u32.u32.lt.sat %r1, %r2, %r3, %r4;", ".sat is not a modifier of vset2"},
            {"vset2.u32.u32 %r1, %r2, %r3, %r4;", "needs a comparison"},
            {"vset2.u32.u32.u32.lt %r1, %r2, %r3, %r4;", ".atype.btype"},
            {"vadd2.u32.u32.u32 %r1, -%r2, %r3, %r4;", "only vmad"},
        };
        for (String[] k : bad) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(k[0]).launch(), k[0]);
            assertTrue(e.getMessage().contains(k[0].substring(0, k[0].indexOf(' '))), e.getMessage());
            assertTrue(e.getMessage().contains(k[1]), k[0] + ": " + e.getMessage());
            assertTrue(e.getMessage().matches("(?s).*k\\.ptx:\\d+:\\d+: .*"), e.getMessage());
        }
    }
}
