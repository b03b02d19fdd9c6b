package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * f32 add, sub, mul, fma, div, rcp and sqrt with .rz, .rm, .rp (and .ftz) run as PTX against a
 * reference that brackets the exact result between two neighbouring floats by exact BigDecimal
 * comparison (for div and sqrt: by multiplying back), then picks the one the mode names.
 */
class DirectedF32Test {
    private static final String[] MODES = {"rz", "rm", "rp"};

    static long[] inputs(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] out = new long[n];
        float[] specials = {0f, -0f, Float.MIN_VALUE, -Float.MIN_NORMAL, Float.MAX_VALUE, 1f, Float.POSITIVE_INFINITY, Float.NaN};
        for (int i = 0; i < n; i++) {
            float f;
            int k = rnd.nextInt(10);
            if (k == 0) f = specials[rnd.nextInt(specials.length)];
            else if (k < 3) f = Float.intBitsToFloat(rnd.nextInt());
            else if (k == 3) f = Float.intBitsToFloat(rnd.nextInt(0x01000000)) * (rnd.nextBoolean() ? 1 : -1); // subnormal/small
            else f = (float) ((rnd.nextDouble() * 2 - 1) * Math.pow(2, rnd.nextInt(40) - 20));
            out[i] = Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
        }
        return out;
    }

    private static float f(long bits) { return Float.intBitsToFloat((int) bits); }

    private static BigDecimal exact(float f) { return new BigDecimal(f); }

    /** The float the mode gives for a finite nonzero exact value, found from floats below and above it. */
    static float pick(Predicate<Float> atMost, Predicate<Float> exactly, boolean negative, String mode, float guess) {
        // atMost(f): the exact magnitude is >= f (f is not above it); magnitudes only.
        float lo = Math.abs(guess);
        if (Float.isNaN(lo) || Float.isInfinite(lo)) lo = Float.MAX_VALUE;
        while (lo > 0 && !atMost.test(lo)) lo = Math.nextDown(lo);
        while (lo < Float.MAX_VALUE && atMost.test(Math.nextUp(lo))) lo = Math.nextUp(lo);
        float mag;
        if (exactly.test(lo)) mag = lo;
        else {
            float hi = Math.nextUp(lo); // may be infinity
            boolean towardLarger = switch (mode) {
                case "rz" -> false;
                case "rp" -> !negative;
                default -> negative;
            };
            mag = towardLarger ? hi : lo;
        }
        return negative ? -mag : mag;
    }

    private static long ref(String op, float[] in, String mode, boolean ftz) {
        for (int i = 0; i < in.length; i++) if (ftz && Math.abs(in[i]) < Float.MIN_NORMAL) in[i] = Math.copySign(0f, in[i]);
        float ieee = switch (op) { // sign of zeros, NaN and infinities: IEEE, from Java's own arithmetic
            case "add" -> in[0] + in[1];
            case "sub" -> in[0] - in[1];
            case "mul" -> in[0] * in[1];
            case "fma" -> Math.fma(in[0], in[1], in[2]);
            case "div" -> in[0] / in[1];
            case "rcp" -> 1f / in[0];
            default -> (float) Math.sqrt(in[0]);
        };
        float r;
        if (Float.isNaN(ieee)) return Float.floatToRawIntBits(Float.NaN) & 0xFFFFFFFFL;
        boolean special = false;
        for (float x : in) special |= !Float.isFinite(x);
        if (special || (op.matches("div|rcp") && in[in.length - 1] == 0)) {
            r = ieee;
        } else if (op.equals("div") || op.equals("rcp")) {
            float a = op.equals("rcp") ? 1f : in[0];
            float b = op.equals("rcp") ? in[0] : in[1];
            if (a == 0) r = ieee;
            else {
                BigDecimal ea = exact(a).abs();
                BigDecimal eb = exact(b).abs();
                r = pick(q -> exact(q).multiply(eb).compareTo(ea) <= 0, q -> exact(q).multiply(eb).compareTo(ea) == 0,
                        (a < 0) != (b < 0), mode, a / b);
            }
        } else if (op.equals("sqrt")) {
            if (in[0] <= 0) r = ieee;
            else {
                BigDecimal ea = exact(in[0]);
                r = pick(q -> exact(q).multiply(exact(q)).compareTo(ea) <= 0, q -> exact(q).multiply(exact(q)).compareTo(ea) == 0,
                        false, mode, ieee);
            }
        } else {
            BigDecimal x = switch (op) {
                case "add" -> exact(in[0]).add(exact(in[1]));
                case "sub" -> exact(in[0]).subtract(exact(in[1]));
                case "mul" -> exact(in[0]).multiply(exact(in[1]));
                default -> exact(in[0]).multiply(exact(in[1])).add(exact(in[2]));
            };
            if (x.signum() == 0) {
                // IEEE 754 6.3: a zero sum is the zeros' common sign, else +0, but -0 under .rm
                float p = op.equals("fma") ? in[0] * in[1] : in[0];
                float q = op.equals("fma") ? in[2] : op.equals("sub") ? -in[1] : in[1];
                if (op.equals("mul")) r = ieee;
                else if (p == 0 && q == 0 && (Float.floatToRawIntBits(p) < 0) == (Float.floatToRawIntBits(q) < 0)) r = p;
                else r = mode.equals("rm") ? -0f : 0f;
            } else {
                BigDecimal ax = x.abs();
                r = pick(q -> exact(q).compareTo(ax) <= 0, q -> exact(q).compareTo(ax) == 0, x.signum() < 0, mode, x.floatValue());
            }
        }
        if (ftz && r != 0 && Math.abs(r) < Float.MIN_NORMAL) r = Math.copySign(0f, r);
        return Float.floatToRawIntBits(r) & 0xFFFFFFFFL;
    }

    private static void check(String op, int arity) {
        long[][] in = new long[arity][];
        for (int i = 0; i < arity; i++) in[i] = inputs(256, op.hashCode() * 7L + i);
        String[] regs = {"%r1", "%r2", "%r3"};
        for (String mode : MODES) {
            for (String ftz : new String[] {"", ".ftz"}) {
                String insn = op + "." + mode + ftz + ".f32";
                long[] out = LaneKernel.run32(insn + " %r10, " + String.join(", ", java.util.Arrays.copyOf(regs, arity)) + ";", in);
                for (int i = 0; i < out.length; i++) {
                    float[] x = new float[arity];
                    for (int k = 0; k < arity; k++) x[k] = f(in[k][i]);
                    String args = java.util.Arrays.toString(x);
                    long want = ref(op, x, mode, !ftz.isEmpty());
                    if (Float.isNaN(f(want))) assertEquals(true, Float.isNaN(f(out[i])), insn + " " + args);
                    else assertEquals(Float.intBitsToFloat((int) want), Float.intBitsToFloat((int) out[i]), insn + " " + args);
                    if (!Float.isNaN(f(want))) assertEquals(Long.toHexString(want), Long.toHexString(out[i]), insn + " " + args);
                }
            }
        }
    }

    @Test void addInEveryDirectedMode() { check("add", 2); }
    @Test void subInEveryDirectedMode() { check("sub", 2); }
    @Test void mulInEveryDirectedMode() { check("mul", 2); }
    @Test void fmaInEveryDirectedMode() { check("fma", 3); }
    @Test void divInEveryDirectedMode() { check("div", 2); }
    @Test void rcpInEveryDirectedMode() { check("rcp", 1); }
    @Test void sqrtInEveryDirectedMode() { check("sqrt", 1); }
}
