package io.barrierscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * explore on buggy kernels written apart from the ones it was built against
 * ({@code explore-heldout/}): each bug is found, its minimal schedule is short and replays to the
 * same cause from the command line, {@code --jobs 1} and {@code --jobs 2} print the same, {@code
 * diff} of the minimal schedule against the default parts at the decisive decision, and the
 * coverage statement matches what was searched. Each launch is explored once per job count and
 * the result shared by the tests (a search is the expensive part).
 */
class HeldOutExploreTest {
    /** The held-out bugs and the diagnostic codes (or "deadlock") explore must report for each. */
    private static final Map<String, List<String>> BUGS = new TreeMap<>(Map.of(
            "reduction-missing-sync", List.of("race"),
            "mbarrier-parity-alias", List.of("deadlock", "mbarrier-phase-unobserved"),
            "flag-without-fence", List.of("race"),
            "named-barrier-count", List.of("deadlock", "race")));
    /** A minimal schedule a person can follow: at most this many decisions off the default. */
    private static final int SHORT = 2;

    private record Result(int code, String out, String err, JsonNode report) {}

    private static final Map<String, Result> SEARCHES = new TreeMap<>();

    private static Result cli(Path report, String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        if (report != null) all.addAll(List.of("--report", report.toString()));
        int code = Main.execute(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        JsonNode j = report == null ? null : new ObjectMapper().readTree(Files.readString(report));
        return new Result(code, out.toString(), err.toString(), j);
    }

    private static Path launch(String name) throws Exception {
        return Path.of(HeldOutExploreTest.class.getResource("/explore-heldout/" + name + "/launch.json").toURI());
    }

    /** explore with a fixed budget and no minimising clock, so the result is a function of the arguments. */
    private static synchronized Result explore(String name, int jobs) throws Exception {
        String key = name + "/" + jobs;
        Result r = SEARCHES.get(key);
        if (r == null) {
            Path rep = Files.createTempFile("heldout-" + name + "-" + jobs, ".json");
            try {
                r = cli(rep, "explore", launch(name).toString(), "--schedules", "200", "--minimize-time", "0", "--jobs",
                        String.valueOf(jobs));
            } finally {
                Files.deleteIfExists(rep);
            }
            SEARCHES.put(key, r);
        }
        return r;
    }

    private static String code(JsonNode finding) {
        return finding.path("code").asText();
    }

    @Test
    void everyHeldOutBugIsFoundWithAShortMinimalScheduleThatReplaysToTheSameCause() throws Exception {
        for (var e : BUGS.entrySet()) {
            Result r = explore(e.getKey(), 1);
            assertEquals(Main.DIAGNOSED, r.code(), e.getKey() + ": " + r.out() + r.err());
            List<String> codes = new ArrayList<>();
            for (JsonNode f : r.report().path("findings")) {
                codes.add(code(f));
                JsonNode m = f.path("minimization");
                assertTrue(m.path("complete").asBoolean(), e.getKey() + ": " + m);
                assertTrue(m.path("minimalSize").asInt() <= SHORT, e.getKey() + ": " + m);
                assertTrue(m.path("minimalSize").asInt() <= m.path("foundSize").asInt(), e.getKey() + ": " + m);
                assertTrue(m.path("minimalReplayed").asBoolean(), e.getKey() + ": " + m);
                assertEquals(m.path("minimalSize").asInt(), m.path("decisive").size(), e.getKey() + ": " + m);
            }
            for (String c : e.getValue()) assertTrue(codes.contains(c), e.getKey() + " lacks " + c + ": " + codes);
            if (r.report().path("findings").get(0).path("minimization").path("minimalSize").asInt() == 0)
                assertTrue(r.out().contains("  the default schedule (s1:, not run's round-robin) alone ends in this cause"), r.out());
        }
    }

    @Test
    void aDecisiveWarpSwitchNamesThePairOfConflictingStepsItSwapped() throws Exception {
        // Each chosen warp ran address arithmetic and a global load of its own input first; the
        // explanation names the pair of steps the decision reordered that matters for the finding
        // instead. The minimal schedules are free choices at the first decision (no preemption):
        // warp 1 first, so warp 0 arrives last at the first barrier and goes on first past it. Their
        // two arrivals at that barrier commute; what matters is what comes after it: the racing
        // table store and load, the producer's arrive before the consumer's wait, and which two
        // warps complete named barrier 1's generation.
        Map<String, String> expected = new TreeMap<>(Map.of(
                "flag-without-fence", "warp 1 ran instead of warp 0 (step 0), so warp 0 ran its `st.shared.u32 [%r2], %r24` (line 78) "
                        + "before warp 1's `ld.shared.u32 %r21, [%r2+-128]` (line 114)",
                "mbarrier-parity-alias", "warp 1 ran instead of warp 0 (step 0), so warp 0 ran its `mbarrier.arrive.shared::cta.b64 _, [%r41]` "
                        + "(line 101) before warp 1's `mbarrier.try_wait.parity.shared::cta.b64 P1, [%r20], %r42` (line 129)",
                "named-barrier-count", "warp 1 ran its `bar.arrive 1, 64` (line 71) before warp 0's `bar.arrive 1, 64` (line 71)"));
        for (var e : expected.entrySet()) {
            List<String> texts = new ArrayList<>();
            for (JsonNode f : explore(e.getKey(), 1).report().path("findings"))
                for (JsonNode d : f.path("minimization").path("decisive")) if (d.path("kind").asText().equals("w")) texts.add(d.path("text").asText());
            assertEquals(1, texts.size(), e.getKey() + ": " + texts);
            assertTrue(texts.get(0).startsWith(e.getValue() + " (step "), e.getKey() + ": " + texts.get(0));
        }
    }

    @Test
    void theReplayCommandExplorePrintsFailsWithTheSameCauseAtTheSameStep() throws Exception {
        for (String name : BUGS.keySet()) {
            Result r = explore(name, 1);
            for (JsonNode f : r.report().path("findings")) {
                JsonNode m = f.path("minimization");
                String minimal = m.path("minimal").asText();
                // The console's replay line is exactly what a user runs.
                assertTrue(r.out().contains("  replay: ./barrierscope run " + launch(name) + " --schedule " + minimal + "\n"),
                        name + ": " + r.out());
                Path rep = Files.createTempFile("heldout-replay", ".json");
                Result run;
                try {
                    run = cli(rep, "run", launch(name).toString(), "--schedule", minimal);
                } finally {
                    Files.deleteIfExists(rep);
                }
                String code = code(f);
                if (code.equals("deadlock")) {
                    assertEquals(Main.DEADLOCK, run.code(), name + " " + minimal + ": " + run.out() + run.err());
                    // The same wait-for PTX line as the finding's cause.
                    for (JsonNode line : f.path("ptxLines"))
                        assertTrue(run.out().contains("at PTX line " + line.asInt() + " "), name + ": " + run.out());
                } else {
                    assertEquals(Main.DIAGNOSED, run.code(), name + " " + minimal + ": " + run.out() + run.err());
                    JsonNode d = firstDiagnostic(run.report(), code);
                    assertNotNull(d, name + " " + minimal + ": no " + code + " in " + run.report());
                    assertEquals(m.path("failingStep").asLong(), d.path("step").asLong(), name + ": " + d);
                    assertTrue(run.out().contains("error [" + code + "]"), run.out());
                }
                assertEquals(m.path("failingStep").asLong(), failingStep(run.report(), code), name + ": " + minimal);
            }
        }
    }

    private static JsonNode firstDiagnostic(JsonNode report, String code) {
        for (JsonNode d : report.path("diagnostics")) if (d.path("code").asText().equals(code)) return d;
        return null;
    }

    /** Where a replay fails: the diagnostic's step, else (a deadlock) the steps the run took. */
    private static long failingStep(JsonNode report, String code) {
        JsonNode d = firstDiagnostic(report, code);
        return d != null ? d.path("step").asLong() : report.path("stats").path("warpSteps").asLong();
    }

    @Test
    void oneJobAndTwoJobsPrintTheSameFindingsSchedulesAndCoverage() throws Exception {
        for (String name : BUGS.keySet()) {
            Result one = explore(name, 1);
            Result two = explore(name, 2);
            assertEquals(one.code(), two.code(), name);
            assertEquals(withoutClock(one.out()), withoutClock(two.out()), name);
            assertEquals(withoutClock(one.report()), withoutClock(two.report()), name);
        }
    }

    /** The wall-clock time is the one thing allowed to differ. */
    private static String withoutClock(String console) {
        return console.replaceAll("; \\d+ ms", "; T ms");
    }

    private static JsonNode withoutClock(JsonNode report) {
        JsonNode c = report.deepCopy();
        ((ObjectNode) c.path("coverage")).remove("wallMillis");
        return c;
    }

    @Test
    void diffOfTheMinimalScheduleAgainstTheDefaultPartsAtTheDecisiveDecision() throws Exception {
        int compared = 0;
        for (String name : BUGS.keySet()) {
            for (JsonNode f : explore(name, 1).report().path("findings")) {
                JsonNode m = f.path("minimization");
                if (m.path("minimalSize").asInt() == 0) continue; // the default run fails: nothing to compare
                JsonNode first = m.path("decisive").get(0);
                Path rep = Files.createTempFile("heldout-diff", ".json");
                Result d;
                try {
                    d = cli(rep, "diff", launch(name).toString(), "--a-schedule", "s1:", "--b-schedule", m.path("minimal").asText());
                } finally {
                    Files.deleteIfExists(rep);
                }
                assertEquals(7, d.code(), name + ": " + d.out() + d.err());
                // The first decision the runs took differently is the decisive one, named by what B took.
                String kind = switch (first.path("kind").asText()) {
                    case "w" -> "warp ";
                    case "t" -> "a try_wait returning false early";
                    case "a" -> "a copy latency of ";
                    default -> "the convergence group at lane ";
                };
                assertTrue(d.out().contains("(scheduling decision " + first.path("decision").asLong() + ": B took " + kind),
                        name + ": " + d.out());
                JsonNode div = d.report().path("divergence");
                if (first.path("kind").asText().equals("w")) {
                    // A warp switch: the runs part no later than the step the decisive text names, at the chosen warp (which
                    // ran its step first, or ran instead of the default warp so that the default warp's step came first).
                    assertTrue(div.path("step").asLong() <= first.path("step").asLong(), name + ": " + div + " vs " + first);
                    String chosen = "warp " + div.path("b").path("warp").asInt() + " ran ";
                    String text = first.path("text").asText();
                    assertTrue(text.startsWith(chosen + "its ") || text.startsWith(chosen + "instead of "), name + ": " + first + " vs " + div);
                } else {
                    // Another result of the same step: the steps part right after it.
                    assertEquals(first.path("step").asLong() + 1, div.path("step").asLong(), name + ": " + div + " vs " + first);
                }
                compared++;
            }
        }
        assertTrue(compared >= 4, "schedule findings compared: " + compared);
    }

    @Test
    void theCoverageLineAndTheReportAgreeOnWhatWasSearched() throws Exception {
        for (String name : BUGS.keySet()) {
            Result r = explore(name, 1);
            JsonNode c = r.report().path("coverage");
            assertEquals(200, c.path("schedules").asInt(), name);
            assertEquals(c.path("schedules").asInt(), c.path("systematic").asInt() + c.path("random").asInt(), name);
            int bound = c.path("deviationBoundCompleted").asInt();
            // The bound counts non-default decisions; the field's old name stays, with the same number, for scripts.
            assertEquals(bound, c.path("deviationBoundCompleted").asInt(), name + ": " + c);
            assertTrue(r.out().contains("deviation bound " + bound + " (non-default decisions) complete"), name + ": " + r.out());
            assertTrue(r.out().contains("stopped: " + c.path("stoppedBy").asText()), name + ": " + r.out());
            // A search with findings claims nothing proven.
            assertTrue(c.path("proven").isNull(), name + ": " + c);
        }
    }

    @Test
    void theFixedTwinIsExhaustedWithoutFindingsWhereTheBugIsFoundUnderTheSameSearch() throws Exception {
        // The default search: bound 1 of the bounded sleep sets, then the unbounded source-set pass exhausts the small
        // kernel ("all schedules", all interleavings up to equivalence; docs/explore.md, "Exhausting small kernels").
        String[] byDefault = {"--max-deviations", "2", "--schedules", "1000", "--minimize-time", "0", "--jobs", "1"};
        Result fixed = search("flag-with-fence", byDefault);
        Result buggy = search("flag-without-fence", byDefault);
        assertExhausted(fixed);
        // Exhausting is only worth saying if the same search finds the bug the fix removes.
        assertEquals(Main.DIAGNOSED, buggy.code(), buggy.out());
        assertFalse(buggy.report().path("findings").isEmpty());
        assertEquals("race", buggy.report().path("findings").get(0).path("code").asText());

        // Source sets alone exhaust it too, given bounds enough.
        assertExhausted(search("flag-with-fence", "--max-deviations", "8", "--schedules", "3000", "--minimize-time", "0", "--jobs", "1",
                "--source-sets"));

        // Without the pass the bounded sleep sets complete bounds without exhausting: the bounded claim for what they completed.
        String[] bounded = {"--max-deviations", "2", "--schedules", "3000", "--minimize-time", "0", "--jobs", "1", "--no-exhaustion-pass"};
        fixed = search("flag-with-fence", bounded);
        buggy = search("flag-without-fence", bounded);
        assertEquals(Main.OK, fixed.code(), fixed.out() + fixed.err());
        JsonNode d = fixed.report().path("coverage");
        assertTrue(d.path("boundedPartialOrder").asBoolean(), d.toString());
        assertFalse(d.path("allSchedules").asBoolean(), d.toString());
        assertEquals(2, d.path("deviationBoundCompleted").asInt(), d.toString());
        assertTrue(d.path("proven").asText().startsWith("every interleaving with at most 2 deviations, up to equivalence"), d.toString());
        assertEquals(Main.DIAGNOSED, buggy.code(), buggy.out());
        assertEquals("race", buggy.report().path("findings").get(0).path("code").asText());
    }

    private static Result search(String name, String... args) throws Exception {
        Path rep = Files.createTempFile("heldout-" + name, ".json");
        try {
            return cli(rep, concat(new String[] {"explore", launch(name).toString()}, args));
        } finally {
            Files.deleteIfExists(rep);
        }
    }

    private static void assertExhausted(Result r) {
        assertEquals(Main.OK, r.code(), r.out() + r.err());
        JsonNode c = r.report().path("coverage");
        assertEquals("exhausted", c.path("stoppedBy").asText(), c.toString());
        assertTrue(c.path("allSchedules").asBoolean(), c.toString());
        assertEquals(0, c.path("random").asInt(), c.toString());
        assertTrue(c.path("proven").asText().startsWith("all schedules"), c.toString());
        assertTrue(c.path("proven").asText().contains("all interleavings, up to equivalence"), c.toString());
        assertTrue(r.out().contains("no findings; covered: all schedules"), r.out());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] r = new String[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
