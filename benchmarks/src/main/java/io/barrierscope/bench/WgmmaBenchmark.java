package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Tensor-core throughput: a whole run of a wgmma GEMM sample (TMA loads, mbarrier, the
 * {@code wgmma.mma_async} operations, the stores of C) against a plain-Java float matrix multiply
 * with the same number of multiply-adds (64 x 64 x K) in the same JVM. The {@code multiplyAdds}
 * column is a rate per second: for {@code wgmma}, the multiply-adds of the operations the run
 * formed (64 x N x K each), over the run's whole time; for {@code plainLoop}, 64 x 64 x K.
 *
 * <p>Run from the repository root, see docs/performance.md:
 * {@code java -jar benchmarks/target/benchmarks.jar WgmmaBenchmark -f 1 -wi 3 -i 5}
 * ({@code -p launch=samples/wgmma-pingpong/launch.json} for the ping-pong kernel). On a machine shared
 * with other jobs the wall-clock rates swing with the load; {@link #main} times the same two
 * things by the thread's own CPU time:
 * {@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.WgmmaBenchmark [ROUNDS] [LAUNCH...]}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WgmmaBenchmark {

    /** The launch, checked once against its expect block; its multiply-adds per run. */
    @State(Scope.Benchmark)
    public static class Launch {
        @Param({"samples/wgmma-gemm/launch.json"})
        public String launch;

        Path file;
        io.barrierscope.launch.LaunchSpec spec;
        long steps;
        long multiplyAdds;
        float[] a;
        float[] b;
        float[] c;
        int k;

        @Setup(Level.Trial)
        public void load() {
            file = BenchKernels.launchFile(launch);
            LaunchedRun run = BenchKernels.verifiedRun(file);
            spec = run.spec();
            steps = run.machine().steps;
            multiplyAdds = run.machine().wgmma.multiplyAdds;
            if (multiplyAdds == 0 || multiplyAdds % (64 * 64) != 0) throw new IllegalStateException(launch + ": no 64-row wgmma tiles");
            k = (int) (multiplyAdds / (64 * 64));
            a = new float[64 * k];
            b = new float[k * 64];
            c = new float[64 * 64];
            java.util.SplittableRandom r = new java.util.SplittableRandom(1);
            for (int i = 0; i < a.length; i++) a[i] = r.nextInt(-4, 5);
            for (int i = 0; i < b.length; i++) b[i] = r.nextInt(-4, 5);
            System.out.println();
            System.out.println("# launch " + launch + ": " + run.summary().trim() + "; " + multiplyAdds + " multiply-adds per run");
        }
    }

    /**
     * A fresh run per invocation from the launch file read once; parsing the PTX and compiling
     * stay outside the measured time.
     */
    @State(Scope.Thread)
    public static class FreshRun {
        LaunchedRun run;

        @Setup(Level.Invocation)
        public void open(Launch l) { run = LaunchValidation.validate(l.spec).start((String) null, (Long) null).raceDetection(false); }
    }

    /** Multiply-adds done, reported by JMH as a rate per second of measured time. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long multiplyAdds;

        @Setup(Level.Iteration)
        public void reset() { multiplyAdds = 0; }
    }

    @Benchmark
    public Outcome wgmma(Launch l, FreshRun f, Counters c) {
        Outcome o = f.run.runToEnd();
        long steps = f.run.machine().steps;
        if (o != Outcome.COMPLETED || steps != l.steps) {
            throw new IllegalStateException("run ended " + o + " after " + steps + " steps; expected completed after " + l.steps);
        }
        c.multiplyAdds += f.run.machine().wgmma.multiplyAdds;
        return o;
    }

    @Benchmark
    public float plainLoop(Launch l, Counters c) {
        c.multiplyAdds += 64L * 64 * l.k;
        return multiply(l.a, l.b, l.c, l.k);
    }

    /** C = A B, 64 x K times K x 64, row-major floats, the textbook i-p-j loop order (the inner loop streams a row of B and of C). */
    static float multiply(float[] a, float[] b, float[] out, int k) {
        java.util.Arrays.fill(out, 0f);
        for (int i = 0; i < 64; i++) {
            for (int p = 0; p < k; p++) {
                float av = a[i * k + p];
                int bo = p * 64;
                int co = i * 64;
                for (int j = 0; j < 64; j++) out[co + j] += av * b[bo + j];
            }
        }
        return out[63 * 64 + 63];
    }

    /** The least CPU time {@link #main} warms up for, per launch. */
    static final long WARMUP_CPU_NS = 5_000_000_000L;

    /** One round of {@link #main}: a fresh run, then the plain multiply {@code plainReps} times; CPU times into {@code t} when not null. */
    private static float round(Launch l, String name, int plainReps, java.lang.management.ThreadMXBean mx, long[] t) {
        float sink = 0;
        LaunchedRun r = LaunchValidation.validate(l.spec).start((String) null, (Long) null).raceDetection(false);
        long t0 = mx.getCurrentThreadCpuTime();
        Outcome o = r.runToEnd();
        long t1 = mx.getCurrentThreadCpuTime();
        for (int rep = 0; rep < plainReps; rep++) sink += multiply(l.a, l.b, l.c, l.k);
        long t2 = mx.getCurrentThreadCpuTime();
        if (o != Outcome.COMPLETED || r.machine().wgmma.multiplyAdds != l.multiplyAdds) throw new IllegalStateException(name + ": " + o);
        if (t != null) {
            t[0] = t1 - t0;
            t[1] = (t2 - t1) / plainReps;
        }
        return sink;
    }

    /**
     * Both benchmarks by thread CPU time: per launch, rounds of one wgmma run and then the plain
     * multiply repeated 20 times, alternating so load drifts hit both alike; prints the median and
     * best CPU time of each and the multiply-add rates and ratio they give.
     */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        String[] names = args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length)
                : new String[] {"samples/wgmma-gemm/launch.json", "samples/wgmma-pingpong/launch.json"};
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        float sink = 0;
        for (String name : names) {
            Launch l = new Launch();
            l.launch = name;
            l.load();
            long[] run = new long[rounds];
            long[] plain = new long[rounds];
            int plainReps = 20;
            // Warm-up: rounds / 3 rounds and at least WARMUP_CPU_NS of this thread's CPU time, so a
            // short run (wgmma-gemm) is measured after the JIT has compiled it, not while it does.
            long w0 = mx.getCurrentThreadCpuTime();
            for (int i = 0; i < rounds / 3 || mx.getCurrentThreadCpuTime() - w0 < WARMUP_CPU_NS; i++) sink += round(l, name, plainReps, mx, null);
            for (int i = 0; i < rounds; i++) {
                long[] t = new long[2];
                sink += round(l, name, plainReps, mx, t);
                run[i] = t[0];
                plain[i] = t[1];
            }
            java.util.Arrays.sort(run);
            java.util.Arrays.sort(plain);
            double runMed = run[rounds / 2] / 1e9;
            double plainMed = plain[rounds / 2] / 1e9;
            System.out.printf("%s: wgmma run CPU median %.3f ms (best %.3f), %.0f M multiply-adds/s; plain loop median %.4f ms (best %.4f),"
                    + " %.0f M multiply-adds/s; ratio %.3f (best/best %.3f)%n", name, runMed * 1e3, run[0] / 1e6,
                    l.multiplyAdds / runMed / 1e6, plainMed * 1e3, plain[0] / 1e6, l.multiplyAdds / plainMed / 1e6,
                    plainMed / runMed, (double) plain[0] / run[0]);
        }
        if (sink == 1.5f) System.out.println();
    }
}
