package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.cli.Main;
import io.barrierscope.explore.Coverage;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
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
 * The partial-order reduction on the nvcc-built scenarios and samples with known bugs (deadlocks,
 * races, hangs, undefined behaviour) and without: the systematic search with it finds every cause
 * the search without it finds, and where neither finds anything it runs no more schedules.
 */
class PartialOrderExploreTest {
    static Path launch(String name) throws Exception {
        if (name.contains("/")) return Path.of(PartialOrderExploreTest.class.getResource("/" + name + "/launch.json").toURI());
        return SampleRuns.launch(name);
    }

    static Explorer.Result explore(Path launch, boolean por, boolean symmetry, int bound, long budget) {
        return explore(launch, por, true, symmetry, bound, budget);
    }

    /** With {@code sourceSets} off, the partial-order reduction is the sleep sets alone. */
    static Explorer.Result explore(Path launch, boolean por, boolean sourceSets, boolean symmetry, int bound, long budget) {
        Explorer ex = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L);
        ex.systematicOnly(true);
        ex.partialOrder(por);
        ex.sourceSets(sourceSets);
        return ex.explore(new Explorer.Options(budget, 0, 0, bound, 200_000, symmetry, -1));
    }

    private static Set<String> causes(Explorer.Result r) {
        return r.findings().stream().map(Finding::cause).collect(Collectors.toCollection(TreeSet::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"explore/late-copy-hang", "explore/peer-exit-race", "explore/flag-check-deadlock",
            "races/fresh-barrier-parity-one", "races/relaxed-arrive-data", "races/remote-arrive-before-init",
            "double-bar-arrive", "syncthreads-divergent", "named-barrier-two-copies"})
    void everyCauseFoundWithoutTheReductionIsFoundWithIt(String name) throws Exception {
        Path l = launch(name);
        for (boolean symmetry : new boolean[] {false, true}) {
            Explorer.Result off = explore(l, false, symmetry, 2, 20_000);
            Explorer.Result sleep = explore(l, true, false, symmetry, 2, 20_000);
            Explorer.Result on = explore(l, true, symmetry, 2, 20_000);
            assertEquals(Coverage.EXHAUSTED, off.coverage().stoppedBy(), name);
            assertFalse(off.findings().isEmpty(), name + " has a known bug");
            assertEquals(causes(off), causes(sleep), name + " sleep sets" + (symmetry ? " (with symmetry)" : ""));
            assertEquals(causes(off), causes(on), name + " source sets" + (symmetry ? " (with symmetry)" : ""));
            assertTrue(sleep.coverage().schedules() <= off.coverage().schedules(), name);
            System.out.println("por-sound " + name + " symmetry=" + symmetry + " off=" + off.coverage().schedules() + " sleep="
                    + sleep.coverage().schedules() + "/" + sleep.coverage().warpSteps() + " source=" + on.coverage().schedules() + "/"
                    + on.coverage().warpSteps() + " skipped=" + on.coverage().skippedByPartialOrder());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"double-bar-arrive-fixed", "named-producer-consumer", "peer-exits-early-fixed",
            "syncthreads-divergent-fixed", "cluster-remote-arrive", "named-barrier-two-copies-fixed"})
    void aFindingFreeSearchRunsNoMoreSchedulesWithTheReduction(String name) throws Exception {
        Path l = launch(name);
        Explorer.Result off = explore(l, false, true, 1, 20_000);
        Explorer.Result sleep = explore(l, true, false, true, 1, 20_000);
        Explorer.Result on = explore(l, true, true, 1, 20_000);
        assertEquals(Coverage.EXHAUSTED, off.coverage().stoppedBy(), name);
        assertEquals(Coverage.EXHAUSTED, on.coverage().stoppedBy(), name);
        assertEquals(causes(off), causes(on), name);
        assertEquals(causes(off), causes(sleep), name);
        assertTrue(sleep.coverage().schedules() <= off.coverage().schedules(), sleep.coverage() + " vs " + off.coverage());
        assertTrue(on.coverage().schedules() <= off.coverage().schedules(), on.coverage() + " vs " + off.coverage());
        System.out.println("por-free " + name + " off=" + off.coverage().schedules() + "/" + off.coverage().stoppedBy() + " sleep="
                + sleep.coverage().schedules() + "/" + sleep.coverage().warpSteps() + " source=" + on.coverage().schedules() + "/"
                + on.coverage().warpSteps() + " skipped=" + on.coverage().skippedByPartialOrder() + " findings=" + causes(on));
    }

    @Test
    void theCommandLineReportsTheSkippedForksAndNoPorTurnsTheReductionOff(@TempDir Path dir) throws Exception {
        Path launch = launch("explore/flag-check-deadlock");
        JsonNode on = report(dir.resolve("on.json"), launch.toString(), "--schedules", "60", "--jobs", "1");
        JsonNode off = report(dir.resolve("off.json"), launch.toString(), "--schedules", "60", "--jobs", "1", "--no-por");
        assertTrue(on.path("coverage").path("skippedByPartialOrder").asLong() > 0, on.path("coverage").toString());
        assertTrue(on.path("coverage").path("partialOrderReduction").asBoolean());
        assertEquals(0, off.path("coverage").path("skippedByPartialOrder").asLong());
        assertFalse(off.path("coverage").path("partialOrderReduction").asBoolean(true));
        assertEquals(on.path("findings").get(0).path("cause"), off.path("findings").get(0).path("cause"));
    }

    @Test
    void noSourceSetsOnTheCommandLineSearchesWithSleepSetsAloneAndFindsTheSameCause(@TempDir Path dir) throws Exception {
        Path launch = launch("explore/flag-check-deadlock");
        // The default: the bounded sleep sets; --source-sets asks for source sets.
        JsonNode def = report(dir.resolve("def.json"), launch.toString(), "--schedules", "60", "--jobs", "1");
        assertTrue(def.path("coverage").path("boundedPartialOrder").asBoolean(), def.path("coverage").toString());
        assertFalse(def.path("coverage").path("sourceSets").asBoolean(true));
        JsonNode on = report(dir.resolve("on.json"), launch.toString(), "--schedules", "60", "--jobs", "1", "--source-sets");
        JsonNode sleep = report(dir.resolve("sleep.json"), launch.toString(), "--schedules", "60", "--jobs", "1", "--no-source-sets");
        assertEquals(on.path("findings").get(0).path("cause"), def.path("findings").get(0).path("cause"));
        assertTrue(on.path("coverage").path("sourceSets").asBoolean());
        assertFalse(on.path("coverage").path("boundedPartialOrder").asBoolean(true));
        assertFalse(sleep.path("coverage").path("sourceSets").asBoolean(true));
        assertTrue(sleep.path("coverage").path("partialOrderReduction").asBoolean());
        assertTrue(sleep.path("coverage").path("skippedByPartialOrder").asLong() > 0, sleep.path("coverage").toString());
        assertEquals(on.path("findings").get(0).path("cause"), sleep.path("findings").get(0).path("cause"));
    }

    private static JsonNode report(Path report, String... args) throws Exception {
        String[] all = new String[args.length + 3];
        all[0] = "explore";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--report";
        all[args.length + 2] = report.toString();
        StringWriter out = new StringWriter();
        assertEquals(Main.DEADLOCK, Main.execute(all, new PrintWriter(out), new PrintWriter(new StringWriter())), out.toString());
        assertTrue(out.toString().contains("forks skipped as reorderings of independent steps"), out.toString());
        return new ObjectMapper().readTree(Files.readString(report));
    }
}
