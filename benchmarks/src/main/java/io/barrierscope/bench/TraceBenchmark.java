package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.exec.SplitMix64;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Recording and time travel: the cost of recording a run, and how long a seek and a
 * reverse step take on a trace of more than 10 M events. Race detection (measured by
 * RaceBenchmark) is off throughout, so the numbers are the recorder's and the checkpoints' own.
 * See docs/performance.md.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar TraceBenchmark -f 1}
 */
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
public class TraceBenchmark {

    /** The bundled barrier_loop launch (32 warps, barrier-heavy), with a chosen iteration count. */
    static LaunchSpec barrierLoop(long iters) {
        Path file = BenchKernels.launchFile(BenchKernels.BUNDLED);
        LaunchSpec s = LaunchValidation.validate(file).spec();
        List<ArgSpec> args = new ArrayList<>(s.args());
        ArgSpec it = args.get(2);
        args.set(2, new ArgSpec(null, it.type(), 0, null, null, iters));
        return new LaunchSpec(s.file(), s.ptx(), s.kernel(), s.grid(), s.block(), s.cluster(), args, s.dynamicSharedBytes(),
                iters == 200 ? s.expect() : null, s.policy(), s.seed(), Long.MAX_VALUE / 4, s.notes(), s.buffers());
    }

    /** A fresh launch per invocation (opening and compiling are not measured). */
    @State(Scope.Thread)
    public static class Fresh {
        LaunchSpec spec = barrierLoop(200);
        LaunchedRun run;

        @Setup(Level.Invocation)
        public void open() { run = LaunchValidation.validate(spec).start(null, null).raceDetection(false); }
    }

    /** The baseline: the same run with nothing listening. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public long unrecorded(Fresh f) {
        f.run.runToEnd();
        return f.run.machine().steps;
    }

    /** The same run recorded: events, checkpoints every {@link TimeTravel#INTERVAL} steps, state hashes, breakpoints listening. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public long recorded(Fresh f) {
        TimeTravel tt = new TimeTravel(f.run);
        tt.runForward(() -> false);
        return tt.recording().events();
    }

    /** A session over a run of more than 10 M events, recorded once. */
    @State(Scope.Benchmark)
    public static class Big {
        TimeTravel tt;
        long steps;
        SplitMix64 rng = new SplitMix64(42);

        @Setup(Level.Trial)
        public void record() {
            LaunchedRun run = LaunchValidation.validate(barrierLoop(12_500)).start(null, null).raceDetection(false);
            tt = new TimeTravel(run);
            tt.runForward(() -> false);
            steps = tt.now();
            var r = tt.recording();
            System.out.printf("%n# big trace: %,d warp steps, %,d events, %,d bytes (%.2f bytes/event), %d checkpoints (%,d KiB)%n",
                    steps, r.events(), r.bytes(), (double) r.bytes() / r.events(), tt.checkpoints().size(),
                    tt.checkpoints().bytes() >> 10);
            if (r.events() < 10_000_000) throw new IllegalStateException("the big trace has only " + r.events() + " events");
        }
    }

    /** Seek to a uniformly random step of the big trace (from wherever the previous seek left it). */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2, time = 3)
    @Measurement(iterations = 5, time = 4)
    public long seekAnywhere(Big b) {
        long target = (b.rng.nextLong() >>> 1) % (b.steps + 1);
        return b.tt.seek(target).step();
    }

    /** A random position of the big trace, reached before the measured reverse step. */
    @State(Scope.Thread)
    public static class Positioned {
        @Setup(Level.Invocation)
        public void position(Big b) {
            long target = 1 + (b.rng.nextLong() >>> 1) % b.steps;
            b.tt.seek(target);
        }
    }

    /** One warp step back from a random position. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2, time = 3)
    @Measurement(iterations = 5, time = 4)
    public long reverseStep(Big b, Positioned p) {
        return b.tt.stepBack().step();
    }

    /** Reverse steps in a row, as someone stepping back through a hang does (the second one on benefits from the first). */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 2, time = 3)
    @Measurement(iterations = 5, time = 4)
    public long reverseStepRepeated(Big b) {
        if (b.tt.now() < 2) b.tt.seek(b.steps);
        return b.tt.stepBack().step();
    }

    /**
     * The first reverse steps after a long recorded run, race detection on (the window's default):
     * the first re-executes from the last frontier checkpoint and leaves fine ones near it, so the
     * next are short. Ends of runs at several distances past a checkpoint.
     * {@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.TraceBenchmark back}
     */
    static void firstStepsBack() {
        for (int round = 0; round < 2; round++) { // the first round warms up
            for (long iterations = 2000; iterations <= 2050; iterations += 10) {
                TimeTravel tt = new TimeTravel(LaunchValidation.validate(barrierLoop(iterations)).start(null, null));
                tt.runForward(() -> false);
                long end = tt.now();
                long t0 = System.nanoTime();
                tt.stepBack();
                long t1 = System.nanoTime();
                tt.stepBack();
                long t2 = System.nanoTime();
                if (round == 1) {
                    System.out.printf("end at step %,d (%,d past a checkpoint): first step back %.1f ms, second %.2f ms%n", end,
                            end % tt.interval(), (t1 - t0) / 1e6, (t2 - t1) / 1e6);
                }
            }
        }
    }

    /**
     * The recording overhead by thread CPU time, which a shared machine disturbs less than wall
     * time: runs with and without a recording session alternate (so load drifts hit both alike),
     * and the medians and lower quartiles are compared. Race detection is off in both unless the
     * second argument is {@code race} (the default of {@code run} and the window: it makes the
     * unrecorded run about 1.7x longer, so the same recording cost is a smaller share).
     * The third argument sets barrier_loop's iterations (200 by default: 129,632 warp steps; 2000
     * make a run ten times longer, so the checkpoints taken along the way weigh as in long runs).
     * {@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.TraceBenchmark [RUNS [race|norace [ITERATIONS]]]}
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("back")) {
            firstStepsBack();
            return;
        }
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        boolean race = args.length > 1 && args[1].equals("race");
        long iterations = args.length > 2 ? Long.parseLong(args[2]) : 200;
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        LaunchSpec spec = barrierLoop(iterations);
        long[][] nanos = new long[2][runs];
        long events = 0;
        for (int i = -runs / 3; i < runs; i++) { // the first third warms up
            for (int rec = 0; rec < 2; rec++) {
                LaunchedRun r = LaunchValidation.validate(spec).start(null, null).raceDetection(race);
                long t0 = cpu.getCurrentThreadCpuTime();
                if (rec == 0) {
                    r.runToEnd();
                } else {
                    TimeTravel tt = new TimeTravel(r);
                    tt.runForward(() -> false);
                    events = tt.recording().events();
                }
                long t = cpu.getCurrentThreadCpuTime() - t0;
                if (i >= 0) nanos[rec][i] = t;
            }
        }
        java.util.Arrays.sort(nanos[0]);
        java.util.Arrays.sort(nanos[1]);
        System.out.printf("barrier_loop x%d, race detection %s, %,d events recorded | unrecorded p25 %.3f ms median %.3f ms | recorded p25 %.3f ms"
                + " median %.3f ms | overhead p25 %+.1f%% median %+.1f%%%n", iterations, race ? "on" : "off", events, nanos[0][runs / 4] / 1e6,
                nanos[0][runs / 2] / 1e6, nanos[1][runs / 4] / 1e6, nanos[1][runs / 2] / 1e6,
                100.0 * (nanos[1][runs / 4] - nanos[0][runs / 4]) / nanos[0][runs / 4],
                100.0 * (nanos[1][runs / 2] - nanos[0][runs / 2]) / nanos[0][runs / 2]);
    }
}
