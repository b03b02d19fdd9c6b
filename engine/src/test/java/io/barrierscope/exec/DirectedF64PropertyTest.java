package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.exec.FloatFormat.Round;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * f64 arithmetic in .rn, .rz, .rm, .rp ({@link DirectedF64#apply}, and Java's own arithmetic for
 * .rn) against {@link ExactF64Reference}, which rounds the exact result by BigInteger division and
 * integer square root. Operands: arbitrary bit patterns, subnormals, small integers scaled by
 * powers of two (exact results and ties), neighbours of 1 and of the largest and smallest
 * doubles, signed zeros, infinities and NaN.
 */
class DirectedF64PropertyTest {
    private static final String[] MODES = {"rn", "rz", "rm", "rp"};

    @Provide
    Arbitrary<Double> f64() {
        Arbitrary<Double> bits = Arbitraries.longs().map(Double::longBitsToDouble);
        Arbitrary<Double> subnormal = Combinators.combine(Arbitraries.longs().between(1, (1L << 52) - 1), Arbitraries.of(1.0, -1.0))
                .as((m, s) -> s * Double.longBitsToDouble(m));
        Arbitrary<Double> scaledInt = Combinators.combine(Arbitraries.integers().between(-4096, 4096), Arbitraries.integers().between(-1100, 1000))
                .as((k, e) -> Math.scalb((double) k, e));
        Arbitrary<Double> nearOne = Combinators.combine(Arbitraries.integers().between(-8, 8), Arbitraries.integers().between(-30, 30))
                .as((k, e) -> Math.scalb(1.0 + k * 0x1p-52, e));
        Arbitrary<Double> edges = Arbitraries.of(0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, -Double.MIN_NORMAL,
                Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE, -Double.MAX_VALUE, Math.nextDown(Double.MAX_VALUE), 1e308, 1e-308,
                0x1p1000, 0x1p-1000, 1.0, -1.0, 3.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN);
        Arbitrary<Double> moderate = Arbitraries.doubles().between(-1e6, 1e6);
        return Arbitraries.frequencyOf(Tuple.of(4, bits), Tuple.of(2, subnormal), Tuple.of(3, scaledInt), Tuple.of(2, nearOne),
                Tuple.of(2, edges), Tuple.of(1, moderate));
    }

    private static void check(String op, double... in) {
        for (String mode : MODES) {
            double want = ExactF64Reference.apply(op, mode, in);
            double got = mode.equals("rn") ? javaNearest(op, in) : DirectedF64.apply(op, Round.of(mode), in.clone());
            String what = op + "." + mode + ".f64 " + Arrays.toString(in) + " want " + want + " got " + got;
            if (Double.isNaN(want)) assertEquals(true, Double.isNaN(got), what);
            else assertEquals(Long.toHexString(Double.doubleToRawLongBits(want)), Long.toHexString(Double.doubleToRawLongBits(got)), what);
        }
    }

    /** What the engine's .rn path computes (FloatOps: Java's IEEE arithmetic). */
    private static double javaNearest(String op, double[] in) {
        return switch (op) {
            case "add" -> in[0] + in[1];
            case "sub" -> in[0] - in[1];
            case "mul" -> in[0] * in[1];
            case "fma" -> Math.fma(in[0], in[1], in[2]);
            case "div" -> in[0] / in[1];
            case "rcp" -> 1.0 / in[0];
            default -> Math.sqrt(in[0]);
        };
    }

    @Property(tries = 1500)
    void addRoundsTheExactSumOnceInEveryModeForAnyOperands(@ForAll("f64") double a, @ForAll("f64") double b) {
        check("add", a, b);
        check("add", a, Math.scalb(Math.ulp(a), -1) * (b < 0 ? -1 : 1)); // half an ulp of a: a tie
        check("add", a, -a);
    }

    @Property(tries = 1500)
    void subRoundsTheExactDifferenceOnceInEveryModeForAnyOperands(@ForAll("f64") double a, @ForAll("f64") double b) {
        check("sub", a, b);
        check("sub", a, a);
    }

    @Property(tries = 1500)
    void mulRoundsTheExactProductOnceInEveryModeForAnyOperands(@ForAll("f64") double a, @ForAll("f64") double b) {
        check("mul", a, b);
    }

    @Property(tries = 1500)
    void fmaRoundsTheExactProductPlusAddendOnceInEveryModeForAnyOperands(@ForAll("f64") double a, @ForAll("f64") double b,
            @ForAll("f64") double c) {
        check("fma", a, b, c);
        check("fma", a, b, -(a * b)); // the product's rounding error alone, or an exact zero
        check("fma", a, b, 0.0);
        check("fma", a, b, -0.0);
        check("fma", 0.0, b, c);
        check("fma", -0.0, b, -0.0);
    }

    @Property(tries = 1500)
    void divRoundsTheExactQuotientOnceInEveryModeForAnyOperands(@ForAll("f64") double a, @ForAll("f64") double b) {
        check("div", a, b);
        check("div", a * b, b); // often exact
    }

    @Property(tries = 1500)
    void rcpRoundsTheExactReciprocalOnceInEveryModeForAnyOperand(@ForAll("f64") double a) {
        check("rcp", a);
    }

    @Property(tries = 1500)
    void sqrtRoundsTheExactRootOnceInEveryModeForAnyOperand(@ForAll("f64") double a) {
        check("sqrt", a);
        check("sqrt", a * a); // a perfect square when exact
        check("sqrt", Math.nextUp(Math.abs(a * a)));
    }

    @Provide
    Arbitrary<java.util.List<Long>> integers() {
        Arbitrary<Long> any = Arbitraries.longs();
        Arbitrary<Long> shifted = Combinators.combine(Arbitraries.longs(), Arbitraries.integers().between(0, 63)).as((x, k) -> x >> k);
        Arbitrary<Long> nearTie = Combinators.combine(Arbitraries.integers().between(53, 63), Arbitraries.longs().between(-3, 3),
                Arbitraries.longs().between(-1L << 20, 1L << 20)).as((k, d, m) -> (m << (k - 52)) + (1L << k) + d
                        + (1L << (k - 53)));
        Arbitrary<Long> edges = Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L, 1L, 1L << 53, (1L << 53) + 1, -(1L << 53) - 1,
                0xFFFFFFFFFFFFFC00L, 0xFFFFFFFFFFFFFBFFL, 0x8000000000000400L, 0x8000000000000401L);
        return Arbitraries.frequencyOf(Tuple.of(3, any), Tuple.of(3, shifted), Tuple.of(3, nearTie), Tuple.of(1, edges)).list().ofSize(64);
    }

    @Property(tries = 8)
    void sixtyFourBitIntegersConvertToF64RoundedOnceInEveryMode(@ForAll("integers") java.util.List<Long> xs) {
        long[] in = xs.stream().mapToLong(Long::longValue).toArray();
        for (String it : new String[] {"s64", "u64"}) {
            for (String mode : MODES) {
                long[] out = LaneKernel.run("cvt." + mode + ".f64." + it + " %fd1, %rd1;\nmov.b64 %rd10, %fd1;", true, true, in);
                for (int i = 0; i < in.length; i++) {
                    java.math.BigInteger v = it.equals("s64") ? java.math.BigInteger.valueOf(in[i])
                            : new java.math.BigInteger(Long.toUnsignedString(in[i]));
                    double want = ExactF64Reference.fromInteger(v, mode);
                    assertEquals(Long.toHexString(Double.doubleToRawLongBits(want)), Long.toHexString(out[i]), "cvt." + mode + ".f64." + it
                            + " of " + v);
                }
            }
        }
    }

    /**
     * Every NaN result of f64 arithmetic, in every rounding mode, is the canonical NaN: never the
     * JVM's, whose payload depends on which operand its JIT tier keeps (and an invalid operation's
     * on the CPU). Rows: NaN operands with different payloads and signs, and invalid operations.
     */
    @Property(tries = 4)
    void aNaNResultIsTheCanonicalNaNInEveryRoundingModeWhateverOperandsAreNaN(@ForAll("f64") double x) {
        long nan = 0x7FF8000000000001L;
        long other = 0xFFF8000000000002L;
        long snan = 0xFFF0000000000005L;
        long[][] rows = {{d(Double.POSITIVE_INFINITY), d(Double.NEGATIVE_INFINITY), d(1)}, {d(0.0), d(Double.POSITIVE_INFINITY), d(x)},
            {nan, d(x), d(x)}, {d(x), nan, d(1)}, {snan, d(x), nan}, {nan, other, snan}, {other, nan, nan}, {d(-1), d(0), d(0)},
            {d(0.0), d(0.0), d(0)}, {d(Double.POSITIVE_INFINITY), d(Double.POSITIVE_INFINITY), d(Double.NEGATIVE_INFINITY)}};
        long[][] in = new long[3][rows.length];
        for (int i = 0; i < rows.length; i++) for (int k = 0; k < 3; k++) in[k][i] = rows[i][k];
        String[][] forms = {{"add", "%fd1, %fd2"}, {"sub", "%fd1, %fd2"}, {"mul", "%fd1, %fd2"}, {"fma", "%fd1, %fd2, %fd3"},
            {"mad", "%fd1, %fd2, %fd3"}, {"div", "%fd1, %fd2"}, {"rcp", "%fd1"}, {"sqrt", "%fd1"}};
        for (String[] f : forms) {
            for (String mode : MODES) {
                long[] got = run(f[0] + "." + mode + ".f64 %fd10, " + f[1] + ";", in);
                for (int i = 0; i < rows.length; i++) {
                    double[] row = {Double.longBitsToDouble(rows[i][0]), Double.longBitsToDouble(rows[i][1]), Double.longBitsToDouble(rows[i][2])};
                    int arity = f[1].split(",").length;
                    if (Double.isNaN(ExactF64Reference.apply(f[0], mode, Arrays.copyOf(row, arity)))) {
                        assertEquals(Long.toHexString(DirectedF64.CANONICAL_NAN), Long.toHexString(got[i]), f[0] + "." + mode + " row " + i);
                    }
                }
            }
        }
    }

    private static long d(double v) { return Double.doubleToRawLongBits(v); }

    private static long[] run(String insn, long[][] in) {
        return LaneKernel.run("mov.b64 %fd1, %rd1;\nmov.b64 %fd2, %rd2;\nmov.b64 %fd3, %rd3;\n" + insn + "\nmov.b64 %rd10, %fd10;", true,
                true, in);
    }
}
