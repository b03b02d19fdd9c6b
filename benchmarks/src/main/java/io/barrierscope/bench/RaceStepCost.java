package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * Whether race detection's cost is fixed per run or grows with the steps: thread CPU time of
 * {@code runToEnd(k)} of a fresh launch for a few step budgets {@code k}, detection off and on,
 * interleaved (every budget and mode once per round, so load drifts hit all alike). A fixed
 * per-run cost (allocating the detector's structures, first use of its maps) would show as a gap
 * between on and off already at one step; attaching the detector is outside the timed part, as
 * in {@link RaceJarPairs}, and timed on its own (with the launch's facts computed, then cached).
 *
 * <p>{@code java -cp benchmarks/target/benchmarks.jar io.barrierscope.bench.RaceStepCost RUNS LAUNCH [STEPS...]}
 * (steps default to 1 20 100 300 and the launch's own limit).
 */
public final class RaceStepCost {
    private RaceStepCost() {}

    public static void main(String[] args) {
        int runs = Integer.parseInt(args[0]);
        String launch = args[1];
        long[] budgets = args.length > 2 ? Arrays.stream(args, 2, args.length).mapToLong(Long::parseLong).toArray()
                : new long[] {1, 20, 100, 300, Long.MAX_VALUE};
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[][][] t = new long[budgets.length][2][runs];
        long[] attachFirst = new long[runs];
        long[] attachAgain = new long[runs];
        for (int r = -runs / 2; r < runs; r++) { // the first third warms up
            for (int k = 0; k < budgets.length; k++) {
                for (int on = 0; on < 2; on++) {
                    var valid = LaunchValidation.validate(BenchKernels.launchFile(launch));
                    LaunchedRun x = valid.start();
                    long a0 = mx.getCurrentThreadCpuTime();
                    x.raceDetection(on == 1);
                    long a1 = mx.getCurrentThreadCpuTime();
                    if (on == 1 && k == 0 && r >= 0) {
                        attachFirst[r] = a1 - a0;
                        LaunchedRun y = valid.start();
                        long b0 = mx.getCurrentThreadCpuTime();
                        y.raceDetection(true);
                        attachAgain[r] = mx.getCurrentThreadCpuTime() - b0;
                    }
                    long t0 = mx.getCurrentThreadCpuTime();
                    if (budgets[k] == Long.MAX_VALUE) x.runToEnd();
                    else x.runToEnd(budgets[k]);
                    if (r >= 0) t[k][on][r] = mx.getCurrentThreadCpuTime() - t0;
                }
            }
        }
        System.out.println(launch + ", " + runs + " runs per budget and mode, thread CPU time, medians");
        for (int k = 0; k < budgets.length; k++) {
            Arrays.sort(t[k][0]);
            Arrays.sort(t[k][1]);
            long off = t[k][0][runs / 2];
            long on = t[k][1][runs / 2];
            System.out.printf("steps %-10s off %8.4f ms  on %8.4f ms  on - off %8.4f ms%n",
                    budgets[k] == Long.MAX_VALUE ? "all" : Long.toString(budgets[k]), off / 1e6, on / 1e6, (on - off) / 1e6);
        }
        Arrays.sort(attachFirst);
        Arrays.sort(attachAgain);
        System.out.printf("attach (not in the times above): first of the launch %.2f us, again %.2f us (each includes one CPU-time read)%n",
                attachFirst[runs / 2] / 1e3, attachAgain[runs / 2] / 1e3);
    }
}
