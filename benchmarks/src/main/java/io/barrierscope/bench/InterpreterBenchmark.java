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
 * The interpreter on a barrier-heavy kernel against a plain SIMT loop executing the same
 * warp-instruction trace (see {@link SimtBaseline}). One benchmark operation is one whole run
 * of the launch; the {@code warpInstructions} and {@code threadInstructions} columns are rates
 * per second (JMH divides the counters, bumped by each run's counts, by the measured time).
 *
 * <p>Run by hand, see docs/performance.md:
 * {@code java -jar benchmarks/target/benchmarks.jar InterpreterBenchmark -wi 3 -i 5 -f 1}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InterpreterBenchmark {

    /**
     * The launch: the bundled barrier_loop kernel, the bundled long bulk-copy pipeline
     * ({@code -p launch=bundled:bulk_pipeline}), or a path to any launch file ({@code -p launch=...}).
     */
    @State(Scope.Benchmark)
    public static class Launch {
        @Param({BenchKernels.BUNDLED})
        public String launch;

        Path file;
        long steps;
        long threadInstructions;
        SimtBaseline baseline;

        @Setup(Level.Trial)
        public void load() {
            file = BenchKernels.launchFile(launch);
            LaunchedRun run = BenchKernels.verifiedRun(file);
            steps = run.machine().steps;
            threadInstructions = run.machine().threadInstructions;
            baseline = SimtBaseline.record(file);
            System.out.println();
            System.out.println("# launch " + launch + ": " + run.summary().trim());
            System.out.println("# mix per run: " + baseline.mix());
        }
    }

    /** A fresh run per invocation; loading, parsing and compiling stay outside the measured time. */
    @State(Scope.Thread)
    public static class FreshRun {
        LaunchedRun run;

        @Setup(Level.Invocation)
        // The interpreter alone: race detection (on by default) is measured by RaceBenchmark.
        public void open(Launch l) { run = LaunchValidation.validate(l.file).start().raceDetection(false); }
    }

    /** Instructions executed, reported by JMH as rates (per second of measured time). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long warpInstructions;
        public long threadInstructions;

        @Setup(Level.Iteration)
        public void reset() {
            warpInstructions = 0;
            threadInstructions = 0;
        }
    }

    @Benchmark
    public Outcome interpreter(Launch l, FreshRun f, Counters c) {
        Outcome o = f.run.runToEnd();
        long steps = f.run.machine().steps;
        if (o != Outcome.COMPLETED || steps != l.steps) {
            throw new IllegalStateException("run ended " + o + " after " + steps + " steps; expected completed after " + l.steps);
        }
        c.warpInstructions += steps;
        c.threadInstructions += f.run.machine().threadInstructions;
        return o;
    }

    @Benchmark
    public int simtBaseline(Launch l, Counters c) {
        int sum = l.baseline.run();
        c.warpInstructions += l.baseline.warpInstructions();
        c.threadInstructions += l.baseline.threadInstructions();
        return sum;
    }
}
