package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.launch.LaunchedRun;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The interpreter's rate by thread CPU time instead of wall time, for a machine shared with other
 * jobs (JMH's wall-clock rates swing with the load; the thread's own CPU time much less). Runs of
 * the given launches alternate, one run of each per round, so load drifts hit all of them alike;
 * opening and compiling are outside the timed part, as in {@link InterpreterBenchmark}. Prints per
 * launch the median and minimum CPU time of one {@code runToEnd} and the warp-instruction rate
 * they give (race detection off).
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.CpuTimeCheck [ROUNDS] [LAUNCH...]}
 * (default 300 rounds after 100 warm-up rounds; launches default to the bulk-copy sample and the
 * bundled long pipeline; a launch is a path or a bundled name as in {@link BenchKernels}).
 */
public final class CpuTimeCheck {
    private CpuTimeCheck() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        String[] names = args.length > 1 ? Arrays.copyOfRange(args, 1, args.length)
                : new String[] {"samples/bulk-copy-pipeline/launch.json", BenchKernels.BULK_PIPELINE};
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Path[] files = new Path[names.length];
        long[] steps = new long[names.length];
        for (int k = 0; k < names.length; k++) {
            files[k] = BenchKernels.launchFile(names[k]);
            steps[k] = BenchKernels.verifiedRun(files[k]).machine().steps;
        }
        long[][] cpu = new long[names.length][rounds];
        long[][] wall = new long[names.length][rounds];
        int warm = Math.max(1, rounds / 3);
        for (int i = -warm; i < rounds; i++) {
            for (int k = 0; k < names.length; k++) {
                LaunchedRun r = LaunchValidation.validate(files[k]).start().raceDetection(false);
                long c0 = mx.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                r.runToEnd();
                long t = System.nanoTime() - t0;
                long c = mx.getCurrentThreadCpuTime() - c0;
                if (r.machine().steps != steps[k]) throw new IllegalStateException(names[k] + ": steps changed");
                if (i >= 0) {
                    cpu[k][i] = c;
                    wall[k][i] = t;
                }
            }
        }
        System.out.printf("%d rounds after %d warm-up rounds; rates by thread CPU time (wall time for comparison)%n", rounds, warm);
        for (int k = 0; k < names.length; k++) {
            Arrays.sort(cpu[k]);
            Arrays.sort(wall[k]);
            long med = cpu[k][rounds / 2];
            long min = cpu[k][0];
            long wmed = wall[k][rounds / 2];
            System.out.printf("%-42s %,9d warp steps | cpu median %9.3f ms (%6.2f M warp-instr/s), min %9.3f ms (%6.2f M/s)"
                            + " | wall median %9.3f ms (%6.2f M/s)%n", names[k], steps[k], med / 1e6, steps[k] * 1e3 / med,
                    min / 1e6, steps[k] * 1e3 / min, wmed / 1e6, steps[k] * 1e3 / wmed);
        }
    }
}
