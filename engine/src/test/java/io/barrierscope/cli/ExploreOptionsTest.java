package io.barrierscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** explore's numbers and switches are taken as what they say or refused, never given another meaning. */
class ExploreOptionsTest {
    private static final String LAUNCH = CliTest.SAMPLES.resolve("block-reduce/launch.json").toString();

    @Test
    void aTimeLimitThatIsNotANumberInRangeIsRefusedNotReadAsNoLimit() {
        // NaN and Infinity parse as doubles; NaN was read as 0 (none), Infinity wrapped and stopped the search at once.
        for (String t : new String[] {"NaN", "Infinity", "-Infinity", "1e10", "-1"}) {
            CliTest.Result r = CliTest.cli("explore", LAUNCH, "--time-limit", t, "--schedules", "1", "--jobs", "1");
            assertEquals(2, r.code(), t + ": " + r.out() + r.err());
            assertTrue(r.err().contains("--time-limit must be in 0..1e9 seconds"), r.err());
        }
    }

    @Test
    void noMinimizeWithAMinimizeTimeIsRefusedAsContradictoryNotOneSilentlyIgnored() {
        CliTest.Result r = CliTest.cli("explore", LAUNCH, "--no-minimize", "--minimize-time", "5", "--schedules", "1", "--jobs", "1");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--no-minimize and --minimize-time contradict each other"), r.err());
    }

    @Test
    void theBoundIsCalledADeviationBoundAndTheOldOptionAndReportFieldStillWork() throws Exception {
        // The bound counts every non-default decision, not only preemptions: the console says so; the old
        // option name and the old report field (same number) stay for scripts.
        String small = CliTest.SAMPLES.resolve("src/test/resources/explore-heldout/flag-with-fence/launch.json").toString();
        Path a = Files.createTempFile("explore-dev", ".json");
        Path b = Files.createTempFile("explore-pre", ".json");
        try {
            CliTest.Result dev = CliTest.cli("explore", small, "--max-deviations", "1", "--schedules", "20", "--jobs", "1",
                    "--report", a.toString());
            CliTest.Result pre = CliTest.cli("explore", small, "--max-preemptions", "1", "--schedules", "20", "--jobs", "1",
                    "--report", b.toString());
            assertEquals(dev.code(), pre.code(), dev.out() + dev.err());
            assertEquals(dev.out().replaceAll("; \\d+ ms", ""), pre.out().replaceAll("; \\d+ ms", ""));
            assertTrue(dev.out().contains("; deviation bound 1 (non-default decisions) complete"), dev.out());
            assertFalse(dev.out().contains("preemption bound"), dev.out());
            JsonNode c = new ObjectMapper().readTree(a.toFile()).path("coverage");
            assertEquals(1, c.path("deviationBoundCompleted").asInt(), c.toString());
            assertEquals(1, c.path("preemptionBoundCompleted").asInt(), c.toString());
        } finally {
            Files.deleteIfExists(a);
            Files.deleteIfExists(b);
        }
        CliTest.Result bad = CliTest.cli("explore", LAUNCH, "--max-deviations", "9", "--schedules", "1", "--jobs", "1");
        assertEquals(2, bad.code(), bad.out() + bad.err());
        assertTrue(bad.err().contains("--max-deviations must be in 0..8"), bad.err());
    }

    @Test
    void boundedPorStatesEveryInterleavingWithinTheBoundInTheConsoleAndTheReport() throws Exception {
        // named-producer-consumer: bound 1 takes 26 schedules with the rule, 2 forks skipped (docs/performance.md).
        String small = CliTest.SAMPLES.resolve("named-producer-consumer/launch.json").toString();
        Path a = Files.createTempFile("explore-bpor", ".json");
        try {
            CliTest.Result r = CliTest.cli("explore", small, "--bounded-por", "--max-deviations", "1", "--schedules", "40",
                    "--jobs", "1", "--no-minimize", "--report", a.toString());
            assertEquals(0, r.code(), r.out() + r.err());
            assertTrue(r.out().contains("no findings; covered: every interleaving with at most 1 deviation, up to equivalence"), r.out());
            JsonNode c = new ObjectMapper().readTree(a.toFile()).path("coverage");
            assertTrue(c.path("boundedPartialOrder").asBoolean(), c.toString());
            assertFalse(c.path("sourceSets").asBoolean(true), c.toString());
            assertTrue(c.path("proven").asText().startsWith("every interleaving with at most 1 deviation,"), c.toString());
        } finally {
            Files.deleteIfExists(a);
        }
        CliTest.Result both = CliTest.cli("explore", LAUNCH, "--bounded-por", "--no-por", "--schedules", "1", "--jobs", "1");
        assertEquals(2, both.code(), both.out() + both.err());
        assertTrue(both.err().contains("--bounded-por is a partial-order reduction of its own"), both.err());
    }

    /** --decision-order changes only the default reduction's order of forks: with another reduction it is refused, not ignored. */
    @Test
    void decisionOrderWithAnotherReductionIsRefusedNotIgnored() {
        for (String other : new String[] {"--no-por", "--no-source-sets", "--source-sets"}) {
            CliTest.Result r = CliTest.cli("explore", LAUNCH, "--decision-order", other, "--schedules", "1", "--jobs", "1");
            assertEquals(2, r.code(), other + ": " + r.out() + r.err());
            assertTrue(r.err().contains("--decision-order orders the forks of the default reduction"), r.err());
        }
    }

    /** --no-exhaustion-pass belongs to the default reduction: with another one it is refused, not ignored. */
    @Test
    void noExhaustionPassWithAnotherReductionIsRefusedNotIgnored() {
        for (String other : new String[] {"--no-por", "--no-source-sets", "--source-sets"}) {
            CliTest.Result r = CliTest.cli("explore", LAUNCH, "--no-exhaustion-pass", other, "--schedules", "1", "--jobs", "1");
            assertEquals(2, r.code(), other + ": " + r.out() + r.err());
            assertTrue(r.err().contains("--no-exhaustion-pass belongs to the default reduction"), r.err());
        }
    }

    /**
     * The reduction sound within the bound is the default: without a flag the console and report
     * state the bounded claim, {@code --bounded-por} (an alias now) prints the same, and
     * {@code --source-sets} asks for source sets with their weaker bounded statement.
     */
    @Test
    void theDefaultSearchIsSoundWithinTheBoundAndSourceSetsAreOptIn() throws Exception {
        String small = CliTest.SAMPLES.resolve("named-producer-consumer/launch.json").toString();
        Path a = Files.createTempFile("explore-default", ".json");
        Path s = Files.createTempFile("explore-source", ".json");
        try {
            String[] common = {"--max-deviations", "1", "--schedules", "40", "--jobs", "1", "--no-minimize", "--time-limit", "0"};
            CliTest.Result def = CliTest.cli(concat(new String[] {"explore", small}, common, new String[] {"--report", a.toString()}));
            assertEquals(0, def.code(), def.out() + def.err());
            assertTrue(def.out().contains("covered: every interleaving with at most 1 deviation, up to equivalence"), def.out());
            JsonNode c = new ObjectMapper().readTree(a.toFile()).path("coverage");
            assertTrue(c.path("boundedPartialOrder").asBoolean(), c.toString());
            assertFalse(c.path("sourceSets").asBoolean(true), c.toString());
            CliTest.Result alias = CliTest.cli(concat(new String[] {"explore", small, "--bounded-por"}, common));
            assertEquals(withoutClock(def.out()), withoutClock(alias.out()));
            CliTest.Result src = CliTest.cli(concat(new String[] {"explore", small, "--source-sets"}, common, new String[] {"--report", s.toString()}));
            assertEquals(0, src.code(), src.out() + src.err());
            JsonNode sc = new ObjectMapper().readTree(s.toFile()).path("coverage");
            assertTrue(sc.path("sourceSets").asBoolean(), sc.toString());
            assertFalse(sc.path("boundedPartialOrder").asBoolean(true), sc.toString());
            assertTrue(sc.path("proven").asText().contains("partial-order-reduced search"), sc.toString());
        } finally {
            Files.deleteIfExists(a);
            Files.deleteIfExists(s);
        }
        CliTest.Result both = CliTest.cli("explore", LAUNCH, "--source-sets", "--no-source-sets", "--schedules", "1", "--jobs", "1");
        assertEquals(2, both.code(), both.out() + both.err());
        assertTrue(both.err().contains("--source-sets contradicts"), both.err());
    }

    /**
     * The report names the search that ran out of schedules ({@code coverage.exhaustedBy}): the default's
     * exhaustion pass, source sets or sleep sets asked for; null when nothing was exhausted.
     */
    @Test
    void theReportSaysWhichSearchProvedTheExhaustion() throws Exception {
        String small = CliTest.SAMPLES.resolve("syncthreads-divergent-fixed/launch.json").toString();
        String[] common = {"--jobs", "1", "--no-minimize", "--time-limit", "0"};
        // 20 schedules give the pass 4, enough; 10 give it 2, too few (it takes 3): the bounded claim, nothing exhausted.
        assertEquals("exhaustion-pass", exhaustedBy(small, common, "--schedules", "20", "--max-deviations", "1").asText());
        assertTrue(exhaustedBy(small, common, "--schedules", "10", "--max-deviations", "1").isNull());
        assertEquals("source-sets", exhaustedBy(small, common, "--schedules", "300", "--max-deviations", "8", "--source-sets").asText());
        assertEquals("sleep-sets", exhaustedBy(small, common, "--schedules", "300", "--max-deviations", "8", "--no-source-sets").asText());
    }

    /** The report's coverage.exhaustedBy (checked to go with allSchedules) of explore on {@code launch} with {@code args}. */
    private static JsonNode exhaustedBy(String launch, String[] common, String... args) throws Exception {
        Path a = Files.createTempFile("explore-exhausted-by", ".json");
        try {
            CliTest.Result r = CliTest.cli(concat(new String[] {"explore", launch}, common, args, new String[] {"--report", a.toString()}));
            assertEquals(0, r.code(), r.out() + r.err());
            JsonNode c = new ObjectMapper().readTree(a.toFile()).path("coverage");
            assertTrue(c.has("exhaustedBy"), c.toString());
            assertEquals(c.path("allSchedules").asBoolean(), !c.path("exhaustedBy").isNull(), c.toString());
            return c.path("exhaustedBy");
        } finally {
            Files.deleteIfExists(a);
        }
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }

    /** The console less the lines that carry wall-clock times. */
    private static String withoutClock(String out) {
        return out.lines().filter(l -> !l.matches(".*\\d+(\\.\\d+)? ?(s|ms)\\b.*")).collect(java.util.stream.Collectors.joining("\n"));
    }
}
