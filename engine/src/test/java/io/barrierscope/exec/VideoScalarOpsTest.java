package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.VideoReference.Mad;
import io.barrierscope.exec.VideoReference.Scalar;
import io.barrierscope.launch.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The scalar video instructions (PTX ISA 9.7.18.1: vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr,
 * vmad, vset) against {@link VideoReference}, written from the ISA's pseudocode: every form
 * (op, the three types, .sat, each secondary operation and each merge position, the shift modes,
 * the comparisons, vmad's negations, .po and scales) with selectors drawn by a fixed seed, each on
 * 32 operand triples drawn by a fixed seed; every pair of selectors; the ISA's examples by hand.
 */
class VideoScalarOpsTest {
    static final String[] SELS = {null, "b0", "b1", "b2", "b3", "h0", "h1"};
    static final String[] ARITH = {"vadd", "vsub", "vabsdiff", "vmin", "vmax"};
    static final String[] CMPS = {"eq", "ne", "lt", "le", "gt", "ge"};

    static String t(boolean signed) { return signed ? ".s32" : ".u32"; }

    static String sel(String reg, String s) { return reg + (s == null ? "" : "." + s); }

    /** The PTX text of a scalar form, d = %r4, a = %r1, b = %r2, c = %r3. */
    static String ptx(Scalar f) {
        boolean set = f.op().equals("vset");
        StringBuilder s = new StringBuilder(f.op());
        if (!set) s.append(t(f.dSigned()));
        s.append(t(f.aSigned())).append(t(f.bSigned()));
        if (set) s.append('.').append(f.cmp());
        if (f.sat()) s.append(".sat");
        if (f.mode() != null) s.append('.').append(f.mode());
        if (f.secop() != null) s.append('.').append(f.secop());
        s.append(' ').append(sel("%r4", f.dsel())).append(", ").append(sel("%r1", f.asel())).append(", ").append(sel("%r2", f.bsel()));
        if (f.secop() != null || f.dsel() != null) s.append(", %r3");
        return s.append(';').toString();
    }

    static String ptx(Mad f) {
        String s = "vmad.u32" + t(f.aSigned()) + t(f.bSigned()) + (f.po() ? ".po" : "") + (f.sat() ? ".sat" : "")
                + (f.scale() != 0 ? ".shr" + f.scale() : "");
        return s + " %r4, " + (f.negA() ? "-" : "") + sel("%r1", f.asel()) + ", " + (f.negB() ? "-" : "") + sel("%r2", f.bsel()) + ", "
                + (f.negC() ? "-" : "") + "%r3;";
    }

    /** Runs the forms in batches and compares every thread's d with the reference. */
    static <F> void compare(List<F> forms, java.util.function.Function<F, String> text, Ref<F> ref, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int from = 0; from < forms.size(); from += 150) {
            List<F> batch = forms.subList(from, Math.min(forms.size(), from + 150));
            long[][] ops = VideoBatch.operands(r);
            List<String> insns = batch.stream().map(text).toList();
            long[][] got = VideoBatch.run(insns, ops);
            for (int k = 0; k < batch.size(); k++) {
                for (int th = 0; th < ops.length; th++) {
                    long want = ref.d(batch.get(k), ops[th][0], ops[th][1], ops[th][2]);
                    assertEquals(Long.toHexString(want), Long.toHexString(got[k][th]), insns.get(k) + " a=" + Long.toHexString(ops[th][0])
                            + " b=" + Long.toHexString(ops[th][1]) + " c=" + Long.toHexString(ops[th][2]));
                }
            }
        }
    }

    interface Ref<F> {
        long d(F form, long a, long b, long c);
    }

    /** Every op, type triple, .sat, secondary operation and merge position; selectors drawn with a fixed seed. */
    @Test
    void everyArithmeticFormMatchesTheIsaPseudocode() {
        SplittableRandom r = new SplittableRandom(1);
        List<Scalar> forms = new ArrayList<>();
        for (String op : ARITH) {
            for (int types = 0; types < 8; types++) {
                for (boolean sat : new boolean[] {false, true}) {
                    for (String second : new String[] {null, "add", "min", "max", "b0", "b1", "b2", "b3", "h0", "h1"}) {
                        boolean merge = second != null && second.length() == 2 && !second.equals("add");
                        forms.add(new Scalar(op, (types & 4) != 0, (types & 2) != 0, (types & 1) != 0, SELS[r.nextInt(7)], SELS[r.nextInt(7)],
                                merge ? second : null, sat, merge ? null : second, null, null));
                    }
                }
            }
        }
        compare(forms, VideoScalarOpsTest::ptx, VideoReference::scalar, 2);
    }

    @Test
    void everyPairOfOperandSelectorsExtractsAndExtendsAsTheIsaSays() {
        List<Scalar> forms = new ArrayList<>();
        for (String as : SELS) {
            for (String bs : SELS) {
                forms.add(new Scalar("vsub", true, true, false, as, bs, null, false, null, null, null));
                forms.add(new Scalar("vmax", false, false, true, as, bs, null, false, null, null, null));
            }
        }
        compare(forms, VideoScalarOpsTest::ptx, VideoReference::scalar, 3);
    }

    /** vshl/vshr: both modes, .sat, the secondary operations and merges; b is always unsigned. */
    @Test
    void shiftsClampOrWrapTheAmountAndMatchTheIsaPseudocode() {
        SplittableRandom r = new SplittableRandom(4);
        List<Scalar> forms = new ArrayList<>();
        for (String op : new String[] {"vshl", "vshr"}) {
            for (int types = 0; types < 4; types++) {
                for (String mode : new String[] {"clamp", "wrap"}) {
                    for (boolean sat : new boolean[] {false, true}) {
                        for (String second : new String[] {null, "add", "min", "max", "b0", "b1", "b2", "b3", "h0", "h1"}) {
                            boolean merge = second != null && second.length() == 2 && !second.equals("add");
                            // b's selector mostly b0/h0 so that amounts below 33 are common
                            String bs = r.nextBoolean() ? SELS[r.nextInt(7)] : "b0";
                            forms.add(new Scalar(op, (types & 2) != 0, (types & 1) != 0, false, SELS[r.nextInt(7)], bs,
                                    merge ? second : null, sat, merge ? null : second, mode, null));
                        }
                    }
                }
            }
        }
        compare(forms, VideoScalarOpsTest::ptx, VideoReference::scalar, 5);
    }

    @Test
    void vsetComparesTheExtendedValuesAndItsResultIsUnsigned() {
        SplittableRandom r = new SplittableRandom(6);
        List<Scalar> forms = new ArrayList<>();
        for (int types = 0; types < 4; types++) {
            for (String cmp : CMPS) {
                for (String second : new String[] {null, "add", "min", "max", "b0", "b1", "b2", "b3", "h0", "h1"}) {
                    boolean merge = second != null && second.length() == 2 && !second.equals("add");
                    forms.add(new Scalar("vset", false, (types & 2) != 0, (types & 1) != 0, SELS[r.nextInt(7)], SELS[r.nextInt(7)],
                            merge ? second : null, false, merge ? null : second, null, cmp));
                }
            }
        }
        compare(forms, VideoScalarOpsTest::ptx, VideoReference::scalar, 7);
    }

    /** vmad: every sign pair, every negation the ISA's table allows, .po, .sat and both scales. */
    @Test
    void vmadMatchesTheIsaPseudocodeForEveryAllowedNegationScaleAndSaturation() {
        SplittableRandom r = new SplittableRandom(8);
        boolean[][] negs = {{false, false, false}, {false, false, true}, {false, true, false}, {true, false, false}, {true, true, false},
            {true, true, true}};
        List<Mad> forms = new ArrayList<>();
        for (int types = 0; types < 4; types++) {
            for (int k = 0; k <= negs.length; k++) {
                boolean po = k == negs.length;
                boolean[] ng = po ? negs[0] : negs[k];
                for (boolean sat : new boolean[] {false, true}) {
                    for (int scale : new int[] {0, 7, 15}) {
                        for (int rep = 0; rep < 2; rep++) {
                            forms.add(new Mad((types & 2) != 0, (types & 1) != 0, SELS[r.nextInt(7)], SELS[r.nextInt(7)], ng[0], ng[1], ng[2], po,
                                    sat, scale));
                        }
                    }
                }
            }
        }
        compare(forms, VideoScalarOpsTest::ptx, VideoReference::vmad, 9);
    }

    /** The ISA's examples (9.7.18.1.1-4), with operands chosen here and results worked by hand. */
    @Test
    void theIsasExamplesGiveTheResultsWorkedByHand() {
        String[][] cases = {
            // 0xFF (b0, unsigned) + -32768 (h0 of 0x8000, signed) = -32513
            {"vadd.s32.u32.s32.sat %r4, %r1.b0, %r2.h0;", "0x000000FF", "0x00008000", "0", "0xFFFF80FF"},
            // -32768 (h1, signed) - 65535 (h1, unsigned) = -98303
            {"vsub.s32.s32.u32.sat %r4, %r1.h1, %r2.h1;", "0x80000000", "0xFFFF0000", "0", "0xFFFE8001"},
            // |-128 - 127| = 255, fits s16, merged into c's low half-word
            {"vabsdiff.s32.s32.s32.sat %r4.h0, %r1.b0, %r2.b2, %r3;", "0x00000080", "0x007F0000", "0x12345678", "0x123400FF"},
            // the same saturated to s8 when merged into a byte: 127
            {"vabsdiff.s32.s32.s32.sat %r4.b3, %r1.b0, %r2.b2, %r3;", "0x00000080", "0x007F0000", "0x12345678", "0x7F345678"},
            // min(5, -7) + 10 = 3
            {"vmin.s32.s32.s32.sat.add %r4, %r1, %r2, %r3;", "5", "0xFFFFFFF9", "10", "3"},
            // 1 << min(33, 32) = 2^32: its low 32 bits are 0
            {"vshl.s32.u32.u32.clamp %r4, %r1, %r2;", "1", "33", "0", "0"},
            // .wrap: 1 << (33 & 31) = 2
            {"vshl.s32.u32.u32.wrap %r4, %r1, %r2;", "1", "33", "0", "2"},
            // .sat: 1 << 32 clamped to s32
            {"vshl.s32.u32.u32.clamp.sat %r4, %r1, %r2;", "1", "33", "0", "0x7FFFFFFF"},
            // h1 of b = 33, wrapped to 1
            {"vshr.u32.u32.u32.wrap %r4, %r1, %r2.h1;", "0x80000000", "0x00210000", "0", "0x40000000"},
            // signed a: the sign fills
            {"vshr.s32.s32.u32.clamp %r4, %r1, %r2;", "0x80000000", "40", "0", "0xFFFFFFFF"},
            // -2 * 3 + (~5 + 1) = -6 - 5 = -11
            {"vmad.s32.s32.u32.sat %r4, %r1, %r2, -%r3;", "0xFFFFFFFE", "3", "5", "0xFFFFFFF5"},
            // 0xFFFF * 0xFFFF = 0xFFFE0001, >> 15 = 0x1FFFC
            {"vmad.u32.u32.u32.shr15 %r4, %r1.h0, %r2.h0, %r3;", "0x1234FFFF", "0xFFFF", "0", "0x1FFFC"},
            // (u32 * u32) - u32 is signed: 2 * 3 - 10 = -4, not clamped to 0
            {"vmad.u32.u32.u32.sat %r4, %r1, %r2, -%r3;", "2", "3", "10", "0xFFFFFFFC"},
            // .po: 2 * 3 + 4 + 1
            {"vmad.u32.u32.u32.po %r4, %r1, %r2, %r3;", "2", "3", "4", "11"},
            // -1 (signed) < 0 (unsigned): 1
            {"vset.s32.u32.lt %r4, %r1, %r2;", "0xFFFFFFFF", "0", "0", "1"},
            // 5 != h1 of 0x00050000 (5): 0
            {"vset.u32.u32.ne %r4, %r1, %r2.h1;", "5", "0x00050000", "0", "0"},
            // vset with .min: min(1, 0) = 0; merge: the 1 into byte 2 of c
            {"vset.u32.u32.eq.min %r4, %r1, %r2, %r3;", "7", "7", "0", "0"},
            {"vset.u32.u32.eq %r4.b2, %r1, %r2, %r3;", "7", "7", "0xFFFFFFFF", "0xFF01FFFF"},
            // unsigned dtype: .max compares with c zero-extended, the unsaturated -1 stays below 5
            {"vsub.u32.u32.u32.max %r4, %r1, %r2, %r3;", "0", "1", "5", "5"},
            // an immediate source, as ptxas takes: (3 << 4) + 1
            {"vshl.u32.u32.u32.clamp.add %r4, %r1, 4, %r3;", "3", "0", "1", "49"},
        };
        List<String> insns = new ArrayList<>();
        long[][] ops = new long[cases.length][3];
        for (int i = 0; i < cases.length; i++) {
            insns.add(cases[i][0]);
            for (int k = 0; k < 3; k++) ops[i][k] = Long.decode(cases[i][k + 1]);
        }
        // thread i runs every instruction; case i is instruction i on thread i's operands
        long[][] got = VideoBatch.run(insns, ops);
        for (int i = 0; i < cases.length; i++) assertEquals(Long.toHexString(Long.decode(cases[i][4])), Long.toHexString(got[i][i]), cases[i][0]);
    }

    /**
     * End to end: video_scalar.json runs nvcc's PTX of video_scalar.cu (inline PTX, which nvcc
     * passes through: selectors on every operand, merges, .sat, .add/.min/.max, vshl/vshr, vmad
     * with -c and .shr7, vset, vset4 and vavrg2 with explicit selectors and masks) over 64 triples;
     * its expect block, computed by {@link VideoReference} apart from the engine, is met.
     */
    @Test
    void nvccPtxWithSelectorsMasksAndNegationMeetsItsExpectBlock() throws Exception {
        java.nio.file.Path launch = java.nio.file.Path.of(VideoScalarOpsTest.class.getResource("/ptx-corpus/video_scalar.json").toURI());
        io.barrierscope.launch.LaunchedRun r = io.barrierscope.launch.LaunchValidation.validate(launch).start("round-robin", 0L);
        r.runToEnd();
        assertEquals(List.of(), r.expectDifferences(), r.summary());
    }

    /** Forms the ISA's syntax does not have (ptxas refuses them too) are refused at load, by name, with the file's line and column. */
    @Test
    void formsOutsideTheIsasSyntaxAreRefusedByNameAtTheirLocation() {
        String[][] bad = {
            {"vadd.u32.u32.u32.add %r4.b0, %r1, %r2, %r3;", "two different forms"},
            {"vadd.u32.u32.u32 %r4, %r1, %r2, %r3;", "takes 3 operands"},
            {"vadd.u32.u32.u32.add %r4, %r1, %r2;", "takes 4 operands"},
            {"vadd.u32.u32.u32 %r4.b0, %r1, %r2;", "takes 4 operands"},
            {"vadd.u32.u32.u32 %r4, -%r1, %r2;", "only vmad"},
            {"vset.u32.u32.lt.sat %r4, %r1, %r2;", ".sat is not a modifier of vset"},
            {"vset.u32.u32 %r4, %r1, %r2;", "needs a comparison"},
            {"vadd.u32.u32.u32 %r4, %r1.h10, %r2;", "selectors are .b0"},
            {"vadd.u32.u32.u32 %r4, %r1, %r2.b4;", "selectors are .b0"},
            {"vadd.u32.u32.u32.add %r4, %r1, %r2, %r3.b0;", "takes no selector"},
            {"vshl.u32.u32.s32.clamp %r4, %r1, %r2;", "b operand type is .u32"},
            {"vshl.u32.u32.u32 %r4, %r1, %r2;", "needs a mode"},
            {"vshl.u32.u32.u32.clamp.wrap %r4, %r1, %r2;", ".wrap is not a modifier"},
            {"vabsdiff.u32.u32.u32.wrap %r4, %r1, %r2;", ".wrap is not a modifier"},
            {"vadd.u32.u32.u32.min.max %r4, %r1, %r2, %r3;", ".max is not a modifier"},
            {"vadd.s32.s32 %r4, %r1, %r2;", ".dtype.atype.btype"},
            {"vadd.b32.u32.u32 %r4, %r1, %r2;", ".dtype.atype.btype"},
            {"vadd.u32.u32.u32 %r4, %rd1, %r2;", "is not a .b32/.u32/.s32 register"},
            {"vmad.s32.u32.u32 %r4, -%r1, %r2, -%r3;", "either (a*b) or c"},
            {"vmad.u32.u32.u32.po %r4, -%r1, %r2, %r3;", ".po mode"},
            {"vmad.u32.u32.u32.shr7.shr15 %r4, %r1, %r2, %r3;", ".shr15 is not a modifier"},
            {"vmad.u32.u32.u32.add %r4, %r1, %r2, %r3;", ".add is not a modifier"},
            {"vmad.u32.u32.u32 %r4.b0, %r1, %r2, %r3;", "takes no selector"},
            {"vmad.u32.u32.u32 %r4, %r1, %r2, -5;", "negative immediate"},
            {"vmad.u32.u32.u32 %r4, %r1, %r2;", "takes 4 operands"},
        };
        for (String[] k : bad) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(k[0]).launch(), k[0]);
            String mn = k[0].substring(0, k[0].indexOf(' '));
            assertTrue(e.getMessage().contains(mn), e.getMessage());
            assertTrue(e.getMessage().contains(k[1]), k[0] + ": " + e.getMessage());
            assertTrue(e.getMessage().matches("(?s).*k\\.ptx:\\d+:\\d+: .*"), e.getMessage());
        }
    }

    /** A suffix that is no selector at all is an error at its own column, naming it. */
    @Test
    void aSuffixThatIsNoVideoSelectorIsAnErrorAtItsColumn() {
        for (String[] k : new String[][] {{"vadd.u32.u32.u32 %r4, %r1.x, %r2;", "%r1.x"}, {"vmad.u32.u32.u32 %r4, %r1, %r2.b8, %r3;", "%r2.b8"}}) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(k[0]).launch(), k[0]);
            int col = k[0].indexOf(k[1]) + k[1].indexOf('.') + 1;
            assertTrue(e.getMessage().matches("(?s).*k\\.ptx:\\d+:" + col + ": .*"), e.getMessage());
            assertTrue(e.getMessage().contains("unknown video selector or mask '" + k[1] + "'"), e.getMessage());
        }
    }
}
