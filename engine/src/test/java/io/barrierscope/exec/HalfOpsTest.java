package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * add, sub, mul, fma, neg, abs, min, max and ex2.approx on .f16, .f16x2, .bf16 and .bf16x2 (PTX ISA
 * 9.7.4) run as PTX against a reference computed here: exact BigDecimal arithmetic rounded by
 * {@link NarrowFloatReference}, IEEE 754 signed-zero and NaN rules written out case by case.
 */
class HalfOpsTest {
    private static final NarrowFloatReference F16 = NarrowFloatReference.F16;
    private static final NarrowFloatReference BF16 = NarrowFloatReference.BF16;

    /** Random 16-bit patterns weighted to normal values, with subnormals, zeros, infinities and NaNs. */
    static long[] patterns(NarrowFloatReference ref, int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] specials = {0x0000, 0x8000, ref.infCode, ref.infCode | 0x8000, ref.nanCode, 0x0001, 0x8003, 0x3C00 & 0xFFFF};
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(10);
            int v;
            if (k == 0) v = specials[rnd.nextInt(specials.length)];
            else if (k < 3) v = rnd.nextInt(1 << 16);
            else v = (rnd.nextBoolean() ? 0x8000 : 0) | (ref == F16 ? 0x3000 + rnd.nextInt(0x1800) : 0x3C00 + rnd.nextInt(0x600));
            out[i] = v;
        }
        return out;
    }

    /** Two patterns per 32-bit input, for the x2 forms. */
    static long[] pairs(NarrowFloatReference ref, int n, long seed) {
        long[] lo = patterns(ref, n, seed);
        long[] hi = patterns(ref, n, seed + 100);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = (hi[i] << 16) | lo[i];
        return out;
    }

    /** The reference for one element: flush, compute exactly, round to nearest even, post-process. */
    interface Exact {
        /** Returns the result pattern for exact inputs; may use doubles only for NaN/infinity cases. */
        int apply(NarrowFloatReference ref, int[] in);
    }

    private static boolean ftzIn;

    private static int flushIn(NarrowFloatReference ref, int b) {
        if (!ftzIn) return b;
        int mag = b & 0x7FFF;
        boolean sub = mag != 0 && mag < (ref == F16 ? 0x400 : 0x80);
        return sub ? b & 0x8000 : b;
    }

    /** Rounds an exact non-special value with its sign for zero. */
    private static int rn(NarrowFloatReference ref, BigDecimal v, boolean negZero) {
        if (v.signum() == 0) return negZero ? 0x8000 : 0;
        return ref.round(v, v.signum() < 0, "rn", false);
    }

    /** a + b + (product): IEEE result of an exact sum whose terms are known; specials through doubles. */
    private static int sum(NarrowFloatReference ref, double[] terms, BigDecimal[] exact, boolean[] negs) {
        double d = 0;
        boolean special = false;
        for (double t : terms) if (!Double.isFinite(t)) special = true;
        if (special) {
            double s = terms[0];
            for (int i = 1; i < terms.length; i++) s += terms[i];
            return Double.isNaN(s) ? ref.nanCode : s > 0 ? ref.infCode : ref.infCode | 0x8000;
        }
        BigDecimal s = BigDecimal.ZERO;
        boolean allNegZero = true;
        for (int i = 0; i < exact.length; i++) {
            s = s.add(exact[i]);
            if (!(exact[i].signum() == 0 && negs[i])) allNegZero = false;
        }
        return rn(ref, s, allNegZero);
    }

    private static double dv(NarrowFloatReference ref, int b) { return ref.toDouble(b); }

    private static BigDecimal bv(NarrowFloatReference ref, int b) { return ref.value(b); }

    private static boolean neg(int b) { return (b & 0x8000) != 0; }

    static int add(NarrowFloatReference ref, int a, int b) {
        return sum(ref, new double[] {dv(ref, a), dv(ref, b)}, ref.isNaN(a) || ref.isNaN(b) || ref.isInf(a) || ref.isInf(b) ? null
                : new BigDecimal[] {bv(ref, a), bv(ref, b)}, new boolean[] {neg(a), neg(b)});
    }

    static int mul(NarrowFloatReference ref, int a, int b) {
        if (ref.isNaN(a) || ref.isNaN(b) || ref.isInf(a) || ref.isInf(b)) {
            double p = dv(ref, a) * dv(ref, b);
            return Double.isNaN(p) ? ref.nanCode : p > 0 ? ref.infCode : ref.infCode | 0x8000;
        }
        return rn(ref, bv(ref, a).multiply(bv(ref, b)), neg(a) != neg(b));
    }

    static int fma(NarrowFloatReference ref, int a, int b, int c) {
        boolean special = ref.isNaN(a) || ref.isNaN(b) || ref.isNaN(c) || ref.isInf(a) || ref.isInf(b) || ref.isInf(c);
        if (special) {
            double p = dv(ref, a) * dv(ref, b);
            double s = p + dv(ref, c);
            return Double.isNaN(s) ? ref.nanCode : s > 0 ? ref.infCode : ref.infCode | 0x8000;
        }
        return sum(ref, new double[] {0, 0}, new BigDecimal[] {bv(ref, a).multiply(bv(ref, b)), bv(ref, c)},
                new boolean[] {neg(a) != neg(b), neg(c)});
    }

    /** The output modifiers: .sat clamps to [0, 1] (NaN to +0), .ftz flushes a subnormal result. */
    private static int post(NarrowFloatReference ref, int r, boolean sat, boolean ftz, boolean relu) {
        if (sat) {
            if (ref.isNaN(r) || neg(r)) return 0;
            if (ref.isInf(r) || bv(ref, r).compareTo(BigDecimal.ONE) > 0) return ref.round(1.0, "rn", false);
        }
        if (ftz) r = flushIn(ref, r);
        if (relu && !ref.isNaN(r) && neg(r)) return 0;
        return r;
    }

    /** Runs {@code insn} (e.g. "add.rn.f16") over the inputs and checks each element against {@code ref}. */
    private static void check(String insn, NarrowFloatReference ref, int arity, Exact reference) {
        boolean pair = insn.endsWith("x2");
        long[][] in = new long[arity][];
        for (int i = 0; i < arity; i++) in[i] = pair ? pairs(ref, 256, 31 * i + insn.length()) : patterns(ref, 256, 31 * i + insn.hashCode());
        StringBuilder body = new StringBuilder();
        String[] ops = new String[arity];
        for (int i = 0; i < arity; i++) {
            if (pair) ops[i] = "%r" + (i + 1);
            else {
                body.append("cvt.u16.u32 %h").append(i + 1).append(", %r").append(i + 1).append(";\n");
                ops[i] = "%h" + (i + 1);
            }
        }
        body.append(insn).append(pair ? " %r10, " : " %h9, ").append(String.join(", ", ops)).append(";\n");
        if (!pair) body.append("cvt.u32.u16 %r10, %h9;\n");
        long[] out = LaneKernel.run32(body.toString(), in);
        ftzIn = insn.contains(".ftz");
        boolean sat = insn.contains(".sat");
        boolean relu = insn.contains(".relu");
        for (int i = 0; i < out.length; i++) {
            long want = 0;
            for (int h = 0; h < (pair ? 2 : 1); h++) {
                int[] el = new int[arity];
                for (int k = 0; k < arity; k++) el[k] = flushIn(ref, (int) (in[k][i] >>> (16 * h)) & 0xFFFF);
                int r = post(ref, reference.apply(ref, el), sat, ftzIn, relu);
                want |= (long) (r & 0xFFFF) << (16 * h);
            }
            StringBuilder args = new StringBuilder();
            for (long[] x : in) args.append(' ').append(Long.toHexString(x[i]));
            assertEquals(Long.toHexString(want), Long.toHexString(out[i]), insn + args);
        }
    }

    private static final String[] HALF = {"f16", "f16x2"};
    private static final String[] BFLOAT = {"bf16", "bf16x2"};

    @Test
    void addAndSubRoundTheExactResultOnce() {
        for (String t : HALF) {
            for (String m : new String[] {"", ".rn", ".ftz", ".sat", ".rn.ftz.sat"}) {
                check("add" + m + "." + t, F16, 2, (r, in) -> add(r, in[0], in[1]));
                check("sub" + m + "." + t, F16, 2, (r, in) -> add(r, in[0], in[1] ^ 0x8000));
            }
        }
        for (String t : BFLOAT) {
            for (String m : new String[] {"", ".rn"}) {
                check("add" + m + "." + t, BF16, 2, (r, in) -> add(r, in[0], in[1]));
                check("sub" + m + "." + t, BF16, 2, (r, in) -> add(r, in[0], in[1] ^ 0x8000));
            }
        }
    }

    @Test
    void mulRoundsTheExactProduct() {
        for (String t : HALF) for (String m : new String[] {".rn", ".ftz", ".sat"}) check("mul" + m + "." + t, F16, 2, (r, in) -> mul(r, in[0], in[1]));
        for (String t : BFLOAT) check("mul.rn." + t, BF16, 2, (r, in) -> mul(r, in[0], in[1]));
    }

    @Test
    void fmaRoundsOnceAfterTheExactSum() {
        for (String t : HALF) {
            for (String m : new String[] {".rn", ".rn.ftz", ".rn.sat", ".rn.relu", ".rn.ftz.relu"}) {
                check("fma" + m + "." + t, F16, 3, (r, in) -> fma(r, in[0], in[1], in[2]));
            }
        }
        for (String t : BFLOAT) for (String m : new String[] {".rn", ".rn.relu"}) check("fma" + m + "." + t, BF16, 3, (r, in) -> fma(r, in[0], in[1], in[2]));
    }

    @Test
    void negAndAbsTouchOnlyTheSignBit() {
        for (String t : HALF) {
            check("neg." + t, F16, 1, (r, in) -> in[0] ^ 0x8000);
            check("abs." + t, F16, 1, (r, in) -> in[0] & 0x7FFF);
            check("neg.ftz." + t, F16, 1, (r, in) -> in[0] ^ 0x8000);
            check("abs.ftz." + t, F16, 1, (r, in) -> in[0] & 0x7FFF);
        }
        for (String t : BFLOAT) {
            check("neg." + t, BF16, 1, (r, in) -> in[0] ^ 0x8000);
            check("abs." + t, BF16, 1, (r, in) -> in[0] & 0x7FFF);
        }
    }

    /** min/max by exact comparison, -0 below +0, the NaN rules, .xorsign.abs on magnitudes. */
    static int minMax(NarrowFloatReference ref, int a, int b, boolean isMin, boolean nanMode, boolean xorsign) {
        boolean an = ref.isNaN(a);
        boolean bn = ref.isNaN(b);
        if ((an && bn) || (nanMode && (an || bn))) return ref.nanCode;
        if (an) return b;
        if (bn) return a;
        int x = xorsign ? a & 0x7FFF : a;
        int y = xorsign ? b & 0x7FFF : b;
        double dx = ref.toDouble(x);
        double dy = ref.toDouble(y);
        int pick;
        if (dx == dy) {
            // equal values: only the zeros differ (by sign); min takes the negative one
            boolean xNeg = neg(x);
            pick = (isMin == xNeg) ? x : y;
        } else {
            pick = (dx < dy) == isMin ? x : y;
        }
        if (xorsign) pick = (pick & 0x7FFF) | ((a ^ b) & 0x8000);
        return pick;
    }

    @Test
    void minAndMaxWithNaNAndXorsignAbs() {
        for (boolean isMin : new boolean[] {true, false}) {
            String op = isMin ? "min" : "max";
            for (String m : new String[] {"", ".NaN", ".xorsign.abs", ".NaN.xorsign.abs", ".ftz"}) {
                boolean nan = m.contains("NaN");
                boolean xs = m.contains("xorsign");
                for (String t : HALF) check(op + m + "." + t, F16, 2, (r, in) -> minMax(r, in[0], in[1], isMin, nan, xs));
                if (!m.contains("ftz")) for (String t : BFLOAT) check(op + m + "." + t, BF16, 2, (r, in) -> minMax(r, in[0], in[1], isMin, nan, xs));
            }
        }
    }

    @Test
    void ex2ApproxOnHalfTypesIsTheCorrectlyRoundedPowerOfTwo() {
        // Correctly rounded (at most half an ulp) lies within the ISA's bound for ex2.approx on half types.
        Exact e = (r, in) -> r.isNaN(in[0]) ? r.nanCode : r.round(Math.pow(2, r.toDouble(in[0])), "rn", false);
        for (String t : HALF) check("ex2.approx." + t, F16, 1, e);
        for (String t : BFLOAT) check("ex2.approx.ftz." + t, BF16, 1, e);
    }

    @Test
    void tanhApproxOnHalfTypesIsTheCorrectlyRoundedTanh() {
        // Correctly rounded tanh (at most half an ulp) lies within the ISA's bound for tanh.approx on half types.
        Exact e = (r, in) -> r.isNaN(in[0]) ? r.nanCode : r.round(StrictMath.tanh(r.toDouble(in[0])), "rn", false);
        for (String t : HALF) check("tanh.approx." + t, F16, 1, e);
        for (String t : BFLOAT) check("tanh.approx." + t, BF16, 1, e);
    }

    @Test
    void roundingsTheIsaDoesNotGiveHalfArithmeticAreRefusedByName() {
        for (String bad : new String[] {"add.rz.f16 %h9, %h1, %h2;", "fma.f16 %h9, %h1, %h2, %h3;", "add.sat.bf16 %h9, %h1, %h2;",
            "sqrt.rn.f16 %h9, %h1;", "fma.rn.oob.f16 %h9, %h1, %h2, %h3;"}) {
            Exception ex = assertThrows(Exception.class, () -> LaneKernel.run32(bad + "\nmov.b32 %r10, 0;", new long[] {0}), bad);
            assertTrue(ex.getMessage().contains("unsupported instruction " + bad.substring(0, bad.indexOf(' '))), ex.getMessage());
        }
    }

    /** The ISA's comparison table on exact values: ordered comparisons are false with a NaN, unordered ones true. */
    static boolean compare(NarrowFloatReference ref, String op, int a, int b) {
        boolean nan = ref.isNaN(a) || ref.isNaN(b);
        if (op.equals("num")) return !nan;
        if (op.equals("nan")) return nan;
        boolean unordered = op.endsWith("u");
        if (nan) return unordered;
        double x = ref.toDouble(a);
        double y = ref.toDouble(b);
        int c = Double.compare(x == 0 ? 0.0 : x, y == 0 ? 0.0 : y); // -0 equals +0
        return switch (unordered ? op.substring(0, 2) : op) {
            case "eq" -> c == 0;
            case "ne" -> c != 0;
            case "lt" -> c < 0;
            case "le" -> c <= 0;
            case "gt" -> c > 0;
            default -> c >= 0;
        };
    }

    @Test
    void setpComparesHalvesAndPairsWithTheHalvesInPAndQ() {
        String[] ops = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16" : "bf16";
            long[] a = pairs(ref, 256, 61);
            long[] b = pairs(ref, 256, 62);
            for (int i = 0; i < 256; i += 4) b[i] = a[i]; // some equal pairs
            for (String op : ops) {
                long[] one = LaneKernel.run32("cvt.u16.u32 %h1, %r1;\ncvt.u16.u32 %h2, %r2;\nsetp." + op + "." + t
                        + " %p1, %h1, %h2;\nselp.u32 %r10, 1, 0, %p1;", a, b);
                long[] two = LaneKernel.run32("setp." + op + "." + t + "x2 %p1|%p2, %r1, %r2;\nselp.u32 %r11, 1, 0, %p1;\n"
                        + "selp.u32 %r12, 2, 0, %p2;\nor.b32 %r10, %r11, %r12;", a, b);
                for (int i = 0; i < 256; i++) {
                    int lo = (int) a[i] & 0xFFFF, hi = (int) (a[i] >>> 16);
                    int blo = (int) b[i] & 0xFFFF, bhi = (int) (b[i] >>> 16);
                    assertEquals(compare(ref, op, lo, blo) ? 1L : 0L, one[i], "setp." + op + "." + t + " " + Long.toHexString(a[i]) + " " + Long.toHexString(b[i]));
                    long want = (compare(ref, op, lo, blo) ? 1 : 0) | (compare(ref, op, hi, bhi) ? 2 : 0);
                    assertEquals(want, two[i], "setp." + op + "." + t + "x2 " + Long.toHexString(a[i]) + " " + Long.toHexString(b[i]));
                }
            }
        }
    }
}
