package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ValidatedLaunch;
import java.nio.file.Path;

/**
 * How {@code explore --jobs N} scales: the same search with 1, 2, ... N jobs, wall time and
 * schedules per second each, where each thread's time went ({@link io.barrierscope.explore.JobStats}),
 * and a check that every N gives the result of one job. Searches: the 4-warp barrier_loop (124
 * iterations; 10,068 warp steps a schedule) exhausting deviation bound 1, and a budget of 2,000
 * schedules (systematic then random) on a sample given as an argument. A plain main, as ExploreBenchmark: seconds-long deterministic searches. Usage: java
 * -cp benchmarks.jar io.barrierscope.bench.ExploreJobsBenchmark [MAX_JOBS=2] [LAUNCH...]
 */
public final class ExploreJobsBenchmark {
    private ExploreJobsBenchmark() {}

    public static void main(String[] args) throws Exception {
        int maxJobs = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        Path kernel = ExploreBenchmark.fourWarpKernel(124);
        measure("barrier_loop 4 warps, iters 124, exhaust bound 1", kernel, new Explorer.Options(100_000, 0, 0, 1, 10_000_000, true, -1),
                true, maxJobs);
        for (int i = 1; i < args.length; i++) {
            measure(args[i] + ", budget 2000, bound 3", Path.of(args[i]), new Explorer.Options(2_000, 0, 0, 3, 10_000_000, true, -1), false,
                    maxJobs);
        }
    }

    /** Milliseconds all collectors have spent so far (stop-the-world and concurrent, as the JVM counts them). */
    private static long gcMillis() {
        long t = 0;
        for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, b.getCollectionTime());
        }
        return t;
    }

    private static void measure(String what, Path launch, Explorer.Options o, boolean systematicOnly, int maxJobs) {
        Explorer.Result first = null;
        double base = 0;
        for (int round = 0; round < 2; round++) { // the first round warms the JIT up
            for (int jobs = 1; jobs <= maxJobs; jobs++) {
                // As explore does: copies started from the one validated launch (they share its Program, so its checkpoints);
                // -Dbench.separateCopies=true validates each on its own (workers then replay for checkpoints of their own).
                ValidatedLaunch v = LaunchValidation.validate(launch);
                Explorer ex = new Explorer(v.start(new SchedulePolicy()), () -> 0L);
                ex.jobs(jobs, () -> Boolean.getBoolean("bench.separateCopies") ? LaunchValidation.validate(launch).start(new SchedulePolicy())
                        : v.start(new SchedulePolicy()));
                ex.systematicOnly(systematicOnly);
                long gc0 = gcMillis();
                long t0 = System.nanoTime();
                Explorer.Result r = ex.explore(o);
                double s = (System.nanoTime() - t0) / 1e9;
                long gc = gcMillis() - gc0;
                if (first == null) first = r;
                else if (!first.equals(r)) throw new IllegalStateException(jobs + " jobs gave another result: " + r.coverage());
                if (jobs == 1) base = s;
                if (round == 1) {
                    System.out.printf("%s: %d jobs, %d schedules (%d pruned) in %.2f s = %.0f schedules/s, speed-up %.2fx%n", what, jobs,
                            r.coverage().schedules(), r.coverage().prunedByState(), s, r.coverage().schedules() / s, base / s);
                    System.out.printf("    %s; GC %d ms%n", ex.jobStats().summary(), gc);
                }
            }
        }
    }
}
