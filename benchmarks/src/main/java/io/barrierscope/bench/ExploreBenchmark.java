package io.barrierscope.bench;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.explore.Coverage;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Exploration speed: schedules per second on a 4-warp kernel of about 10k warp
 * instructions (the bundled barrier_loop kernel on one CTA of 128 threads; target >= 100/s), and
 * the wall time `explore` needs to find each scenario of the explore tests (target < 10 s), and
 * what the symmetric-warp reduction saves: schedules to exhaust deviation bound 1, 2, 3 with
 * and without it, and the same for the partial-order reduction. A plain main, not JMH: a search is
 * seconds long, and its own determinism makes the schedule count exact. Usage: java -cp
 * benchmarks.jar io.barrierscope.bench.ExploreBenchmark [REPO_ROOT] [--symmetry-only | --por-only | --many-warps | --por-throughput |
 * --source-sets-throughput | --bounded-por] (--bounded-por: schedules to exhaust a bound with the rule sound within it,
 * source sets and no reduction; --por-throughput: the partial-order reduction's cost per schedule, by thread CPU time;
 * --source-sets-throughput: the same for source sets against sleep sets alone).
 */
public final class ExploreBenchmark {
    private ExploreBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 && !args[0].startsWith("--") ? args[0] : ".").toAbsolutePath();
        boolean symmetryOnly = List.of(args).contains("--symmetry-only");
        boolean porOnly = List.of(args).contains("--por-only");
        if (List.of(args).contains("--por-throughput")) {
            partialOrderThroughput();
            return;
        }
        if (List.of(args).contains("--many-warps")) {
            // Past 64 warps (source sets used to fall back to sleep sets alone there): 9 CTAs of 8 warps.
            compare("barrier_loop 72 warps (9 CTAs), iters 1", manyWarpKernel(9, 1), 1);
            return;
        }
        if (List.of(args).contains("--bounded-por")) {
            boundedPartialOrder(root);
            return;
        }
        if (List.of(args).contains("--source-sets-throughput")) {
            sourceSetsThroughput();
            return;
        }
        if (!symmetryOnly && !porOnly) throughputAndTimeToFind(root);
        if (!porOnly) symmetry();
        if (!symmetryOnly) partialOrder(root);
    }

    /**
     * Schedules the systematic phase needs to exhaust each bound with the partial-order reduction
     * and without (--no-por), the symmetric-warp reduction on in both: the 4-warp barrier_loop and
     * a few samples and scenarios (budget 200,000; a search the budget cut says so).
     */
    private static void partialOrder(Path root) throws Exception {
        int[][] cases = {{1, 1}, {1, 2}, {1, 3}, {4, 1}, {4, 2}, {124, 1}};
        for (int[] c : cases) compare("barrier_loop 4 warps, iters " + c[0], fourWarpKernel(c[0]), c[1]);
        String[][] samples = {{"samples/src/test/resources/explore/flag-check-deadlock", "3"},
            {"samples/src/test/resources/explore/late-copy-hang", "2"}, {"samples/src/test/resources/races/fresh-barrier-parity-one", "2"},
            {"samples/block-reduce", "2"}, {"samples/named-producer-consumer", "2"}, {"samples/double-bar-arrive-fixed", "2"},
            {"samples/fa3-pingpong", "1"}, {"samples/mbarrier-parity-pipeline", "1"}};
        for (String[] x : samples) compare(x[0], root.resolve(x[0]).resolve("launch.json"), Integer.parseInt(x[1]));
    }

    /** The kernels and bounds of {@link #partialOrder}, with the rule sound within the bound against source sets and no POR. */
    private static void boundedPartialOrder(Path root) throws Exception {
        int[][] cases = {{1, 1}, {1, 2}, {1, 3}, {4, 1}, {4, 2}, {124, 1}};
        for (int[] c : cases) compareBounded("barrier_loop 4 warps, iters " + c[0], fourWarpKernel(c[0]), c[1]);
        String[][] samples = {{"samples/src/test/resources/explore/flag-check-deadlock", "3"},
            {"samples/src/test/resources/explore/late-copy-hang", "2"}, {"samples/src/test/resources/races/fresh-barrier-parity-one", "2"},
            {"samples/block-reduce", "2"}, {"samples/named-producer-consumer", "2"}, {"samples/double-bar-arrive-fixed", "2"},
            {"samples/fa3-pingpong", "1"}, {"samples/mbarrier-parity-pipeline", "1"}};
        for (String[] x : samples) compareBounded(x[0], root.resolve(x[0]).resolve("launch.json"), Integer.parseInt(x[1]));
    }

    /**
     * Source sets, the sleep sets sound within the bound ({@code --bounded-por}), the older rule
     * that only skips forks into an independent remainder, and no reduction ({@code --no-por});
     * {@code -Dbench.modes=0,1} runs only those (all four by default).
     */
    private static void compareBounded(String name, Path launch, int bound) {
        String[] mode = {"source sets", "bounded sleep sets", "independent remainder", "no POR"};
        String only = System.getProperty("bench.modes", "0,1,2,3");
        StringBuilder line = new StringBuilder(String.format("%s, exhaust bound %d:", name, bound));
        for (int i = 0; i < 4; i++) {
            if (!List.of(only.split(",")).contains(String.valueOf(i))) continue;
            Explorer ex = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L);
            ex.systematicOnly(true);
            ex.partialOrder(i < 3);
            ex.boundedPartialOrder(i == 1 || i == 2);
            ex.boundedSleepSets(i == 1);
            long t0 = System.nanoTime();
            Explorer.Result r = ex.explore(new Explorer.Options(200_000, 0, 0, bound, 10_000_000, true, -1));
            double s = (System.nanoTime() - t0) / 1e9;
            line.append(String.format(" %s %d schedules (%s, %d warp steps, %d skipped, %d blocked, %d pruned, %.1f s, causes %s);", mode[i],
                    r.coverage().schedules(), r.coverage().stoppedBy(), r.coverage().warpSteps(), r.coverage().skippedByPartialOrder(),
                    ex.blockedRuns(), r.coverage().prunedByState(), s, r.findings().stream().map(Finding::cause).toList()));
            System.out.println(line);
            line = new StringBuilder("  ");
        }
    }

    /**
     * Schedules per second of thread CPU time (steadier than wall time on a shared machine) on the
     * throughput kernel (124 iterations, bound 1, exhausted, one job) with the partial-order
     * reduction and without (--no-por), alternating; the first rounds warm the JIT up.
     */
    private static void partialOrderThroughput() throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Path launch = fourWarpKernel(124);
        for (int round = 0; round < 5; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int i = 0; i < 2; i++) {
                boolean on = i == 0;
                Explorer ex = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L);
                ex.systematicOnly(true);
                ex.partialOrder(on);
                long c0 = mx.getCurrentThreadCpuTime();
                Explorer.Result r = ex.explore(new Explorer.Options(200_000, 0, 0, 1, 10_000_000, true, -1));
                double s = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
                long n = r.coverage().schedules();
                line.append(String.format(" %s %d schedules in %.2f s CPU = %.0f schedules/s;", on ? "POR" : "no POR", n, s, n / s));
            }
            System.out.println(line);
        }
    }

    /**
     * The throughput kernel (124 iterations, bound 1, exhausted) by thread CPU time of the
     * exploring thread, source sets against sleep sets alone (the same 749 schedules), alternating;
     * the first rounds warm the JIT up.
     */
    private static void sourceSetsThroughput() throws Exception {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Path launch = fourWarpKernel(124);
        for (int round = 0; round < 5; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int i = 0; i < 2; i++) {
                Explorer ex = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L);
                ex.systematicOnly(true);
                ex.sourceSets(i == 0);
                long c0 = mx.getCurrentThreadCpuTime();
                Explorer.Result r = ex.explore(new Explorer.Options(200_000, 0, 0, 1, 10_000_000, true, -1));
                double s = (mx.getCurrentThreadCpuTime() - c0) / 1e9;
                line.append(String.format(" %s %d schedules, %d warp steps in %.2f s CPU;", i == 0 ? "source sets" : "sleep sets alone",
                        r.coverage().schedules(), r.coverage().warpSteps(), s));
            }
            System.out.println(line);
        }
    }

    /** Source sets (the default), the sleep sets alone, and no partial-order reduction (--no-por). */
    private static void compare(String name, Path launch, int bound) {
        long[] n = new long[3];
        String[] mode = {"source sets", "sleep sets", "no POR"};
        StringBuilder line = new StringBuilder(String.format("%s, exhaust bound %d:", name, bound));
        for (int i = 0; i < 3; i++) {
            Explorer ex = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L);
            ex.systematicOnly(true);
            ex.partialOrder(i < 2);
            ex.sourceSets(i == 0);
            long t0 = System.nanoTime();
            Explorer.Result r = ex.explore(new Explorer.Options(200_000, 0, 0, bound, 10_000_000, true, -1));
            double s = (System.nanoTime() - t0) / 1e9;
            n[i] = r.coverage().schedules();
            line.append(String.format(" %s %d schedules (%s, %d warp steps, %d skipped, %d blocked, %d pruned, %.1f s, causes %s);", mode[i],
                    n[i], r.coverage().stoppedBy(), r.coverage().warpSteps(), r.coverage().skippedByPartialOrder(), ex.blockedRuns(),
                    r.coverage().prunedByState(), s, r.findings().stream().map(Finding::cause).toList()));
        }
        System.out.println(line);
    }

    private static void throughputAndTimeToFind(Path root) throws Exception {
        Path launch = fourWarpKernel(124);
        LaunchedRun probe = LaunchValidation.validate(launch).start(new SchedulePolicy());
        probe.runToEnd();
        System.out.printf("kernel: barrier_loop, 1 CTA x 128 threads (4 warps), %d warp steps, %d thread instructions%n",
                probe.machine().steps, probe.machine().threadInstructions);
        for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
            LaunchedRun run = LaunchValidation.validate(launch).start(new SchedulePolicy());
            long t0 = System.nanoTime();
            Explorer.Result r = new Explorer(run, () -> 0L).explore(new Explorer.Options(1000, 0, 0, 3, 10_000_000));
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("round %d: %d schedules (%d systematic, %d pruned, %d skipped as symmetric, %d random) in %.2f s = "
                    + "%.0f schedules/s, %.1f M warp steps/s, findings %d%n", round, r.coverage().schedules(), r.coverage().systematic(),
                    r.coverage().prunedByState(), r.coverage().skippedBySymmetry(), r.coverage().random(), s, r.coverage().schedules() / s,
                    r.coverage().warpSteps() / s / 1e6, r.findings().size());
        }
        for (String name : List.of("late-copy-hang", "peer-exit-race", "flag-check-deadlock")) {
            Path l = root.resolve("samples/src/test/resources/explore/" + name + "/launch.json");
            Explorer.Options all = new Explorer.Options(5000, 0, 0, 3, 100_000);
            Explorer.Result r = new Explorer(LaunchValidation.validate(l).start(new SchedulePolicy()), () -> 0L).explore(all);
            if (r.findings().isEmpty()) {
                System.out.printf("%s: NOT FOUND in %d schedules%n", name, r.coverage().schedules());
                continue;
            }
            // Again with a clock, from opening the launch: the search is deterministic, so the same finding at the same schedule.
            long t0 = System.nanoTime();
            Explorer ex = new Explorer(LaunchValidation.validate(l).start(new SchedulePolicy()), () -> System.nanoTime() / 1000);
            double openMs = (System.nanoTime() - t0) / 1e6;
            Finding f = ex.explore(all).findings().get(0);
            double ms = openMs + ex.foundAfter(f) / 1e3;
            System.out.printf("%s: found %s at schedule #%d after %.1f ms (%s)%n", name, f.code(), f.foundAtSchedule(), ms, f.schedule());
        }
    }

    /**
     * Schedules the systematic phase needs to exhaust each deviation bound on the 4-warp
     * barrier_loop, with the symmetric-warp reduction and without (--no-symmetry): the whole
     * kernel with one iteration up to bound 3, and the throughput kernel (124 iterations) at bound 1
     * (its bound 2 is about a million schedules without the reduction).
     */
    private static void symmetry() throws Exception {
        int[][] cases = {{1, 1}, {1, 2}, {1, 3}, {4, 1}, {4, 2}, {124, 1}};
        for (int[] c : cases) {
            long[] n = new long[2];
            StringBuilder line = new StringBuilder(String.format("barrier_loop 4 warps, iters %d, exhaust bound %d:", c[0], c[1]));
            for (int i = 0; i < 2; i++) {
                boolean on = i == 0;
                Explorer ex = new Explorer(LaunchValidation.validate(fourWarpKernel(c[0])).start(new SchedulePolicy()), () -> 0L);
                ex.systematicOnly(true);
                ex.partialOrder(false); // the symmetric-warp reduction alone
                long t0 = System.nanoTime();
                Explorer.Result r = ex.explore(new Explorer.Options(2_000_000, 0, 0, c[1], 10_000_000, on));
                double s = (System.nanoTime() - t0) / 1e9;
                if (!r.coverage().stoppedBy().equals(Coverage.EXHAUSTED)) throw new IllegalStateException("not exhausted: " + r.coverage());
                n[i] = r.coverage().schedules();
                line.append(String.format(" %s %d schedules (%d skipped, %d pruned, %.1f s, findings %d);", on ? "with" : "without",
                        n[i], r.coverage().skippedBySymmetry(), r.coverage().prunedByState(), s, r.findings().size()));
            }
            System.out.println(line.append(String.format(" %.1fx fewer", (double) n[1] / n[0])));
        }
    }

    /** The bundled barrier_loop kernel as {@code ctas} CTAs of 256 threads (8 warps each: the kernel's BLOCK). */
    static Path manyWarpKernel(int ctas, int iters) throws Exception {
        Path dir = BenchKernels.launchFile(BenchKernels.BUNDLED).getParent();
        Path l = dir.resolve("launch-" + ctas + "ctas.json");
        Files.writeString(l, """
                {"ptx": "barrier_loop.ptx", "kernel": "barrier_loop", "grid": [%d, 1, 1], "block": [256, 1, 1],
                 "args": [{"buffer": "in", "type": "u32", "count": %d, "init": "iota"},
                          {"buffer": "out", "type": "u32", "count": %d, "init": "zero"},
                          {"value": %d, "type": "s32"}]}
                """.formatted(ctas, 256 * ctas, 256 * ctas, iters));
        l.toFile().deleteOnExit();
        return l;
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
