package io.barrierscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** explore's command line: minimised findings in the console and the report, --no-minimize, --jobs. */
class ExploreMinimizeCliTest {
    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    private static Path scenario(String name) throws Exception {
        return Path.of(ExploreMinimizeCliTest.class.getResource("/" + name + "/launch.json").toURI());
    }

    @Test
    void everyFindingComesWithItsMinimalScheduleAndDecisiveDecisions(@TempDir Path dir) throws Exception {
        Path r = dir.resolve("r.json");
        String[] res = run("explore", scenario("races/fresh-barrier-parity-one").toString(), "--schedules", "120", "--jobs", "2",
                "--minimize-time", "0", "--report", r.toString());
        assertEquals(String.valueOf(Main.DIAGNOSED), res[0], res[1] + res[2]);
        assertTrue(res[1].contains("  minimal schedule: "), res[1]);
        assertTrue(res[1].contains("  decisive: warp 1 ran its "), res[1]);
        JsonNode j = new ObjectMapper().readTree(Files.readString(r));
        for (JsonNode f : j.path("findings")) {
            JsonNode m = f.path("minimization");
            assertTrue(m.isObject(), f.toString());
            assertEquals(f.path("schedule").asText(), m.path("found").asText());
            assertTrue(m.path("minimalSize").asInt() <= m.path("foundSize").asInt());
            assertEquals(m.path("minimalSize").asInt(), m.path("decisive").size());
            assertTrue(m.path("minimalReplayed").asBoolean(), m.toString());
            assertTrue(m.path("complete").asBoolean(), m.toString());
            // The minimal schedule's replay fails at a step of its own, shown on the minimal schedule's line.
            long step = m.path("failingStep").asLong(-1);
            assertTrue(step >= 0, m.toString());
            assertTrue(res[1].contains(m.path("minimal").asText() + ", fails at step " + step), res[1]);
        }
    }

    @Test
    void noMinimizeReportsTheFoundScheduleOnly(@TempDir Path dir) throws Exception {
        Path r = dir.resolve("r.json");
        String[] res = run("explore", scenario("explore/late-copy-hang").toString(), "--schedules", "80", "--no-minimize", "--jobs", "1",
                "--report", r.toString());
        assertEquals(String.valueOf(Main.DEADLOCK), res[0], res[1] + res[2]);
        assertFalse(res[1].contains("minimal schedule"), res[1]);
        JsonNode j = new ObjectMapper().readTree(Files.readString(r));
        assertTrue(j.path("findings").get(0).path("minimization").isMissingNode());
    }

    @Test
    void badJobsAndMinimizeTimeAreRefused() throws Exception {
        String l = scenario("explore/late-copy-hang").toString();
        String[] jobs = run("explore", l, "--jobs", "0");
        assertEquals(String.valueOf(Main.BAD_INPUT), jobs[0]);
        assertTrue(jobs[2].contains("--jobs must be in 1..1024"), jobs[2]);
        String[] time = run("explore", l, "--minimize-time", "-1");
        assertEquals(String.valueOf(Main.BAD_INPUT), time[0]);
        assertTrue(time[2].contains("--minimize-time must be in"), time[2]);
    }
}
