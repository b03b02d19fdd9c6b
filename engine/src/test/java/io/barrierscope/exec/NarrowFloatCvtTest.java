package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every cvt form to and from f16, bf16, tf32, e4m3 and e5m2 (PTX ISA 9.7.9.21) run as PTX, one
 * thread per input, against {@link NarrowFloatReference} (exact values, rounding by comparison).
 * Inputs sit on, between and just off the destination grid, plus specials and overflow.
 */
class NarrowFloatCvtTest {
    private static final NarrowFloatReference F16 = NarrowFloatReference.F16;
    private static final NarrowFloatReference BF16 = NarrowFloatReference.BF16;

    /** f32 bit patterns around the grid of {@code ref}: values, midpoints, a few f32 ulps off, specials. */
    static long[] f32Near(NarrowFloatReference ref, int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] out = new long[n];
        float[] specials = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f, -0f, Float.MIN_VALUE, -Float.MAX_VALUE};
        for (int i = 0; i < n; i++) {
            float f;
            if (i < specials.length) {
                f = specials[i];
            } else if (rnd.nextInt(8) == 0) {
                f = Float.intBitsToFloat(rnd.nextInt());
            } else {
                int c = rnd.nextInt(ref.values.length);
                BigDecimal v = ref.values[c];
                BigDecimal next = c + 1 < ref.values.length ? ref.values[c + 1] : v.add(v.subtract(ref.values[c - 1]));
                BigDecimal x = rnd.nextBoolean() ? v : v.add(next).divide(BigDecimal.valueOf(2));
                f = x.floatValue();
                for (int k = rnd.nextInt(5) - 2; k != 0; k += k > 0 ? -1 : 1) f = k > 0 ? Math.nextUp(f) : Math.nextDown(f);
                if (rnd.nextBoolean()) f = -f;
            }
            out[i] = Float.floatToRawIntBits(f) & 0xFFFFFFFFL;
        }
        return out;
    }

    private static double f32(long bits) { return Float.intBitsToFloat((int) bits); }

    @Test
    void f32ToHalfAndBf16InEveryRoundingMode() {
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16" : "bf16";
            long[] in = f32Near(ref, 256, ref.ebits);
            for (String mode : new String[] {"rn", "rz", "rm", "rp"}) {
                long[] out = LaneKernel.run32("cvt." + mode + "." + t + ".f32 %h1, %r1;\ncvt.u32.u16 %r10, %h1;", in);
                for (int i = 0; i < in.length; i++) {
                    assertEquals(ref.round(f32(in[i]), mode, false), out[i], "cvt." + mode + "." + t + ".f32 of " + f32(in[i]));
                }
            }
        }
    }

    @Test
    void reluAndSatfiniteOnF32ToHalfAndBf16() {
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16" : "bf16";
            long[] in = f32Near(ref, 256, 7);
            for (String mode : new String[] {"rn", "rz"}) {
                for (String mods : new String[] {".relu", ".satfinite", ".relu.satfinite"}) {
                    long[] out = LaneKernel.run32("cvt." + mode + mods + "." + t + ".f32 %h1, %r1;\ncvt.u32.u16 %r10, %h1;", in);
                    for (int i = 0; i < in.length; i++) {
                        int want = ref.round(f32(in[i]), mode, mods.contains("satfinite"));
                        if (mods.contains("relu")) want = relu(ref, want);
                        assertEquals(want, out[i], "cvt." + mode + mods + "." + t + ".f32 of " + f32(in[i]));
                    }
                }
            }
        }
    }

    /** .relu: a negative result is +0, NaN the canonical NaN. */
    static int relu(NarrowFloatReference ref, int bits) {
        if (ref.isNaN(bits)) return ref.nanCode;
        return (bits & ref.signBit()) != 0 ? 0 : bits;
    }

    @Test
    void f64ToHalfAndBf16RoundOnceInEveryMode() {
        SplittableRandom rnd = new SplittableRandom(3);
        long[] in = new long[64];
        for (int i = 0; i < in.length; i++) {
            // a half value plus a tail far below f32 precision: rounding through f32 would lose it
            int c = rnd.nextInt(F16.values.length - 1);
            double mid = F16.values[c].add(F16.values[c + 1]).divide(BigDecimal.valueOf(2)).doubleValue();
            double v = mid + (rnd.nextBoolean() ? 1 : -1) * Math.ulp(mid) * (1 + rnd.nextInt(3)) * (i % 3 == 0 ? 0 : 1);
            in[i] = Double.doubleToRawLongBits(rnd.nextBoolean() ? v : -v);
        }
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16" : "bf16";
            for (String mode : new String[] {"rn", "rz", "rm", "rp"}) {
                long[] out = LaneKernel.run64in("cvt." + mode + "." + t + ".f64 %h1, %rd1;\ncvt.u32.u16 %r10, %h1;", in);
                for (int i = 0; i < in.length; i++) {
                    double v = Double.longBitsToDouble(in[i]);
                    assertEquals(ref.round(v, mode, false), out[i], "cvt." + mode + "." + t + ".f64 of " + v);
                }
            }
        }
    }

    @Test
    void halfAndBf16WidenExactlyToF32AndF64() {
        long[] in = new long[256];
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < in.length; i++) in[i] = rnd.nextInt(1 << 16);
        in[0] = 0x7C00; in[1] = 0xFC01; in[2] = 0x0001; in[3] = 0x8000;
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16" : "bf16";
            long[] out = LaneKernel.run32("cvt.u16.u32 %h1, %r1;\ncvt.f32." + t + " %f1, %h1;\nmov.b32 %r10, %f1;", in);
            for (int i = 0; i < in.length; i++) {
                double want = ref.toDouble((int) in[i]);
                float got = Float.intBitsToFloat((int) out[i]);
                if (Double.isNaN(want)) assertTrue(Float.isNaN(got), t + " NaN " + Long.toHexString(in[i]));
                else assertEquals(Float.floatToIntBits((float) want), Float.floatToIntBits(got), "cvt.f32." + t + " of " + Long.toHexString(in[i]));
            }
            long[] few = java.util.Arrays.copyOf(in, 64);
            long[] wide = LaneKernel.run("cvt.u16.u32 %h1, %r1;\ncvt.f64." + t + " %fd1, %h1;\nmov.b64 %rd10, %fd1;", false, true, few);
            for (int i = 0; i < few.length; i++) {
                double want = ref.toDouble((int) few[i]);
                double got = Double.longBitsToDouble(wide[i]);
                if (Double.isNaN(want)) assertTrue(Double.isNaN(got));
                else assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(got), "cvt.f64." + t);
            }
        }
    }

    @Test
    void halfToBf16AndBackRoundInEveryMode() {
        long[] in = new long[256];
        SplittableRandom rnd = new SplittableRandom(9);
        for (int i = 0; i < in.length; i++) in[i] = rnd.nextInt(1 << 16);
        for (String mode : new String[] {"rn", "rz", "rm", "rp"}) {
            long[] toBf = LaneKernel.run32("cvt.u16.u32 %h1, %r1;\ncvt." + mode + ".bf16.f16 %h2, %h1;\ncvt.u32.u16 %r10, %h2;", in);
            long[] toF16 = LaneKernel.run32("cvt.u16.u32 %h1, %r1;\ncvt." + mode + ".f16.bf16 %h2, %h1;\ncvt.u32.u16 %r10, %h2;", in);
            for (int i = 0; i < in.length; i++) {
                assertEquals(BF16.round(F16.toDouble((int) in[i]), mode, false), toBf[i], "cvt." + mode + ".bf16.f16 " + Long.toHexString(in[i]));
                assertEquals(F16.round(BF16.toDouble((int) in[i]), mode, false), toF16[i], "cvt." + mode + ".f16.bf16 " + Long.toHexString(in[i]));
            }
        }
    }

    @Test
    void pairsFromTwoF32PutTheFirstInTheUpperHalf() {
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16x2" : "bf16x2";
            long[] a = f32Near(ref, 128, 11);
            long[] b = f32Near(ref, 128, 12);
            for (String mods : new String[] {".rn", ".rz", ".rn.relu", ".rz.satfinite", ".rn.relu.satfinite"}) {
                long[] out = LaneKernel.run32("cvt" + mods + "." + t + ".f32 %r10, %r1, %r2;", a, b);
                boolean sat = mods.contains("satfinite");
                String mode = mods.substring(1, 3);
                for (int i = 0; i < a.length; i++) {
                    int hi = ref.round(f32(a[i]), mode, sat);
                    int lo = ref.round(f32(b[i]), mode, sat);
                    if (mods.contains("relu")) { hi = relu(ref, hi); lo = relu(ref, lo); }
                    assertEquals(((long) hi << 16) | lo, out[i], "cvt" + mods + "." + t + ".f32 " + f32(a[i]) + ", " + f32(b[i]));
                }
            }
        }
    }

    @Test
    void tf32FromF32ByRnaRnAndRz() {
        NarrowFloatReference tf = NarrowFloatReference.tf32();
        long[] in = f32Near(tf, 256, 13);
        for (String mods : new String[] {".rna", ".rna.satfinite", ".rn", ".rz", ".rn.relu", ".rz.satfinite", ".rn.satfinite.relu"}) {
            String mode = mods.startsWith(".rna") ? "rna" : mods.substring(1, 3);
            // .satfinite with .rn/.rz needs sm_100 (9.7.9.21, Target ISA notes; ptxas agrees): run those there.
            String target = mods.contains("satfinite") && !mode.equals("rna") ? "sm_100a" : "sm_90a";
            long[] out = LaneKernel.run(target, "cvt" + mods + ".tf32.f32 %r10, %r1;", false, false, in);
            for (int i = 0; i < in.length; i++) {
                int want = tf.round(f32(in[i]), mode, mods.contains("satfinite"));
                if (mods.contains("relu")) want = relu(tf, want);
                assertEquals(want & 0xFFFFFFFFL, out[i], "cvt" + mods + ".tf32.f32 of " + f32(in[i]));
            }
        }
    }

    @Test
    void fp8PairsFromF32AndFromF16x2() {
        for (NarrowFloatReference ref : new NarrowFloatReference[] {NarrowFloatReference.E4M3, NarrowFloatReference.E5M2}) {
            String t = ref == NarrowFloatReference.E4M3 ? "e4m3x2" : "e5m2x2";
            long[] a = f32Near(ref, 128, 17);
            long[] b = f32Near(ref, 128, 18);
            for (String relu : new String[] {"", ".relu"}) {
                long[] out = LaneKernel.run32("cvt.rn.satfinite" + relu + "." + t + ".f32 %h1, %r1, %r2;\ncvt.u32.u16 %r10, %h1;", a, b);
                long[] halves = new long[a.length];
                for (int i = 0; i < a.length; i++) halves[i] = ((long) F16.round(f32(a[i]), "rn", false) << 16) | F16.round(f32(b[i]), "rn", false);
                long[] fromHalf = LaneKernel.run32("cvt.rn.satfinite" + relu + "." + t + ".f16x2 %h1, %r1;\ncvt.u32.u16 %r10, %h1;", halves);
                for (int i = 0; i < a.length; i++) {
                    int hi = ref.round(f32(a[i]), "rn", true);
                    int lo = ref.round(f32(b[i]), "rn", true);
                    int hh = ref.round(F16.toDouble((int) (halves[i] >>> 16)), "rn", true);
                    int hl = ref.round(F16.toDouble((int) halves[i] & 0xFFFF), "rn", true);
                    if (!relu.isEmpty()) { hi = relu(ref, hi); lo = relu(ref, lo); hh = relu(ref, hh); hl = relu(ref, hl); }
                    assertEquals((hi << 8) | lo, out[i], "cvt.rn.satfinite" + relu + "." + t + ".f32 " + f32(a[i]) + ", " + f32(b[i]));
                    assertEquals((hh << 8) | hl, fromHalf[i], "cvt.rn.satfinite" + relu + "." + t + ".f16x2 " + Long.toHexString(halves[i]));
                }
            }
        }
    }

    @Test
    void fp8PairsFromBf16x2() {
        long[] in = HalfOpsTest.pairs(BF16, 256, 19);
        for (NarrowFloatReference ref : new NarrowFloatReference[] {NarrowFloatReference.E4M3, NarrowFloatReference.E5M2}) {
            String t = ref == NarrowFloatReference.E4M3 ? "e4m3x2" : "e5m2x2";
            for (String relu : new String[] {"", ".relu"}) {
                long[] out = LaneKernel.run32("cvt.rn.satfinite" + relu + "." + t + ".bf16x2 %h1, %r1;\ncvt.u32.u16 %r10, %h1;", in);
                for (int i = 0; i < in.length; i++) {
                    int hi = ref.round(BF16.toDouble((int) (in[i] >>> 16)), "rn", true);
                    int lo = ref.round(BF16.toDouble((int) in[i] & 0xFFFF), "rn", true);
                    if (!relu.isEmpty()) { hi = relu(ref, hi); lo = relu(ref, lo); }
                    assertEquals((hi << 8) | lo, out[i], "cvt.rn.satfinite" + relu + "." + t + ".bf16x2 " + Long.toHexString(in[i]));
                }
            }
        }
    }

    @Test
    void fp8PairsWidenExactlyToF16x2() {
        for (NarrowFloatReference ref : new NarrowFloatReference[] {NarrowFloatReference.E4M3, NarrowFloatReference.E5M2}) {
            String t = ref == NarrowFloatReference.E4M3 ? "e4m3x2" : "e5m2x2";
            long[] in = new long[256];
            for (int i = 0; i < 256; i++) in[i] = (i << 8) | (255 - i); // every code in both halves
            for (String relu : new String[] {"", ".relu"}) {
                long[] out = LaneKernel.run32("cvt.u16.u32 %h1, %r1;\ncvt.rn" + relu + ".f16x2." + t + " %r10, %h1;", in);
                for (int i = 0; i < 256; i++) {
                    int hi = F16.round(ref.toDouble(i), "rn", false);
                    int lo = F16.round(ref.toDouble(255 - i), "rn", false);
                    if (!relu.isEmpty()) { hi = relu(F16, hi); lo = relu(F16, lo); }
                    assertEquals(((long) hi << 16) | lo, out[i], "cvt.rn" + relu + ".f16x2." + t + " of " + Long.toHexString(in[i]));
                }
            }
        }
    }

    @Test
    void integersToHalfAndBf16RoundInEveryMode() {
        SplittableRandom rnd = new SplittableRandom(21);
        long[] in = new long[64];
        for (int i = 0; i < in.length; i++) in[i] = i < 4 ? new long[] {Long.MIN_VALUE, -1, Long.MAX_VALUE, 65520}[i] : rnd.nextLong() >> rnd.nextInt(63);
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16" : "bf16";
            for (String it : new String[] {"s64", "u64", "s32", "u32", "s16"}) {
                for (String mode : new String[] {"rn", "rz", "rm", "rp"}) {
                    String src = it.endsWith("64") ? "%rd1" : it.equals("s16") ? "%h3" : "%r3";
                    String pre = it.endsWith("64") ? "" : it.equals("s16") ? "cvt.u16.u64 %h3, %rd1;\n" : "cvt.u32.u64 %r3, %rd1;\n";
                    long[] out = LaneKernel.run64in(pre + "cvt." + mode + "." + t + "." + it + " %h1, " + src + ";\ncvt.u32.u16 %r10, %h1;", in);
                    for (int i = 0; i < in.length; i++) {
                        BigDecimal v = integer(in[i], it);
                        assertEquals(ref.round(v, v.signum() < 0, mode, false), out[i], "cvt." + mode + "." + t + "." + it + " of " + v);
                    }
                }
            }
        }
    }

    private static BigDecimal integer(long raw, String type) {
        return switch (type) {
            case "s64" -> BigDecimal.valueOf(raw);
            case "u64" -> new BigDecimal(new java.math.BigInteger(Long.toUnsignedString(raw)));
            case "s32" -> BigDecimal.valueOf((int) raw);
            case "u32" -> BigDecimal.valueOf(raw & 0xFFFFFFFFL);
            case "s16" -> BigDecimal.valueOf((short) raw);
            default -> throw new IllegalArgumentException(type);
        };
    }

    @Test
    void halfAndBf16ToIntegersRoundAndSaturate() {
        long[] in = new long[256];
        SplittableRandom rnd = new SplittableRandom(23);
        for (int i = 0; i < in.length; i++) in[i] = rnd.nextInt(1 << 16);
        for (NarrowFloatReference ref : new NarrowFloatReference[] {F16, BF16}) {
            String t = ref == F16 ? "f16" : "bf16";
            for (String mode : new String[] {"rni", "rzi", "rmi", "rpi"}) {
                for (String it : new String[] {"s32", "u8", "s8", "u32"}) {
                    long[] out = LaneKernel.run32("cvt.u16.u32 %h1, %r1;\ncvt." + mode + "." + it + "." + t + " %r10, %h1;", in);
                    for (int i = 0; i < in.length; i++) {
                        long want = toInt(ref, (int) in[i], mode, it);
                        assertEquals(want, out[i], "cvt." + mode + "." + it + "." + t + " of " + Long.toHexString(in[i]));
                    }
                }
            }
        }
    }

    /** Rounded to an integer by the mode, clamped to the type, NaN to 0; the u32 register gets the type's bits, sign-extended for signed. */
    private static long toInt(NarrowFloatReference ref, int bits, String mode, String type) {
        long lo = switch (type) { case "s32" -> Integer.MIN_VALUE; case "s8" -> -128; default -> 0; };
        long hi = switch (type) { case "s32" -> Integer.MAX_VALUE; case "s8" -> 127; case "u8" -> 255; default -> 0xFFFFFFFFL; };
        long r;
        if (ref.isNaN(bits)) {
            r = 0;
        } else if (ref.isInf(bits)) {
            r = (bits & ref.signBit()) != 0 ? lo : hi;
        } else {
            RoundingMode rm = switch (mode) {
                case "rni" -> RoundingMode.HALF_EVEN;
                case "rzi" -> RoundingMode.DOWN;
                case "rmi" -> RoundingMode.FLOOR;
                default -> RoundingMode.CEILING;
            };
            long v = ref.value(bits).setScale(0, rm).max(BigDecimal.valueOf(lo)).min(BigDecimal.valueOf(hi)).longValueExact();
            r = v;
        }
        return r & 0xFFFFFFFFL;
    }

    @Test
    void stochasticRoundingAndFormsOutsideTheIsaAreRefusedByName() {
        for (String bad : new String[] {"cvt.rs.f16x2.f32 %r10, %r1, %r2;", "cvt.rm.f16x2.f32 %r10, %r1, %r2;",
            "cvt.rn.e4m3x2.f32 %h1, %r1, %r2;", "cvt.rna.f16.f32 %h1, %r1;", "cvt.rn.f32.tf32 %r10, %r1;"}) {
            Exception e = assertThrows(Exception.class, () -> LaneKernel.run32(bad + "\nmov.b32 %r10, 0;", new long[] {0}), bad);
            String mnemonic = bad.substring(0, bad.indexOf(' '));
            assertTrue(e.getMessage().contains("unsupported instruction " + mnemonic), e.getMessage());
        }
    }
}
