package io.barrierscope.bench;

import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Exploration speed (issue 6): schedules per second on a 4-warp kernel of about 10k warp
 * instructions (the bundled barrier_loop kernel on one CTA of 128 threads; target >= 100/s), and
 * the wall time `explore` needs to find each scenario of the explore tests (target < 10 s).
 * A plain main, not JMH: a search is seconds long, and its own determinism makes the schedule
 * count exact. Usage: java -cp benchmarks.jar io.barrierscope.bench.ExploreBenchmark [REPO_ROOT]
 */
public final class ExploreBenchmark {
    private ExploreBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath();
        Path launch = fourWarpKernel(124);
        LaunchedRun probe = LaunchedRun.open(launch, new SchedulePolicy());
        probe.runToEnd();
        System.out.printf("kernel: barrier_loop, 1 CTA x 128 threads (4 warps), %d warp steps, %d thread instructions%n",
                probe.machine().steps, probe.machine().threadInstructions);
        for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
            LaunchedRun run = LaunchedRun.open(launch, new SchedulePolicy());
            long t0 = System.nanoTime();
            Explorer.Result r = new Explorer(run, () -> 0L).explore(new Explorer.Options(1000, 0, 0, 3, 10_000_000));
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("round %d: %d schedules (%d systematic, %d pruned, %d random) in %.2f s = %.0f schedules/s, "
                    + "%.1f M warp steps/s, findings %d%n", round, r.coverage().schedules(), r.coverage().systematic(),
                    r.coverage().prunedByState(), r.coverage().random(), s, r.coverage().schedules() / s,
                    r.coverage().warpSteps() / s / 1e6, r.findings().size());
        }
        for (String name : List.of("late-copy-hang", "peer-exit-race", "flag-check-deadlock")) {
            Path l = root.resolve("samples/src/test/resources/explore/" + name + "/launch.json");
            Explorer.Options all = new Explorer.Options(5000, 0, 0, 3, 100_000);
            Explorer.Result r = new Explorer(LaunchedRun.open(l, new SchedulePolicy()), () -> 0L).explore(all);
            if (r.findings().isEmpty()) {
                System.out.printf("%s: NOT FOUND in %d schedules%n", name, r.coverage().schedules());
                continue;
            }
            // Again with a clock, from opening the launch: the search is deterministic, so the same finding at the same schedule.
            long t0 = System.nanoTime();
            Explorer ex = new Explorer(LaunchedRun.open(l, new SchedulePolicy()), () -> System.nanoTime() / 1000);
            double openMs = (System.nanoTime() - t0) / 1e6;
            Finding f = ex.explore(all).findings().get(0);
            double ms = openMs + ex.foundAfter(f) / 1e3;
            System.out.printf("%s: found %s at schedule #%d after %.1f ms (%s)%n", name, f.code(), f.foundAtSchedule(), ms, f.schedule());
        }
    }

    /** The bundled barrier_loop kernel relaunched as one CTA of 4 warps. */
    static Path fourWarpKernel(int iters) throws Exception {
        Path dir = BenchKernels.launchFile(BenchKernels.BUNDLED).getParent();
        Path l = dir.resolve("launch-4warps.json");
        Files.writeString(l, """
                {"ptx": "barrier_loop.ptx", "kernel": "barrier_loop", "grid": [1, 1, 1], "block": [128, 1, 1],
                 "args": [{"buffer": "in", "type": "u32", "count": 128, "init": "iota"},
                          {"buffer": "out", "type": "u32", "count": 128, "init": "zero"},
                          {"value": %d, "type": "s32"}]}
                """.formatted(iters));
        l.toFile().deleteOnExit();
        return l;
    }
}
