package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.cli.Main;
import io.barrierscope.exec.Outcome;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `explore` finds bugs that only some schedules show, and each finding's schedule replays it. */
class ExploreTest {
    private static final Explorer.Options SMALL = new Explorer.Options(300, 0, 0, 3, 100_000);

    private static Path launch(String name) throws Exception {
        return Path.of(ExploreTest.class.getResource("/explore/" + name + "/launch.json").toURI());
    }

    private static Explorer.Result explore(Path launch, Explorer.Options o) {
        LaunchedRun run = LaunchValidation.validate(launch).start(new SchedulePolicy());
        return new Explorer(run, () -> 0L).explore(o);
    }

    private static Finding only(Explorer.Result r, String code) {
        List<Finding> fs = r.findings().stream().filter(f -> f.code().equals(code)).toList();
        assertEquals(1, fs.size(), () -> "findings: " + r.findings());
        return fs.get(0);
    }

    /** Plain runs: round-robin misses the bug (so does every seed listed). */
    private static void missedByPlainRuns(Path launch) {
        LaunchedRun rr = LaunchValidation.validate(launch).start("round-robin", 0L);
        assertEquals(Outcome.COMPLETED, rr.runToEnd(), rr.summary());
        assertTrue(rr.interpreter().diagnostics().isEmpty(), rr.summary());
        for (long seed = 1; seed <= 3; seed++) {
            LaunchedRun r = LaunchValidation.validate(launch).start("random", seed);
            assertEquals(Outcome.COMPLETED, r.runToEnd(), "random seed " + seed + ": " + r.summary());
        }
    }

    /** Replays the finding's schedule through the command line and a fresh run: same failure, same step. */
    private static void replays(Path launch, Finding f, Outcome outcome, int exit) {
        LaunchedRun r = LaunchValidation.validate(launch).start(new SchedulePolicy(Schedule.parse(f.schedule().toString())));
        assertEquals(outcome, r.runToEnd());
        if (outcome == Outcome.DIAGNOSED) {
            assertTrue(r.interpreter().diagnostics().stream().anyMatch(d -> d.code().code().equals(f.code()) && d.step() == f.step()),
                    r.summary());
        } else {
            assertEquals(f.step(), r.machine().steps);
        }
        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"run", launch.toString(), "--schedule", f.schedule().toString()},
                new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertEquals(exit, code, out.toString());
    }

    @Test
    void aHangOnlyALateAsyncCopyCausesIsFoundAndReplays() throws Exception {
        Path l = launch("late-copy-hang");
        missedByPlainRuns(l);
        Finding f = only(explore(l, SMALL), "deadlock");
        assertTrue(f.schedule().toString().contains("a" + SchedulePolicy.LATE_LATENCY), f.schedule().toString());
        replays(l, f, Outcome.DEADLOCK, Main.DEADLOCK);
    }

    @Test
    void aPeerCtaExitingWhileItsSharedMemoryIsReadIsFoundAndReplays() throws Exception {
        Path l = launch("peer-exit-race");
        missedByPlainRuns(l);
        Finding f = only(explore(l, SMALL), "dsmem-after-exit");
        replays(l, f, Outcome.DIAGNOSED, Main.DIAGNOSED);
    }

    @Test
    void aDeadlockOnlySomeInterleavingsReachIsFoundAndReplays() throws Exception {
        Path l = launch("flag-check-deadlock");
        missedByPlainRuns(l);
        Finding f = only(explore(l, SMALL), "deadlock");
        replays(l, f, Outcome.DEADLOCK, Main.DEADLOCK);
    }

    @Test
    void theSameSeedGivesTheSameFindings() throws Exception {
        Path l = launch("flag-check-deadlock");
        Explorer.Options o = new Explorer.Options(80, 0, 7, 2, 100_000);
        assertEquals(explore(l, o), explore(l, o));
    }

    @Test
    void correctSamplesHaveNoFindings() throws Exception {
        ObjectMapper json = new ObjectMapper();
        int n = 0;
        for (Path l : SampleRuns.all()) {
            JsonNode expect = json.readTree(l.toFile()).path("expect");
            if (!expect.path("outcome").asText().equals("completed")) continue;
            Explorer.Result r = explore(l, new Explorer.Options(40, 0, 0, 2, 2_000_000));
            assertTrue(r.findings().isEmpty(), l + ": " + r.findings());
            assertTrue(r.coverage().schedules() > 0);
            n++;
        }
        assertTrue(n >= 10, "only " + n + " correct samples");
    }

    @Test
    void theCommandLineWritesAReportWithEachFindingsSchedule(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("r.json");
        StringWriter out = new StringWriter();
        int code = Main.execute(new String[] {"explore", launch("peer-exit-race").toString(), "--schedules", "100", "--report",
                report.toString()}, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertEquals(Main.DIAGNOSED, code, out.toString());
        assertTrue(out.toString().contains("--schedule s1:"), out.toString());
        JsonNode r = new ObjectMapper().readTree(Files.readString(report));
        assertEquals("diagnosed", r.path("outcome").asText());
        assertTrue(r.path("coverage").path("schedules").asLong() > 0);
        JsonNode f = r.path("findings").get(0);
        assertTrue(f.path("replayed").asBoolean(), f.toString());
        assertEquals(f.path("schedule").asText(), r.path("schedule").asText());
        assertEquals(f.path("schedule").asText(), f.path("report").path("schedule").asText());
        assertEquals(2, r.path("reportVersion").asInt(-1), "the explore report and each finding's say their version");
        assertEquals(2, f.path("report").path("reportVersion").asInt(-1));

        StringWriter err = new StringWriter();
        assertEquals(Main.BAD_INPUT, Main.execute(new String[] {"run", launch("peer-exit-race").toString(), "--schedule", "s1:0q"},
                new PrintWriter(new StringWriter()), new PrintWriter(err)));
        assertTrue(err.toString().contains("malformed schedule"), err.toString());
    }
}
