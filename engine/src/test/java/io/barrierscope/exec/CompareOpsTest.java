package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.wp;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** setp and set with every comparison and combiner, float compares with NaN, selp and slct (PTX ISA 9.7.6). */
class CompareOpsTest {
    private static final List<String> INT_CMPS = List.of("eq", "ne", "lt", "le", "gt", "ge");
    private static final List<String> UNSIGNED_CMPS = List.of("lo", "ls", "hi", "hs");
    private static final List<String> FLOAT_CMPS = List.of("eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu",
            "geu", "num", "nan");

    private static boolean signedModel(String cmp, long a, long b) {
        return switch (cmp) {
            case "eq" -> a == b;
            case "ne" -> a != b;
            case "lt" -> a < b;
            case "le" -> a <= b;
            case "gt" -> a > b;
            default -> a >= b;
        };
    }

    private static boolean unsignedModel(String cmp, long a, long b) {
        int c = Long.compareUnsigned(a, b);
        return switch (cmp) {
            case "eq" -> c == 0;
            case "ne" -> c != 0;
            case "lt", "lo" -> c < 0;
            case "le", "ls" -> c <= 0;
            case "gt", "hi" -> c > 0;
            default -> c >= 0;
        };
    }

    /** The ISA's float comparison table: ordered ones are false with a NaN, unordered (…u) true. */
    private static boolean floatModel(String cmp, double a, double b) {
        boolean nan = Double.isNaN(a) || Double.isNaN(b);
        if (cmp.equals("num")) return !nan;
        if (cmp.equals("nan")) return nan;
        boolean unordered = cmp.endsWith("u");
        if (nan) return unordered;
        String base = unordered ? cmp.substring(0, 2) : cmp;
        return switch (base) {
            case "eq" -> a == b;
            case "ne" -> a != b;
            case "lt" -> a < b;
            case "le" -> a <= b;
            case "gt" -> a > b;
            default -> a >= b;
        };
    }

    @Test
    void integerComparisonsSignedAndUnsigned32() {
        long[][] pairs = {{-1, 1}, {1, 1}, {2, 1}, {0x80000000L, 0x7fffffffL}};
        StringBuilder body = new StringBuilder();
        int slot = 0;
        for (long[] pr : pairs) {
            body.append("mov.b32 %r1, ").append(pr[0] & 0xFFFFFFFFL).append(";\nmov.b32 %r2, ").append(pr[1] & 0xFFFFFFFFL).append(";\n");
            for (String c : INT_CMPS) {
                body.append("setp.").append(c).append(".s32 %p1, %r1, %r2;\n").append(wp(slot++, "%p1"));
                body.append("setp.").append(c).append(".u32 %p1, %r1, %r2;\n").append(wp(slot++, "%p1"));
            }
            for (String c : UNSIGNED_CMPS) body.append("setp.").append(c).append(".u32 %p1, %r1, %r2;\n").append(wp(slot++, "%p1"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        slot = 0;
        for (long[] pr : pairs) {
            long sa = (int) pr[0];
            long sb = (int) pr[1];
            long ua = pr[0] & 0xFFFFFFFFL;
            long ub = pr[1] & 0xFFFFFFFFL;
            for (String c : INT_CMPS) {
                assertEquals(signedModel(c, sa, sb) ? 1L : 0L, w(r, slot++), c + ".s32 " + sa + " " + sb);
                assertEquals(unsignedModel(c, ua, ub) ? 1L : 0L, w(r, slot++), c + ".u32 " + ua + " " + ub);
            }
            for (String c : UNSIGNED_CMPS) assertEquals(unsignedModel(c, ua, ub) ? 1L : 0L, w(r, slot++), c + ".u32");
        }
    }

    @Test
    void integerComparisons64And16() {
        long[][] pairs = {{-5, 3}, {Long.MIN_VALUE, Long.MAX_VALUE}, {7, 7}};
        StringBuilder body = new StringBuilder();
        int slot = 0;
        for (long[] pr : pairs) {
            body.append("mov.b64 %rd1, ").append(pr[0]).append(";\nmov.b64 %rd2, ").append(pr[1]).append(";\n");
            for (String c : INT_CMPS) {
                body.append("setp.").append(c).append(".s64 %p1, %rd1, %rd2;\n").append(wp(slot++, "%p1"));
                body.append("setp.").append(c).append(".u64 %p1, %rd1, %rd2;\n").append(wp(slot++, "%p1"));
            }
        }
        body.append("mov.b16 %h1, 0xffff;\nmov.b16 %h2, 1;\nsetp.lt.s16 %p2, %h1, %h2;\n").append(wp(slot++, "%p2"))
                .append("setp.lt.u16 %p3, %h1, %h2;\n").append(wp(slot, "%p3"));
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        slot = 0;
        for (long[] pr : pairs) {
            for (String c : INT_CMPS) {
                assertEquals(signedModel(c, pr[0], pr[1]) ? 1L : 0L, w(r, slot++), c + ".s64");
                assertEquals(unsignedModel(c, pr[0], pr[1]) ? 1L : 0L, w(r, slot++), c + ".u64");
            }
        }
        assertEquals(1L, w(r, slot++), "-1 < 1 as s16");
        assertEquals(0L, w(r, slot), "0xffff < 1 as u16");
    }

    @Test
    void floatComparisonsOrderedAndUnorderedWithNaN() {
        float nan = Float.intBitsToFloat(0x7fc00000);
        float[][] pairs = {{1f, 2f}, {2f, 2f}, {nan, 1f}, {1f, nan}, {-0f, 0f}, {Float.POSITIVE_INFINITY, 1f}};
        StringBuilder body = new StringBuilder();
        int slot = 0;
        for (float[] pr : pairs) {
            body.append("mov.f32 %f1, ").append(imm(pr[0])).append(";\nmov.f32 %f2, ").append(imm(pr[1])).append(";\n");
            body.append("cvt.f64.f32 %fd1, %f1;\ncvt.f64.f32 %fd2, %f2;\n");
            for (String c : FLOAT_CMPS) {
                body.append("setp.").append(c).append(".f32 %p1, %f1, %f2;\n").append(wp(slot++, "%p1"));
                body.append("setp.").append(c).append(".f64 %p1, %fd1, %fd2;\n").append(wp(slot++, "%p1"));
            }
        }
        LaunchedRun r = ExecKernel.of(body.toString()).wSlots(2 * FLOAT_CMPS.size() * pairs.length).ok();
        slot = 0;
        for (float[] pr : pairs) {
            for (String c : FLOAT_CMPS) {
                long e = floatModel(c, pr[0], pr[1]) ? 1 : 0;
                assertEquals(e, w(r, slot++), c + ".f32 " + pr[0] + " " + pr[1]);
                assertEquals(e, w(r, slot++), c + ".f64 " + pr[0] + " " + pr[1]);
            }
        }
    }

    @Test
    void combinersAndTheComplementDestination() {
        // setp.CmpOp.BoolOp p|q, a, b, c: p = (a CmpOp b) BoolOp c; q = !(a CmpOp b) BoolOp c.
        StringBuilder body = new StringBuilder("setp.eq.u32 %p7, 1, 1;\nsetp.eq.u32 %p8, 1, 0;\n");
        String[] ops = {"and", "or", "xor"};
        int slot = 0;
        for (String op : ops) {
            for (String cpred : new String[] {"%p7", "%p8", "!%p7"}) {
                for (int a : new int[] {1, 5}) {
                    body.append("mov.u32 %r1, ").append(a).append(";\nsetp.lt.").append(op).append(".u32 %p1|%p2, %r1, 3, ")
                            .append(cpred).append(";\n").append(wp(slot++, "%p1")).append(wp(slot++, "%p2"));
                }
            }
        }
        body.append("setp.ne.s32 %p3|%p4, 4, 4;\n").append(wp(slot++, "%p3")).append(wp(slot, "%p4"));
        LaunchedRun r = ExecKernel.of(body.toString()).ok();
        slot = 0;
        for (String op : ops) {
            for (boolean c : new boolean[] {true, false, false}) {
                for (int a : new int[] {1, 5}) {
                    boolean t = a < 3;
                    boolean p = switch (op) {
                        case "and" -> t && c;
                        case "or" -> t || c;
                        default -> t ^ c;
                    };
                    boolean q = switch (op) {
                        case "and" -> !t && c;
                        case "or" -> !t || c;
                        default -> !t ^ c;
                    };
                    assertEquals(p ? 1L : 0L, w(r, slot++), op + " p a=" + a + " c=" + c);
                    assertEquals(q ? 1L : 0L, w(r, slot++), op + " q a=" + a + " c=" + c);
                }
            }
        }
        assertEquals(0L, w(r, slot++));
        assertEquals(1L, w(r, slot));
    }

    @Test
    void combinerWithoutTheFourthOperandIsRefused() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> ExecKernel.of("setp.lt.and.u32 %p1, %r1, 3;").launch());
        assertEquals(true, e.getMessage().contains("fourth"), e.getMessage());
    }

    @Test
    void selpAndSlct() {
        LaunchedRun r = ExecKernel.of("setp.eq.u32 %p1, 1, 1;\nsetp.eq.u32 %p2, 1, 0;\n"
                + "selp.b32 %r1, 11, 22, %p1;\n" + w(0, "%r1") + "selp.s32 %r2, 11, -22, %p2;\n" + w(1, "%r2")
                + "selp.b64 %rd1, 0x123456789, 5, %p1;\n" + x(0, "%rd1")
                + "selp.f32 %f1, 0f3F800000, 0f40000000, !%p1;\nmov.b32 %r3, %f1;\n" + w(2, "%r3")
                + "slct.s32.s32 %r4, 7, 8, -1;\n" + w(3, "%r4") + "slct.s32.s32 %r5, 7, 8, 0;\n" + w(4, "%r5")
                + "slct.u32.f32 %r6, 7, 8, 0f80000000;\n" + w(5, "%r6") + "mov.b32 %f2, 0x7fc00000;\n"
                + "slct.u32.f32 %r7, 7, 8, %f2;\n" + w(6, "%r7") + "slct.f32.f32 %f3, 0f3F800000, 0f40000000, 0fBF800000;\n"
                + "mov.b32 %r8, %f3;\n" + w(7, "%r8")).ok();
        assertEquals(11L, w(r, 0));
        assertEquals(-22L & 0xFFFFFFFFL, w(r, 1));
        assertEquals(0x123456789L, x(r, 0));
        assertEquals(ExecKernel.f32(2f), w(r, 2));
        assertEquals(8L, w(r, 3)); // c < 0 selects b
        assertEquals(7L, w(r, 4)); // c >= 0 selects a
        assertEquals(7L, w(r, 5)); // -0.0 >= 0
        assertEquals(8L, w(r, 6)); // NaN selects b
        assertEquals(ExecKernel.f32(2f), w(r, 7));
    }

    @Test
    void setWritesOnePointZeroForAFloatDestinationAndAllOnesForAnIntegerOne() {
        // set.CmpOp.dtype.stype (9.7.6 set; half precision set): true is 1.0 (f32 0x3F800000, f16
        // 0x3C00, bf16 0x3F80) or all ones (0xFFFFFFFF, 0xFFFF for 16-bit integers); false is 0.
        String body = "set.lt.f32.s32 %r1, -5, 3;\n" + w(0, "%r1")
                + "set.lt.f32.u32 %r2, -5, 3;\n" + w(1, "%r2")           // unsigned: 0xFFFFFFFB < 3 is false
                + "set.ge.u32.f32 %r3, 0f40000000, 0f40000000;\n" + w(2, "%r3")
                + "set.eq.s32.f64 %r4, 0d3FF0000000000000, 0d4000000000000000;\n" + w(3, "%r4")
                + "set.nan.u32.f32 %r5, 0f7FC00000, 0f00000000;\n" + w(4, "%r5")
                + "set.gt.f16.f32 %h1, 0f40000000, 0f3F800000;\ncvt.u32.u16 %r6, %h1;\n" + w(5, "%r6")
                + "mov.b16 %h2, 0x3C00;\nmov.b16 %h3, 0x3C00;\n"
                + "set.eq.bf16.f16 %h4, %h2, %h3;\ncvt.u32.u16 %r7, %h4;\n" + w(6, "%r7")
                + "set.ne.u16.f16 %h5, %h2, %h3;\ncvt.u32.u16 %r8, %h5;\n" + w(7, "%r8")
                + "set.equ.s16.bf16 %h6, %h2, %h3;\ncvt.u32.u16 %r9, %h6;\n" + w(8, "%r9")
                + "mov.b16 %h7, 0x7E00;\nset.lt.f16.f16 %h8, %h7, %h2;\ncvt.u32.u16 %r10, %h8;\n" + w(9, "%r10");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(ExecKernel.f32(1f), w(r, 0));
        assertEquals(0L, w(r, 1));
        assertEquals(0xFFFFFFFFL, w(r, 2));
        assertEquals(0L, w(r, 3));
        assertEquals(0xFFFFFFFFL, w(r, 4));
        assertEquals(0x3C00L, w(r, 5));
        assertEquals(0x3F80L, w(r, 6));
        assertEquals(0L, w(r, 7));
        assertEquals(0xFFFFL, w(r, 8));
        assertEquals(0L, w(r, 9), "an ordered comparison with a NaN is false");
    }

    @Test
    void setOnHalfPairsComparesAndWritesEachHalfOnItsOwn() {
        // Low halves 1.0 vs 1.0, high halves 2.0 vs 1.0 (f16: 0x4000, 0x3C00; bf16: 0x4000, 0x3F80).
        String body = "mov.b32 %r1, 0x40003C00;\nmov.b32 %r2, 0x3C003C00;\n"
                + "set.eq.f16x2.f16x2 %r3, %r1, %r2;\n" + w(0, "%r3")
                + "set.gt.u32.f16x2 %r4, %r1, %r2;\n" + w(1, "%r4")
                + "mov.b32 %r5, 0x40003F80;\nmov.b32 %r6, 0x3F803F80;\n"
                + "set.eq.bf16x2.bf16x2 %r7, %r5, %r6;\n" + w(2, "%r7")
                + "set.ge.s32.bf16x2 %r8, %r5, %r6;\n" + w(3, "%r8");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(0x00003C00L, w(r, 0));
        assertEquals(0xFFFF0000L, w(r, 1));
        assertEquals(0x00003F80L, w(r, 2));
        assertEquals(0xFFFFFFFFL, w(r, 3));
    }

    @Test
    void setCombinesTheComparisonWithAPredicateBeforeWritingIt() {
        String body = "setp.eq.u32 %p1, 1, 1;\n"
                + "set.lt.and.u32.s32 %r1, 1, 2, %p1;\n" + w(0, "%r1")
                + "set.lt.and.u32.s32 %r2, 1, 2, !%p1;\n" + w(1, "%r2")
                + "set.gt.or.f32.s32 %r3, 1, 2, %p1;\n" + w(2, "%r3")
                + "set.lt.xor.u32.s32 %r4, 1, 2, %p1;\n" + w(3, "%r4")
                + "mov.b32 %r5, 0x3C004000;\n"
                + "set.lt.and.f16x2.f16x2 %r6, %r5, 0x40004000, %p1;\n" + w(4, "%r6");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(0xFFFFFFFFL, w(r, 0));
        assertEquals(0L, w(r, 1));
        assertEquals(ExecKernel.f32(1f), w(r, 2));
        assertEquals(0L, w(r, 3));
        assertEquals(0x3C000000L, w(r, 4));
    }

    @Test
    void setpAndSetWithFtzCompareF32SubnormalsAsZerosOfTheirSign() {
        // 0f00000001 is the smallest f32 subnormal: with .ftz it equals 0 and is not above it.
        String body = "setp.eq.ftz.f32 %p1, 0f00000001, 0f00000000;\n" + wp(0, "%p1")
                + "setp.eq.f32 %p2, 0f00000001, 0f00000000;\n" + wp(1, "%p2")
                + "setp.gt.ftz.f32 %p3, 0f00000001, 0f80000000;\n" + wp(2, "%p3")
                + "set.lt.ftz.u32.f32 %r1, 0f80000005, 0f00000000;\n" + w(3, "%r1")
                + "set.lt.u32.f32 %r2, 0f80000005, 0f00000000;\n" + w(4, "%r2");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(1L, w(r, 0));
        assertEquals(0L, w(r, 1));
        assertEquals(0L, w(r, 2), "-0 and +0 are equal");
        assertEquals(0L, w(r, 3));
        assertEquals(0xFFFFFFFFL, w(r, 4));
    }

    @Test
    void setFormsTheIsaDoesNotListAreRefusedByName() {
        for (String bad : List.of("set.eq.u16.f32 %h1, 0f00000000, 0f00000000;", "set.eq.f16x2.bf16x2 %r1, %r2, %r3;",
                "set.eq.f64.f64 %rd1, 0d0000000000000000, 0d0000000000000000;", "set.eq.u32 %r1, %r2, %r3;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertEquals(true, e.getMessage().contains("set."), e.getMessage());
        }
    }

    @Test
    void comparisonsTypesAndFtzThatPtxasRejectsAreRefusedByName() {
        // 9.3.2: lo/ls/hi/hs are unsigned integer comparisons (setp.hs.f32 was silently false),
        // signed types take lt/le/gt/ge, bit-size types only eq/ne. .ftz flushes f32/f16 inputs
        // only: the .bf16, .f64 and integer forms have none. A .f32 destination takes no half
        // source, a .f16 destination no .bf16 one. Each was checked against ptxas 13.0, which
        // rejects it.
        for (String bad : List.of("setp.hs.f32 %p1, 0f40000000, 0f3F800000;", "set.lo.u32.f32 %r1, 0f3F800000, 0f40000000;",
                "set.hi.u32.f16x2 %r1, %r2, %r3;", "setp.lo.s32 %p1, %r2, %r3;", "setp.lt.b32 %p1, %r2, %r3;",
                "set.lt.u32.b32 %r1, %r2, %r3;", "set.eq.ftz.u32.bf16 %r1, %h1, %h2;", "set.eq.ftz.bf16.f32 %h1, 0f00000001, 0f00000000;",
                "set.eq.ftz.bf16x2.bf16x2 %r1, %r2, %r3;", "set.eq.ftz.u32.s32 %r1, %r2, %r3;", "set.eq.ftz.f16.s32 %h1, %r2, %r3;",
                "setp.eq.ftz.bf16 %p1, %h1, %h2;", "setp.eq.ftz.f64 %p1, %fd1, %fd2;", "set.eq.f32.f16 %r1, %h1, %h2;",
                "set.eq.f16.bf16 %h3, %h1, %h2;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains(bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
        // Accepted by ptxas and here: unsigned comparisons of integers (into a half destination too),
        // .ftz on .f16 sources, a .bf16 destination of a .f16 source.
        LaunchedRun r = ExecKernel.of("set.lo.u32.u32 %r1, 1, 2;\n" + w(0, "%r1")
                + "mov.b16 %h1, 0x0001;\nmov.b16 %h2, 0x8000;\nset.eq.ftz.u32.f16 %r2, %h1, %h2;\n" + w(1, "%r2")
                + "set.lo.f16.u32 %h3, 1, 2;\ncvt.u32.u16 %r3, %h3;\n" + w(2, "%r3")
                + "set.ne.bf16.f16 %h4, %h1, %h2;\ncvt.u32.u16 %r4, %h4;\n" + w(3, "%r4")).ok();
        assertEquals(0xFFFFFFFFL, w(r, 0));
        assertEquals(0xFFFFFFFFL, w(r, 1), "f16 subnormal flushed to +0 equals -0");
        assertEquals(0x3C00L, w(r, 2));
        assertEquals(0x3F80L, w(r, 3), "without .ftz the f16 subnormal is not -0");
    }

    @Test
    void setWithNaNOperandsIsFalseForOrderedAndTrueForUnorderedComparisons() {
        String body = "set.equ.ftz.f32.f32 %r1, 0f7FC00000, 0f3F800000;\n" + w(0, "%r1")
                + "set.ne.u32.f32 %r2, 0f7FC00000, 0f7FC00000;\n" + w(1, "%r2")
                + "set.neu.s32.f32 %r3, 0f7FC00000, 0f7FC00000;\n" + w(2, "%r3")
                + "set.num.u32.f64 %r4, 0d7FF8000000000000, 0d0000000000000000;\n" + w(3, "%r4")
                + "set.nan.f32.f64 %r5, 0d7FF8000000000000, 0d0000000000000000;\n" + w(4, "%r5")
                + "set.ge.ftz.f32.f32 %r6, 0f807FFFFF, 0f00000000;\n" + w(5, "%r6"); // -subnormal flushed: -0 >= +0
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(ExecKernel.f32(1f), w(r, 0));
        assertEquals(0L, w(r, 1), "ne is ordered: false with a NaN");
        assertEquals(0xFFFFFFFFL, w(r, 2));
        assertEquals(0L, w(r, 3));
        assertEquals(ExecKernel.f32(1f), w(r, 4));
        assertEquals(ExecKernel.f32(1f), w(r, 5));
    }
}
