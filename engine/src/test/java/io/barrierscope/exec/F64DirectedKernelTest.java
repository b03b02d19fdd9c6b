package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * f64_directed.cu (nvcc PTX of __dadd_rz, __dmul_rd, __fma_ru, __ddiv_*, __drcp_*, __dsqrt_*,
 * __ll2double_*): each result against the BigDecimal reference of {@link DirectedF64Test}.
 */
class F64DirectedKernelTest {
    @Test
    void cudaDirectedRoundingIntrinsicsGiveTheReferenceBits() throws Exception {
        int n = 32;
        SplittableRandom rnd = new SplittableRandom(11);
        double[] x = new double[n];
        double[] y = new double[n];
        double[] z = new double[n];
        long[] k = new long[n];
        double[][] edge = {{1, 0x1p-53, -1}, {Double.MAX_VALUE, Double.MAX_VALUE, 0}, {Double.MIN_VALUE, 0.5, -0.0}, {1.5, 1.5, -2.25},
            {-3, 7, 1e-300}, {2, 3, 0}};
        List<Number> xs = new ArrayList<>();
        List<Number> ys = new ArrayList<>();
        List<Number> zs = new ArrayList<>();
        List<Number> ks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i < edge.length) {
                x[i] = edge[i][0];
                y[i] = edge[i][1];
                z[i] = edge[i][2];
            } else {
                x[i] = (rnd.nextDouble() * 2 - 1) * Math.pow(2, rnd.nextInt(-40, 40));
                y[i] = (rnd.nextDouble() * 2 - 1) * Math.pow(2, rnd.nextInt(-40, 40));
                z[i] = (rnd.nextDouble() * 2 - 1) * Math.pow(2, rnd.nextInt(-40, 40));
            }
            k[i] = i == 0 ? (1L << 53) + 1 : i == 1 ? Long.MIN_VALUE + 1 : rnd.nextLong() >> rnd.nextInt(12);
            xs.add(x[i]);
            ys.add(y[i]);
            zs.add(z[i]);
            ks.add(k[i]);
        }
        Path ptx = Path.of(getClass().getResource("/ptx-corpus/f64_directed.ptx").toURI());
        List<ArgSpec> args = List.of(new ArgSpec("x", ScalarType.F64, n, "data", xs, null), new ArgSpec("y", ScalarType.F64, n, "data", ys, null),
                new ArgSpec("z", ScalarType.F64, n, "data", zs, null), new ArgSpec("k", ScalarType.S64, n, "data", ks, null),
                new ArgSpec("out", ScalarType.U64, 20L * n, "zero", null, null));
        LaunchSpec spec = new LaunchSpec(ptx.resolveSibling("f64_directed.json"), ptx, "f64_directed", Dim3.ONE, new Dim3(n, 1, 1), null, args,
                0, null, "round-robin", 0, 1_000_000, List.of());
        LaunchedRun r = LaunchValidation.validate(spec).start(null, null);
        r.runToEnd();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        for (int i = 0; i < n; i++) {
            double a = x[i];
            double b = y[i];
            double[] want = {
                DirectedF64Test.ref("add", new double[] {a, b}, "rz"), DirectedF64Test.ref("add", new double[] {a, b}, "rm"),
                DirectedF64Test.ref("add", new double[] {a, b}, "rp"), DirectedF64Test.ref("sub", new double[] {a, b}, "rm"),
                DirectedF64Test.ref("mul", new double[] {a, b}, "rz"), DirectedF64Test.ref("mul", new double[] {a, b}, "rm"),
                DirectedF64Test.ref("mul", new double[] {a, b}, "rp"), DirectedF64Test.ref("fma", new double[] {a, b, z[i]}, "rz"),
                DirectedF64Test.ref("fma", new double[] {a, b, z[i]}, "rm"), DirectedF64Test.ref("fma", new double[] {a, b, z[i]}, "rp"),
                DirectedF64Test.ref("div", new double[] {a, b}, "rz"), DirectedF64Test.ref("div", new double[] {a, b}, "rm"),
                DirectedF64Test.ref("div", new double[] {a, b}, "rp"), DirectedF64Test.ref("rcp", new double[] {a}, "rz"),
                DirectedF64Test.ref("rcp", new double[] {a}, "rp"), DirectedF64Test.ref("sqrt", new double[] {Math.abs(a)}, "rm"),
                DirectedF64Test.ref("sqrt", new double[] {Math.abs(a)}, "rp"), integer(k[i], "rz"), integer(k[i], "rm"), integer(k[i], "rp")};
            for (int j = 0; j < want.length; j++) {
                assertEquals(Long.toHexString(Double.doubleToRawLongBits(want[j])),
                        Long.toHexString(r.buffers().get("out").get(20 * i + j).longValue()),
                        "output " + j + " of thread " + i + " (x=" + a + ", y=" + b + ", z=" + z[i] + ", k=" + k[i] + ")");
            }
        }
    }

    private static double integer(long k, String mode) {
        BigDecimal v = BigDecimal.valueOf(k);
        return v.signum() == 0 ? 0.0 : DirectedF64Test.pickExact(v, mode);
    }
}
