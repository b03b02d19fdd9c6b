package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.cli.Main;
import io.barrierscope.explore.RunDiff;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code barrierscope diff}: two schedules, two seeds, a sample and its fixed twin, two traces, and a run against itself. */
class DiffCommandTest {
    private record Result(int code, String out, String err) {}

    private static Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    private static Path scenario(String name) throws Exception {
        return Path.of(DiffCommandTest.class.getResource("/" + name + "/launch.json").toURI());
    }

    @Test
    void twoSchedulesPartAtTheFirstDecisionTheyTakeDifferentlyAndTheBarrierOrderShowsIt(@TempDir Path dir) throws Exception {
        Path l = scenario("races/fresh-barrier-parity-one");
        Path r = dir.resolve("d.json");
        Result res = cli("diff", l.toString(), "--a-schedule", "s1:", "--b-schedule", "s1:0w1,11w1", "--report", r.toString());
        assertEquals(7, res.code(), res.out() + res.err());
        assertTrue(res.out().contains("first divergence at step 0: another warp was scheduled (scheduling decision 0: B took warp 1, A the default): A ran warp 0's"),
                res.out());
        assertTrue(res.out().contains("B ran warp 1's"), res.out());
        assertTrue(res.out().contains("CTA 0 barrier 0 generation 0: A [warp 0, warp 1, warp 2]; B [warp 1, warp 2, warp 0]"), res.out());
        JsonNode j = new ObjectMapper().readTree(Files.readString(r));
        assertFalse(j.path("same").asBoolean(true));
        assertEquals(0, j.path("divergence").path("step").asLong());
        assertEquals(0, j.path("divergence").path("a").path("warp").asInt());
        assertEquals(1, j.path("divergence").path("b").path("warp").asInt());
        assertEquals("CTA 0 barrier 0", j.path("sync").get(0).path("object").asText());
    }

    @Test
    void aBuggySampleAgainstItsFixedTwinShowsTheMissingPhasesAndTheOutputThatDiffers(@TempDir Path dir) throws Exception {
        Path r = dir.resolve("d.json");
        Result res = cli("diff", SampleRuns.launch("mbarrier-fresh-parity-zero").getParent().toString(),
                SampleRuns.launch("mbarrier-fresh-parity-zero-fixed").getParent().toString(), "--report", r.toString());
        assertEquals(7, res.code(), res.out() + res.err());
        assertTrue(res.out().contains("-> deadlock after"), res.out());
        assertTrue(res.out().contains("-> completed after"), res.out());
        JsonNode j = new ObjectMapper().readTree(Files.readString(r));
        assertEquals("deadlock", j.path("outcomeA").asText());
        assertEquals("completed", j.path("outcomeB").asText());
        assertTrue(j.path("sync").size() > 0);
        JsonNode firstPhase = j.path("sync").get(0);
        assertTrue(firstPhase.path("object").asText().startsWith("mbarrier at shared 0x0 of CTA 0"), firstPhase.toString());
        assertEquals(0, firstPhase.path("a").size());
        assertEquals("warp 0 lanes 0-31", firstPhase.path("b").get(0).asText());
        JsonNode out = j.path("memory").get(0);
        assertEquals("out", out.path("buffer").asText());
        assertTrue(out.path("differing").asLong() > 0);
    }

    @Test
    void aRunAgainstItselfIsTheSame() throws Exception {
        Result res = cli("diff", SampleRuns.launch("block-reduce").toString());
        assertEquals(0, res.code(), res.out() + res.err());
        assertTrue(res.out().contains("the runs are the same"), res.out());
    }

    @Test
    void twoSeedsOfTheRandomPolicyDiffer(@TempDir Path dir) throws Exception {
        Path r = dir.resolve("d.json");
        Result res = cli("diff", SampleRuns.launch("block-reduce").toString(), "--policy", "random", "--a-seed", "1", "--b-seed", "2",
                "--report", r.toString());
        assertEquals(7, res.code(), res.out() + res.err());
        assertTrue(res.out().contains("first divergence at step 0: another warp was scheduled"), res.out());
        assertTrue(res.out().contains("more generations or phases differ"), res.out());
        // The report says the same: where they part, why, and how many arrival orders differ (more than the console shows).
        JsonNode j = new ObjectMapper().readTree(Files.readString(r));
        assertFalse(j.path("same").asBoolean(true));
        assertEquals(0, j.path("divergence").path("step").asLong());
        assertTrue(j.path("divergence").path("why").asText().contains("another warp was scheduled"), j.path("divergence").toString());
        assertTrue(j.path("syncDiffering").asLong() > 12, j.toString());
        assertEquals("completed", j.path("outcomeA").asText());
        assertEquals("completed", j.path("outcomeB").asText());
    }

    @Test
    void twoTracesAreComparedByReplayingThem(@TempDir Path dir) throws Exception {
        Path l = SampleRuns.launch("block-reduce");
        Path t1 = dir.resolve("a.bstrace");
        Path t2 = dir.resolve("b.bstrace");
        assertEquals(0, cli("run", l.toString(), "--policy", "random", "--seed", "1", "--trace", t1.toString()).code());
        assertEquals(0, cli("run", l.toString(), "--policy", "random", "--seed", "1", "--trace", t2.toString()).code());
        Result same = cli("diff", t1.toString(), t2.toString());
        assertEquals(0, same.code(), same.out() + same.err());
        assertEquals(0, cli("run", l.toString(), "--policy", "random", "--seed", "3", "--trace", t2.toString()).code());
        Path r = dir.resolve("d.json");
        Result differ = cli("diff", t1.toString(), t2.toString(), "--report", r.toString());
        assertEquals(7, differ.code(), differ.out() + differ.err());
        JsonNode j = new ObjectMapper().readTree(Files.readString(r));
        assertFalse(j.path("same").asBoolean(true));
        assertTrue(j.path("divergence").isObject(), j.toString());
        assertTrue(j.path("stepsA").asLong() > 0 && j.path("stepsB").asLong() > 0, j.toString());
        Result mixed = cli("diff", t1.toString(), "--b-seed", "2");
        assertEquals(Main.BAD_INPUT, mixed.code());
        assertTrue(mixed.err().contains("is a trace, which carries its own policy and seed"), mixed.err());
    }

    @Test
    void theEngineComparisonFindsTheDecisionThatMakesTheRace() throws Exception {
        Path l = scenario("races/fresh-barrier-parity-one");
        LaunchedRun a = LaunchValidation.validate(l).start(new SchedulePolicy(Schedule.parse("s1:0w1")));
        LaunchedRun b = LaunchValidation.validate(l).start(new SchedulePolicy(Schedule.parse("s1:0w1,11w1")));
        RunDiff.Result r = RunDiff.compare(a, b, 100_000);
        assertFalse(r.same());
        assertTrue(r.divergence().why().contains("(scheduling decision 12: B took warp 1, A the default)"), r.divergence().why());
        assertEquals("deadlock", r.outcomeA());
        assertEquals("diagnosed", r.outcomeB());
    }

    @Test
    void aConvergenceGroupDecisionIsNamedWhereTheSameWarpPartsAtAnotherInstruction() throws Exception {
        // One warp diverges; the default runs lanes 16-31 first, B the group at lane 0: the runs part
        // at warp 0's next instruction, not at another warp, and the decision that made it is named.
        Path l = scenario("diff-convergence");
        LaunchedRun a = LaunchValidation.validate(l).start(new SchedulePolicy(Schedule.parse("s1:")));
        LaunchedRun b = LaunchValidation.validate(l).start(new SchedulePolicy(Schedule.parse("s1:0g0")));
        RunDiff.Result r = RunDiff.compare(a, b, 100_000);
        assertFalse(r.same());
        String why = r.divergence().why();
        assertTrue(why.startsWith("warp 0 is at another instruction (scheduling decision 0: B took the convergence group at lane 0, A the"
                + " default): "), why);
    }
}
