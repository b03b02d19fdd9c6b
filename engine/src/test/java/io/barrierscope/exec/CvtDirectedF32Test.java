package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * cvt.{rz,rm,rp}.f32 from .f64 and from integers (PTX ISA 9.7.9.21) against the bracketing
 * reference of {@link DirectedF32Test}: the two floats around the exact source, picked by the mode.
 */
class CvtDirectedF32Test {
    private static long want(BigDecimal x, String mode) {
        if (x.signum() == 0) return 0;
        BigDecimal ax = x.abs();
        float r = DirectedF32Test.pick(q -> new BigDecimal(q).compareTo(ax) <= 0, q -> new BigDecimal(q).compareTo(ax) == 0,
                x.signum() < 0, mode, x.floatValue());
        return Float.floatToRawIntBits(r) & 0xFFFFFFFFL;
    }

    @Test
    void f64ToF32InEveryDirectedMode() {
        SplittableRandom rnd = new SplittableRandom(41);
        long[] in = new long[64];
        for (int i = 0; i < in.length; i++) {
            double v = i == 0 ? 1e300 : i == 1 ? -1e-300 : i == 2 ? Double.MAX_VALUE : (rnd.nextDouble() * 2 - 1) * Math.pow(2, rnd.nextInt(300) - 150);
            in[i] = Double.doubleToRawLongBits(v);
        }
        for (String mode : new String[] {"rz", "rm", "rp"}) {
            long[] out = LaneKernel.run64in("mov.b64 %fd1, %rd1;\ncvt." + mode + ".f32.f64 %f1, %fd1;\nmov.b32 %r10, %f1;", in);
            for (int i = 0; i < in.length; i++) {
                double v = Double.longBitsToDouble(in[i]);
                assertEquals(Long.toHexString(want(new BigDecimal(v), mode)), Long.toHexString(out[i]), "cvt." + mode + ".f32.f64 of " + v);
            }
        }
    }

    @Test
    void integersToF32InEveryDirectedMode() {
        SplittableRandom rnd = new SplittableRandom(43);
        long[] in = new long[64];
        for (int i = 0; i < in.length; i++) in[i] = i == 0 ? Long.MIN_VALUE : i == 1 ? -1 : rnd.nextLong() >> rnd.nextInt(63);
        for (String it : new String[] {"s64", "u64", "s32", "u32"}) {
            for (String mode : new String[] {"rz", "rm", "rp"}) {
                String src = it.endsWith("64") ? "%rd1" : "%r3";
                String pre = it.endsWith("64") ? "" : "cvt.u32.u64 %r3, %rd1;\n";
                long[] out = LaneKernel.run64in(pre + "cvt." + mode + ".f32." + it + " %f1, " + src + ";\nmov.b32 %r10, %f1;", in);
                for (int i = 0; i < in.length; i++) {
                    BigDecimal v = switch (it) {
                        case "s64" -> BigDecimal.valueOf(in[i]);
                        case "u64" -> new BigDecimal(new BigInteger(Long.toUnsignedString(in[i])));
                        case "s32" -> BigDecimal.valueOf((int) in[i]);
                        default -> BigDecimal.valueOf(in[i] & 0xFFFFFFFFL);
                    };
                    assertEquals(Long.toHexString(want(v, mode)), Long.toHexString(out[i]), "cvt." + mode + ".f32." + it + " of " + v);
                }
            }
        }
    }
}
