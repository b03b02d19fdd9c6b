package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.cli.Main;
import io.barrierscope.exec.Outcome;
import io.barrierscope.explore.Coverage;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The symmetric-warp reduction on the nvcc-built scenarios and the benchmark kernel: it finds every
 * cause the exhaustive search finds, each finding still replays, and it prunes where warps mirror.
 */
class SymmetryExploreTest {
    private static Explorer.Result explore(Path launch, Explorer.Options o, boolean systematicOnly) {
        Explorer ex = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L);
        ex.systematicOnly(systematicOnly);
        ex.partialOrder(false); // the symmetric-warp reduction alone (PartialOrderExploreTest: both)
        return ex.explore(o);
    }

    private static Set<String> causes(Explorer.Result r) {
        return r.findings().stream().map(Finding::cause).collect(Collectors.toCollection(TreeSet::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"explore/late-copy-hang", "explore/peer-exit-race", "explore/flag-check-deadlock",
            "races/fresh-barrier-parity-one", "races/relaxed-arrive-data", "races/remote-arrive-before-init",
            "races/stale-parity-single-slot"})
    void everyScenarioCauseIsFoundWithTheReductionAsWithoutItAndReplays(String name) throws Exception {
        Path launch = Path.of(SymmetryExploreTest.class.getResource("/" + name + "/launch.json").toURI());
        Explorer.Result on = explore(launch, new Explorer.Options(300, 0, 0, 3, 100_000, true), false);
        Explorer.Result off = explore(launch, new Explorer.Options(300, 0, 0, 3, 100_000, false), false);
        assertFalse(on.findings().isEmpty());
        assertEquals(causes(off), causes(on));
        for (Finding f : on.findings()) {
            LaunchedRun r = LaunchValidation.validate(launch).start(new SchedulePolicy(Schedule.parse(f.schedule().toString())));
            Outcome o = r.runToEnd();
            assertEquals(f.outcome(), o.jsonName(), f.schedule().toString());
            if (f.kind().equals(Finding.DIAGNOSTIC)) {
                assertTrue(r.interpreter().diagnostics().stream().anyMatch(d -> d.code().code().equals(f.code()) && d.step() == f.step()),
                        r.summary());
            } else {
                assertEquals(f.step(), r.machine().steps);
            }
        }
    }

    /**
     * Which of two symmetric consumer warps passes a fresh-parity wait first decides which of the
     * producer's two stores its index-dependent load races with, and a run stops at its first race:
     * so a run that ends in a race keeps its symmetric alternatives, and the systematic search alone (no random
     * phase, bound 2) finds the same races with the reduction as without it.
     */
    @Test
    void aRunEndingInARaceKeepsItsSymmetricAlternatives() throws Exception {
        Path launch = Path.of(SymmetryExploreTest.class.getResource("/races/fresh-barrier-parity-one/launch.json").toURI());
        Explorer.Result on = explore(launch, new Explorer.Options(10_000, 0, 0, 2, 100_000, true), true);
        Explorer.Result off = explore(launch, new Explorer.Options(10_000, 0, 0, 2, 100_000, false), true);
        assertEquals(causes(off), causes(on));
        assertTrue(causes(on).stream().filter(c -> c.startsWith("race@")).count() >= 2, causes(on).toString());
        // Not merely found at last: no later than the search without the reduction finds it.
        for (Finding f : on.findings()) {
            Finding g = off.findings().stream().filter(x -> x.cause().equals(f.cause())).findFirst().orElseThrow();
            assertTrue(f.foundAtSchedule() <= g.foundAtSchedule(), f.cause() + ": schedule #" + f.foundAtSchedule()
                    + " with the reduction, #" + g.foundAtSchedule() + " without");
        }
    }

    /** The bundled 4-warp barrier_loop (one CTA of 128 threads), here with one iteration so bound 2 is exhausted quickly. */
    private static Path barrierLoop(Path dir, int iters) throws Exception {
        Path ptx = SampleRuns.root().getParent().resolve("benchmarks/src/main/resources/kernels/barrier_loop.ptx");
        Path l = dir.resolve("launch.json");
        Files.writeString(l, """
                {"ptx": "%s", "kernel": "barrier_loop", "grid": [1, 1, 1], "block": [128, 1, 1],
                 "args": [{"buffer": "in", "type": "u32", "count": 128, "init": "iota"},
                          {"buffer": "out", "type": "u32", "count": 128, "init": "zero"},
                          {"value": %d, "type": "s32"}]}
                """.formatted(ptx.toString().replace("\\", "/"), iters));
        return l;
    }

    @Test
    void theReductionPrunesTheFourWarpBarrierLoopWithTheSameNoFindings(@TempDir Path dir) throws Exception {
        Path l = barrierLoop(dir, 1);
        Coverage on = explore(l, new Explorer.Options(100_000, 0, 0, 2, 1_000_000, true), true).coverage();
        Explorer.Result offResult = explore(l, new Explorer.Options(100_000, 0, 0, 2, 1_000_000, false), true);
        Coverage off = offResult.coverage();
        assertEquals(Coverage.EXHAUSTED, on.stoppedBy());
        assertEquals(Coverage.EXHAUSTED, off.stoppedBy());
        assertEquals(2, on.deviationBoundCompleted());
        assertTrue(offResult.findings().isEmpty(), offResult.findings().toString());
        // Measured: 571 against 3207 schedules to exhaust bound 2 (docs/performance.md).
        assertTrue(on.schedules() * 4 < off.schedules(), on.schedules() + " vs " + off.schedules());
        assertTrue(on.skippedBySymmetry() > 0 && off.skippedBySymmetry() == 0);
        assertEquals(on.decisionPoints(), off.decisionPoints());
    }

    @Test
    void theSameSeedGivesTheSameFindingsWithAndWithoutTheReduction() throws Exception {
        Path l = Path.of(SymmetryExploreTest.class.getResource("/races/fresh-barrier-parity-one/launch.json").toURI());
        for (boolean symmetry : new boolean[] {true, false}) {
            Explorer.Options o = new Explorer.Options(150, 0, 7, 2, 100_000, symmetry);
            assertEquals(explore(l, o, false), explore(l, o, false));
        }
    }

    @Test
    void theCommandLineReportsTheSkippedCountAndNoSymmetryTurnsItOff(@TempDir Path dir) throws Exception {
        // A deadlock scenario: runs that end in a race keep their symmetric alternatives (below), this one's don't race.
        Path launch = Path.of(SymmetryExploreTest.class.getResource("/explore/flag-check-deadlock/launch.json").toURI());
        JsonNode on = report(dir.resolve("on.json"), launch.toString(), "--schedules", "60");
        JsonNode off = report(dir.resolve("off.json"), launch.toString(), "--schedules", "60", "--no-symmetry");
        assertTrue(on.path("coverage").path("skippedBySymmetry").asLong() > 0, on.path("coverage").toString());
        assertTrue(on.path("coverage").path("symmetryReduction").asBoolean());
        assertEquals(0, off.path("coverage").path("skippedBySymmetry").asLong());
        assertFalse(off.path("coverage").path("symmetryReduction").asBoolean(true));
        for (JsonNode f : on.path("findings")) assertTrue(f.path("replayed").asBoolean(), f.toString());
    }

    private static JsonNode report(Path report, String... args) throws Exception {
        String[] all = new String[args.length + 3];
        all[0] = "explore";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--report";
        all[args.length + 2] = report.toString();
        StringWriter out = new StringWriter();
        assertEquals(Main.DEADLOCK, Main.execute(all, new PrintWriter(out), new PrintWriter(new StringWriter())), out.toString());
        assertTrue(out.toString().contains("skipped as symmetric warps"), out.toString());
        return new ObjectMapper().readTree(Files.readString(report));
    }
}
