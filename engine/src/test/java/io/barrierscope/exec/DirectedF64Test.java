package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * f64 add, sub, mul, fma, div, rcp and sqrt with .rn, .rz, .rm, .rp run as PTX against a reference
 * that brackets the exact result between two neighbouring doubles by BigDecimal comparison (for
 * div, rcp and sqrt: by multiplying back), then picks the one the mode names. Inputs: edge cases
 * (ties, subnormal results, overflow, signed zeros) and random values.
 */
class DirectedF64Test {
    private static final String[] MODES = {"rn", "rz", "rm", "rp"};
    private static final double MAX = Double.MAX_VALUE;
    private static final double TINY = Double.MIN_VALUE;

    /** Edge cases per operation (rows of operands), then random rows. */
    private static List<double[]> rows(String op, int arity) {
        List<double[]> out = new ArrayList<>();
        switch (op) {
            case "add", "sub" -> {
                double s = op.equals("sub") ? -1 : 1;
                out.addAll(List.of(
                        new double[] {1, s * 0x1p-53}, // a tie: nearest even is 1
                        new double[] {1, s * 0x1p-52 * 1.5}, // a tie to the odd side: nearest even is 1 + 2^-51
                        new double[] {-1, -s * 0x1p-53}, new double[] {1, -s * 0x1p-60},
                        new double[] {MAX, s * 0x1p970}, // exactly halfway past the largest double
                        new double[] {MAX, s * MAX}, new double[] {-MAX, -s * MAX}, new double[] {MAX, s * 0x1p960},
                        new double[] {1.5, s * 1.5 * -1}, // exactly zero: -0 under .rm
                        new double[] {0.0, -s * 0.0}, new double[] {-0.0, s * 0.0}, new double[] {-0.0, -s * 0.0},
                        new double[] {TINY, s * TINY}, new double[] {Double.MIN_NORMAL, -s * TINY}, new double[] {1e300, s * 1e-300},
                        new double[] {Double.POSITIVE_INFINITY, s * 1}, new double[] {Double.NaN, 1}));
            }
            case "mul" -> out.addAll(List.of(
                    new double[] {TINY, 0.5}, // half the smallest subnormal: a tie to 0
                    new double[] {TINY, 1.5}, new double[] {TINY * 3, 0.5}, new double[] {-TINY, 0.25},
                    new double[] {MAX, 2}, new double[] {-MAX, 1 + 0x1p-52}, new double[] {0x1p512, 0x1p512},
                    new double[] {1 + 0x1p-52, 1 + 0x1p-52}, new double[] {1 / 3.0, 3}, new double[] {-0.0, 5},
                    new double[] {0x1p-600, 0x1p-600}, new double[] {Double.MIN_NORMAL, 1 - 0x1p-53}));
            case "fma" -> out.addAll(List.of(
                    new double[] {1 + 0x1p-52, 1 - 0x1p-53, -1}, new double[] {TINY, 0.5, 0.0}, new double[] {TINY, 0.5, -0.0},
                    new double[] {0x1p-600, 0x1p-600, TINY}, new double[] {0x1p-600, -0x1p-600, TINY},
                    new double[] {1.5, 2, -3}, new double[] {0.0, -1, 0.0}, new double[] {0.0, 1, -0.0}, new double[] {-0.0, 1, -0.0},
                    new double[] {MAX, 2, -MAX}, new double[] {MAX, 1.5, 0}, new double[] {0.1, 10, -1}, new double[] {1, 1, 0x1p-80}));
            case "div" -> out.addAll(List.of(
                    new double[] {1, 3}, new double[] {-2, 3}, new double[] {TINY, 2}, new double[] {TINY * 3, 2}, new double[] {-TINY, 2},
                    new double[] {MAX, 0.5}, new double[] {-MAX, 0x1p-10}, new double[] {1, 0.0}, new double[] {-1, 0.0},
                    new double[] {0.0, -7}, new double[] {0.0, 0.0}, new double[] {1, TINY}, new double[] {1e-300, 1e10}));
            case "rcp" -> out.addAll(List.of(new double[] {3}, new double[] {-3}, new double[] {TINY}, new double[] {-TINY},
                    new double[] {0x1p-1023}, new double[] {MAX}, new double[] {-MAX}, new double[] {0.0}, new double[] {-0.0},
                    new double[] {Double.POSITIVE_INFINITY}, new double[] {10}, new double[] {1 + 0x1p-52}));
            default -> out.addAll(List.of(new double[] {2}, new double[] {3}, new double[] {TINY}, new double[] {TINY * 2},
                    new double[] {MAX}, new double[] {0.0}, new double[] {-0.0}, new double[] {-1}, new double[] {1 + 0x1p-52},
                    new double[] {1 - 0x1p-53}, new double[] {Double.POSITIVE_INFINITY}, new double[] {0x1p-1060 * 5}));
        }
        SplittableRandom rnd = new SplittableRandom(op.hashCode());
        while (out.size() < 128) {
            double[] row = new double[arity];
            for (int i = 0; i < arity; i++) {
                int k = rnd.nextInt(6);
                if (k == 0) row[i] = Double.longBitsToDouble(rnd.nextLong());
                else if (k == 1) row[i] = Double.longBitsToDouble(rnd.nextLong(1L << 52)) * (rnd.nextBoolean() ? 1 : -1); // subnormal
                else row[i] = (rnd.nextDouble() * 2 - 1) * Math.pow(2, rnd.nextInt(-60, 60));
            }
            if (op.equals("sqrt")) row[0] = Math.abs(row[0]);
            out.add(row);
        }
        return out;
    }

    private static BigDecimal exact(double d) { return new BigDecimal(d); }

    /**
     * The double the mode gives for a finite nonzero exact value, given {@code cmp(t)}: the sign of
     * the exact magnitude minus {@code t}. Brackets it between neighbouring doubles lo <= |x| < hi.
     */
    private static double pick(Function<BigDecimal, Integer> cmp, boolean negative, String mode, double guess) {
        double lo = Math.abs(guess);
        if (!Double.isFinite(lo)) lo = MAX;
        while (lo > 0 && cmp.apply(exact(lo)) < 0) lo = Math.nextDown(lo);
        while (lo < MAX && cmp.apply(exact(Math.nextUp(lo))) >= 0) lo = Math.nextUp(lo);
        double mag;
        if (cmp.apply(exact(lo)) == 0) {
            mag = lo;
        } else {
            double hi = Math.nextUp(lo); // infinity past the largest double
            mag = switch (mode) {
                case "rz" -> lo;
                case "rp" -> negative ? lo : hi;
                case "rm" -> negative ? hi : lo;
                default -> { // nearest, ties to even; past MAX the midpoint is MAX + 2^970 (IEEE 754 overflow)
                    BigDecimal mid = exact(lo).add(Double.isInfinite(hi) ? exact(lo).add(exact(0x1p970)) : exact(hi))
                            .divide(BigDecimal.valueOf(2));
                    int c = cmp.apply(mid);
                    yield c < 0 ? lo : c > 0 ? hi : (Double.doubleToRawLongBits(lo) & 1) == 0 ? lo : hi;
                }
            };
        }
        return negative ? -mag : mag;
    }

    /** A finite nonzero exact value rounded to a double by the mode. */
    static double pickExact(BigDecimal v, String mode) {
        BigDecimal ax = v.abs();
        return pick(ax::compareTo, v.signum() < 0, mode, v.doubleValue());
    }

    static double ref(String op, double[] in, String mode) {
        double ieee = switch (op) { // NaN, infinities and the signs of zeros: IEEE, from Java's own arithmetic
            case "add" -> in[0] + in[1];
            case "sub" -> in[0] - in[1];
            case "mul" -> in[0] * in[1];
            case "fma" -> Math.fma(in[0], in[1], in[2]);
            case "div" -> in[0] / in[1];
            case "rcp" -> 1 / in[0];
            default -> Math.sqrt(in[0]);
        };
        if (Double.isNaN(ieee)) return ieee;
        for (double x : in) if (!Double.isFinite(x)) return ieee;
        if (op.matches("div|rcp") && in[in.length - 1] == 0) return ieee;
        if (op.matches("div|rcp")) {
            double a = op.equals("rcp") ? 1 : in[0];
            double b = op.equals("rcp") ? in[0] : in[1];
            if (a == 0) return ieee;
            BigDecimal ea = exact(a).abs();
            BigDecimal eb = exact(b).abs();
            return pick(t -> ea.compareTo(t.multiply(eb)), (a < 0) != (b < 0), mode, ieee);
        }
        if (op.equals("sqrt")) {
            if (in[0] <= 0) return ieee;
            BigDecimal ea = exact(in[0]);
            return pick(t -> ea.compareTo(t.multiply(t)), false, mode, ieee);
        }
        BigDecimal x = switch (op) {
            case "add" -> exact(in[0]).add(exact(in[1]));
            case "sub" -> exact(in[0]).subtract(exact(in[1]));
            case "mul" -> exact(in[0]).multiply(exact(in[1]));
            default -> exact(in[0]).multiply(exact(in[1])).add(exact(in[2]));
        };
        if (x.signum() == 0) {
            if (op.equals("mul")) return ieee;
            // IEEE 754 6.3: a zero sum is the zeros' common sign, else +0, but -0 under .rm
            double p = op.equals("fma") ? (in[0] == 0 || in[1] == 0 ? (Math.copySign(1, in[0]) * Math.copySign(1, in[1]) < 0 ? -0.0 : 0.0) : 1)
                    : in[0];
            double q = op.equals("fma") ? in[2] : op.equals("sub") ? -in[1] : in[1];
            if (p == 0 && q == 0 && Math.copySign(1, p) == Math.copySign(1, q)) return p;
            return mode.equals("rm") ? -0.0 : 0.0;
        }
        BigDecimal ax = x.abs();
        return pick(ax::compareTo, x.signum() < 0, mode, x.doubleValue());
    }

    private static void check(String op, int arity) {
        List<double[]> rows = rows(op, arity);
        String[] regs = {"%fd1", "%fd2", "%fd3"};
        for (String mode : MODES) {
            String insn = op + "." + mode + ".f64";
            String body = "mov.b64 %fd1, %rd1;\nmov.b64 %fd2, %rd2;\nmov.b64 %fd3, %rd3;\n" + insn + " %fd10, "
                    + String.join(", ", Arrays.copyOf(regs, arity)) + ";\nmov.b64 %rd10, %fd10;";
            for (int from = 0; from < rows.size(); from += 64) {
                int n = Math.min(64, rows.size() - from);
                long[][] in = new long[3][n];
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < 3; k++) in[k][i] = k < arity ? Double.doubleToRawLongBits(rows.get(from + i)[k]) : 0;
                }
                long[] out = LaneKernel.run(body, true, true, in);
                for (int i = 0; i < n; i++) {
                    double[] row = rows.get(from + i);
                    double want = ref(op, row.clone(), mode);
                    String what = insn + " " + Arrays.toString(row);
                    if (Double.isNaN(want)) assertTrue(Double.isNaN(Double.longBitsToDouble(out[i])), what);
                    else assertEquals(Long.toHexString(Double.doubleToRawLongBits(want)), Long.toHexString(out[i]), what + " want " + want
                            + " got " + Double.longBitsToDouble(out[i]));
                }
            }
        }
    }

    @Test void addRoundsTheExactSumOnceInEveryMode() { check("add", 2); }
    @Test void subRoundsTheExactDifferenceOnceInEveryMode() { check("sub", 2); }
    @Test void mulRoundsTheExactProductOnceInEveryMode() { check("mul", 2); }
    @Test void fmaRoundsTheExactProductPlusAddendOnceInEveryMode() { check("fma", 3); }
    @Test void divRoundsTheExactQuotientOnceInEveryMode() { check("div", 2); }
    @Test void rcpRoundsTheExactReciprocalOnceInEveryMode() { check("rcp", 1); }
    @Test void sqrtRoundsTheExactRootOnceInEveryMode() { check("sqrt", 1); }

    @Test
    void integersConvertToF64RoundedOnceInEveryMode() {
        SplittableRandom rnd = new SplittableRandom(47);
        long[] in = new long[64];
        long[] edge = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, (1L << 53) + 1, (1L << 54) + 2, (1L << 54) + 6, -(1L << 53) - 1,
            (1L << 62) + 1, 0xFFFFFFFFFFFFFC00L, 0xFFFFFFFFFFFFFBFFL, 0x8000000000000400L};
        for (int i = 0; i < in.length; i++) in[i] = i < edge.length ? edge[i] : rnd.nextLong() >> rnd.nextInt(12);
        for (String it : new String[] {"s64", "u64", "s32"}) {
            for (String mode : MODES) {
                String src = it.endsWith("64") ? "%rd1" : "%r3";
                String pre = it.endsWith("64") ? "" : "cvt.u32.u64 %r3, %rd1;\n";
                long[] out = LaneKernel.run(pre + "cvt." + mode + ".f64." + it + " %fd1, " + src + ";\nmov.b64 %rd10, %fd1;", true, true, in);
                for (int i = 0; i < in.length; i++) {
                    BigDecimal v = switch (it) {
                        case "s64" -> BigDecimal.valueOf(in[i]);
                        case "u64" -> new BigDecimal(new java.math.BigInteger(Long.toUnsignedString(in[i])));
                        default -> BigDecimal.valueOf((int) in[i]);
                    };
                    double want = v.signum() == 0 ? 0.0 : pickExact(v, mode);
                    assertEquals(Long.toHexString(Double.doubleToRawLongBits(want)), Long.toHexString(out[i]), "cvt." + mode + ".f64." + it
                            + " of " + v);
                }
            }
        }
    }

    @Test
    void directedCvtToF64FromIntegersWithSatClampsToZeroAndOneAsRnDoes() {
        long[] in = {5, -3, 0, 1, Long.MIN_VALUE, Long.MAX_VALUE, -1};
        for (String it : new String[] {"s64", "u64", "s32"}) {
            for (String mode : MODES) {
                String src = it.equals("s32") ? "%r3" : "%rd1";
                String pre = it.equals("s32") ? "cvt.u32.u64 %r3, %rd1;\n" : "";
                long[] out = LaneKernel.run(pre + "cvt." + mode + ".sat.f64." + it + " %fd1, " + src + ";\nmov.b64 %rd10, %fd1;", true, true, in);
                for (int i = 0; i < in.length; i++) {
                    double v = it.equals("s64") ? in[i] : it.equals("s32") ? (int) in[i] : in[i] < 0 ? 0x1p64 : in[i];
                    double want = v >= 1 ? 1.0 : 0.0;
                    assertEquals(Long.toHexString(Double.doubleToRawLongBits(want)), Long.toHexString(out[i]), "cvt." + mode + ".sat.f64." + it
                            + " of " + in[i]);
                }
            }
        }
    }

    @Test
    void madIsFmaAndFtzOrSatOnF64IsRefusedByName() {
        long[] out = LaneKernel.run("mov.b64 %fd1, %rd1;\nmov.b64 %fd2, %rd2;\nmov.b64 %fd3, %rd3;\nmad.rp.f64 %fd10, %fd1, %fd2, %fd3;\n"
                + "mov.b64 %rd10, %fd10;", true, true, new long[] {Double.doubleToRawLongBits(1)},
                new long[] {Double.doubleToRawLongBits(1)}, new long[] {Double.doubleToRawLongBits(0x1p-80)});
        assertEquals(Double.doubleToRawLongBits(Math.nextUp(1.0)), out[0]);
        for (String bad : new String[] {"add.rz.ftz.f64 %fd1, %fd2, %fd3;", "mul.rp.sat.f64 %fd1, %fd2, %fd3;"}) {
            Exception e = assertThrows(Exception.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains("unsupported instruction " + bad.substring(0, bad.indexOf(' '))), e.getMessage());
        }
    }
}
