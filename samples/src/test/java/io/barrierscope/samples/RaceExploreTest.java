package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** `explore` finds each race scenario of the bug catalogue once, and its schedule replays the race. */
class RaceExploreTest {
    private static final Explorer.Options SMALL = new Explorer.Options(200, 0, 0, 3, 100_000);

    @ParameterizedTest
    @ValueSource(strings = {"fresh-barrier-parity-one", "relaxed-arrive-data", "remote-arrive-before-init", "stale-parity-single-slot"})
    void exploreFindsTheRaceAndEachFindingsScheduleReplaysIt(String name) throws Exception {
        Path launch = Path.of(RaceExploreTest.class.getResource("/races/" + name + "/launch.json").toURI());
        Explorer.Result r = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L).explore(SMALL);
        // An unpublished mbarrier init used by a peer CTA has its own code (docs/semantics.md section 13).
        List<Finding> races = r.findings().stream().filter(f -> f.code().equals("race") || f.code().equals("mbarrier-init-not-fenced")).toList();
        assertTrue(!races.isEmpty(), () -> "findings: " + r.findings());
        // One finding per cause: the copies nvcc makes of one source line for different warps are one cause.
        assertEquals(races.size(), races.stream().map(Finding::cause).distinct().count());
        for (Finding f : races) {
            assertTrue(f.cause().contains("kernel.cu:"), f.cause());
            LaunchedRun replay = LaunchValidation.validate(launch).start(new SchedulePolicy(Schedule.parse(f.schedule().toString())));
            assertEquals(Outcome.DIAGNOSED, replay.runToEnd());
            assertTrue(replay.interpreter().diagnostics().stream().anyMatch(d -> d.code().code().equals(f.code()) && d.step() == f.step()),
                    replay.summary());
        }
    }
}
