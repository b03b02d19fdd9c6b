package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
 * The cost of race detection: one complete run of a kernel with the detector on (the
 * default of {@code run}) and off, on the barrier-heavy bundled barrier_loop kernel and on the
 * mbarrier/async-copy pipelines. See docs/performance.md, "Race detection overhead".
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar RaceBenchmark -f 1} from the repository root.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RaceBenchmark {

    /** A fresh launch per invocation, detection on or off (opening and compiling are not measured). */
    @State(Scope.Thread)
    public static class Fresh {
        @Param({BenchKernels.BUNDLED, "samples/bulk-copy-pipeline/launch.json", "samples/tma-pipeline/launch.json"})
        public String launch;

        @Param({"on", "off"})
        public String race;

        Path file;
        LaunchedRun run;

        @Setup(Level.Trial)
        public void check() {
            file = BenchKernels.launchFile(launch);
            // Every kernel measured is correct: detection must find nothing and the expectation must hold.
            LaunchedRun r = LaunchValidation.validate(file).start().raceDetection(race.equals("on"));
            if (r.runToEnd() != Outcome.COMPLETED || !r.expectDifferences().isEmpty()) {
                throw new IllegalStateException(launch + " with race detection " + race + ": " + r.summary());
            }
        }

        @Setup(Level.Invocation)
        public void open() { run = LaunchValidation.validate(file).start().raceDetection(race.equals("on")); }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long run(Fresh f) {
        f.run.runToEnd();
        return f.run.machine().steps;
    }

    /**
     * A check without JMH that tolerates a loaded machine: runs with and without detection
     * alternate (so load drifts hit both alike) and the minimum and median per-run times are
     * printed. {@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.RaceBenchmark [RUNS [LAUNCH...]]}
     * (the launches default to the three of the JMH benchmark).
     */
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        String[] launches = args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length)
                : new String[] {BenchKernels.BUNDLED, "samples/bulk-copy-pipeline/launch.json", "samples/tma-pipeline/launch.json"};
        // Thread CPU time where the JVM offers it: on a shared machine it leaves out waiting for a core.
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        System.out.println("timing: " + (cpu ? "thread CPU time" : "wall time (no thread CPU time here)"));
        for (String k : launches) {
            Path file = BenchKernels.launchFile(k);
            long[][] nanos = new long[2][runs];
            long steps = 0;
            for (int i = -runs / 5; i < runs; i++) { // the first fifth warms up
                for (int on = 0; on < 2; on++) {
                    LaunchedRun r = LaunchValidation.validate(file).start().raceDetection(on == 1);
                    long t0 = cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime();
                    r.runToEnd();
                    long t = (cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime()) - t0;
                    if (i >= 0) nanos[on][i] = t;
                    steps = r.machine().steps;
                }
            }
            java.util.Arrays.sort(nanos[0]);
            java.util.Arrays.sort(nanos[1]);
            System.out.printf("%-40s %,9d warp steps | off min %8.3f ms median %8.3f ms | on min %8.3f ms median %8.3f ms"
                    + " | ratio min %.2f median %.2f%n", k, steps, nanos[0][0] / 1e6, nanos[0][runs / 2] / 1e6,
                    nanos[1][0] / 1e6, nanos[1][runs / 2] / 1e6, (double) nanos[1][0] / nanos[0][0],
                    (double) nanos[1][runs / 2] / nanos[0][runs / 2]);
        }
    }
}
