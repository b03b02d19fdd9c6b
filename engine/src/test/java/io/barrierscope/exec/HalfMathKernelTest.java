package io.barrierscope.exec;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * half_math.cu (nvcc PTX): cuda_fp16/bf16/fp8 intrinsics as real kernels use them, each output
 * checked against the reference model of the test ({@link NarrowFloatReference}, exact BigDecimal
 * arithmetic rounded once).
 */
class HalfMathKernelTest {
    private static final NarrowFloatReference F16 = NarrowFloatReference.F16;
    private static final NarrowFloatReference BF16 = NarrowFloatReference.BF16;

    private static int h(float f) { return F16.round(f, "rn", false); }

    private static int bf(float f, String mode) { return BF16.round(f, mode, false); }

    @Test
    void intrinsicsGiveTheReferenceBits() throws Exception {
        int n = 64;
        SplittableRandom rnd = new SplittableRandom(3);
        List<Number> xs = new ArrayList<>();
        List<Number> ys = new ArrayList<>();
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i == 0 ? 1000f : (float) (rnd.nextDouble() * 16 - 8);
            y[i] = i == 1 ? -600f : (float) (rnd.nextDouble() * 16 - 8);
            xs.add(x[i]);
            ys.add(y[i]);
        }
        Path ptx = Path.of(getClass().getResource("/ptx-corpus/half_math.ptx").toURI());
        List<ArgSpec> args = List.of(new ArgSpec("x", ScalarType.F32, n, "data", xs, null), new ArgSpec("y", ScalarType.F32, n, "data", ys, null),
                new ArgSpec("out", ScalarType.U32, 8L * n, "zero", null, null));
        LaunchSpec spec = new LaunchSpec(ptx.resolveSibling("half_math.json"), ptx, "half_math", Dim3.ONE, new Dim3(n, 1, 1), null, args, 0,
                null, "round-robin", 0, 1_000_000, List.of());
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        for (int i = 0; i < n; i++) {
            int ha = h(x[i]);
            int hb = h(y[i]);
            long[] want = new long[8];
            want[0] = ((long) hb << 16) | ha;
            want[1] = ((long) fma(hb, hb, ha) << 16) | fma(ha, ha, hb); // low: ha*ha + hb, high: hb*hb + ha
            want[2] = F16.toDouble(ha) >= F16.toDouble(hb) ? ha : hb;
            // hexp2 compiles to f32 ex2.approx.ftz (the engine: 2^x rounded to f32), fma(f, 2^-24, f), cvt.rn.f16
            int q = F16.round(F16.value(ha).multiply(BigDecimal.valueOf(0.25)), F16.value(ha).signum() < 0, "rn", false);
            float f = (float) Math.pow(2, F16.toDouble(q));
            f = Math.fma(f, 0x1p-24f, f);
            want[3] = h(f);
            want[4] = bf(x[i], "rz");
            BigDecimal exact = BF16.value(bf(x[i], "rn")).add(BF16.value(bf(y[i], "rn")));
            int sum = exact.signum() == 0 ? 0 : BF16.round(exact, exact.signum() < 0, "rn", false);
            want[5] = ((long) sum << 16) | sum;
            want[6] = ((long) NarrowFloatReference.E4M3.round(y[i], "rn", true) << 8) | NarrowFloatReference.E4M3.round(x[i], "rn", true);
            want[7] = F16.toDouble(ha) < F16.toDouble(hb) ? 1 : 0;
            for (int k = 0; k < 8; k++) {
                assertEquals(Long.toHexString(want[k]), Long.toHexString(r.buffers().get("out").get(8 * i + k).longValue()),
                        "output " + k + " of thread " + i + " (x=" + x[i] + ", y=" + y[i] + ")");
            }
        }
    }

    /** fma.rn.f16 on half patterns: the exact a*b+c rounded once. */
    private static int fma(int a, int b, int c) {
        BigDecimal v = F16.value(a).multiply(F16.value(b)).add(F16.value(c));
        return v.signum() == 0 ? 0 : F16.round(v, v.signum() < 0, "rn", false);
    }
}
