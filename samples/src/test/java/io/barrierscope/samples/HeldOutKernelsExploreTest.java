package io.barrierscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.junit.jupiter.api.Test;

/**
 * explore on a second set of held-out buggy kernels ({@code explore-heldout/}: an mbarrier ring
 * whose consumer flips its phase per item, a tile buffer reloaded without a closing barrier, two
 * producer/consumer pairs sharing named barrier 1, a cluster arrive placed before the remote
 * store), written after the search and its minimiser, not tuned against; and one written for the
 * minimiser, whose failure needs two decisions together ({@code two-late-reads}); and a third set: a
 * single try_wait taken as completion, a last-block reduction across CTAs without fences (and its
 * fenced twin), the cluster kernel with two warps per CTA. For each: every expected
 * cause is found; each minimal schedule is short, minimised completely and, run from the command
 * line as printed, fails with the same cause at the same step; the decisive decision names the
 * steps whose order matters; {@code diff} of the minimal schedule against the default parts at
 * that decision; {@code --jobs 2} prints what {@code --jobs 1} does.
 */
class HeldOutKernelsExploreTest {
    /** A minimal schedule a person can follow: at most this many decisions off the default. */
    private static final int SHORT = 2;

    private record Result(int code, String out, String err, JsonNode report) {}

    private static Result cli(boolean report, String... args) throws Exception {
        Path rep = report ? Files.createTempFile("heldout2", ".json") : null;
        try {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            List<String> all = new ArrayList<>(List.of(args));
            if (rep != null) all.addAll(List.of("--report", rep.toString()));
            int code = Main.execute(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
            JsonNode j = rep == null ? null : new ObjectMapper().readTree(Files.readString(rep));
            return new Result(code, out.toString(), err.toString(), j);
        } finally {
            if (rep != null) Files.deleteIfExists(rep);
        }
    }

    private static String launch(String name) throws Exception {
        return Path.of(HeldOutKernelsExploreTest.class.getResource("/explore-heldout/" + name + "/launch.json").toURI()).toString();
    }

    /**
     * The systematic search then random schedules, a fixed budget, no minimising clock: a function of the arguments.
     * With source sets (--source-sets), the search these tests' found and minimal schedules were written against: the
     * default reduction runs more schedules per bound, so 200 schedules end elsewhere (HeldOutExploreTest checks the default).
     */
    private static Result explore(String name, String jobs, String... more) throws Exception {
        List<String> a = new ArrayList<>(List.of("explore", launch(name), "--schedules", "200", "--minimize-time", "0", "--jobs", jobs,
                "--source-sets"));
        a.addAll(List.of(more));
        return cli(true, a.toArray(String[]::new));
    }

    /** Random schedules only (no systematic phase): noisy found schedules for the minimiser to shrink. */
    private static Result exploreRandomOnly(String name) throws Exception {
        return cli(true, "explore", launch(name), "--max-deviations", "0", "--schedules", "60", "--minimize-time", "0", "--jobs", "1");
    }

    private static JsonNode finding(Result r, String code) {
        for (JsonNode f : r.report().path("findings")) if (f.path("code").asText().equals(code)) return f;
        return null;
    }

    /**
     * What holds for every finding: short, complete, replayed by the minimiser; the printed replay
     * command fails with the same cause at the minimal schedule's failing step; a minimal schedule
     * off the default parts from it in {@code diff} at its first decisive decision.
     */
    private static void checkEveryFinding(String name, Result r, List<String> codes) throws Exception {
        // A diagnostic outranks a deadlock in explore's exit code.
        int exit = codes.stream().allMatch("deadlock"::equals) ? Main.DEADLOCK : Main.DIAGNOSED;
        assertEquals(exit, r.code(), name + ": " + r.out() + r.err());
        List<String> found = new ArrayList<>();
        for (JsonNode f : r.report().path("findings")) {
            String code = f.path("code").asText();
            found.add(code);
            JsonNode m = f.path("minimization");
            assertTrue(m.path("complete").asBoolean(), name + ": " + m);
            assertTrue(m.path("minimalSize").asInt() <= SHORT, name + ": " + m);
            assertTrue(m.path("minimalSize").asInt() <= m.path("foundSize").asInt(), name + ": " + m);
            assertTrue(m.path("minimalReplayed").asBoolean(), name + ": " + m);
            assertEquals(m.path("minimalSize").asInt(), m.path("decisive").size(), name + ": " + m);
            String minimal = m.path("minimal").asText();
            assertTrue(r.out().contains("  replay: ./barrierscope run " + launch(name) + " --schedule " + minimal + "\n"), r.out());

            Result run = cli(true, "run", launch(name), "--schedule", minimal);
            if (code.equals("deadlock")) {
                assertEquals(Main.DEADLOCK, run.code(), name + " " + minimal + ": " + run.out());
                for (JsonNode line : f.path("ptxLines")) assertTrue(run.out().contains("at PTX line " + line.asInt() + " "), run.out());
                assertEquals(m.path("failingStep").asLong(), run.report().path("stats").path("warpSteps").asLong(), name);
            } else {
                assertEquals(Main.DIAGNOSED, run.code(), name + " " + minimal + ": " + run.out());
                JsonNode d = null;
                for (JsonNode x : run.report().path("diagnostics")) if (d == null && x.path("code").asText().equals(code)) d = x;
                assertNotNull(d, name + " " + minimal + ": no " + code + " in " + run.out());
                assertEquals(m.path("failingStep").asLong(), d.path("step").asLong(), name + ": " + d);
            }

            if (m.path("minimalSize").asInt() == 0) {
                assertTrue(r.out().contains("  the default schedule (s1:, not run's round-robin) alone ends in this cause"), r.out());
                continue;
            }
            JsonNode first = m.path("decisive").get(0);
            Result diff = cli(true, "diff", launch(name), "--a-schedule", "s1:", "--b-schedule", minimal);
            assertEquals(7, diff.code(), name + ": " + diff.out() + diff.err());
            assertTrue(diff.out().contains("(scheduling decision " + first.path("decision").asLong() + ": B took warp "), diff.out());
            JsonNode div = diff.report().path("divergence");
            assertTrue(div.path("step").asLong() <= first.path("step").asLong(), name + ": " + div + " vs " + first);
        }
        for (String c : codes) assertTrue(found.contains(c), name + " lacks " + c + ": " + found);
    }

    /** The one decisive decision of {@code code}'s finding, in words. */
    private static String decisive(Result r, String code) {
        JsonNode f = finding(r, code);
        assertNotNull(f, code + ": " + r.out());
        JsonNode d = f.path("minimization").path("decisive");
        assertEquals(1, d.size(), r.out());
        return d.get(0).path("text").asText();
    }

    private static void sameWithTwoJobs(String name, Result one) throws Exception {
        Result two = explore(name, "2");
        assertEquals(one.code(), two.code(), name);
        assertEquals(one.out().replaceAll("; \\d+ ms", ""), two.out().replaceAll("; \\d+ ms", ""), name);
        JsonNode a = one.report().deepCopy();
        JsonNode b = two.report().deepCopy();
        ((ObjectNode) a.path("coverage")).remove("wallMillis");
        ((ObjectNode) b.path("coverage")).remove("wallMillis");
        assertEquals(a, b, name);
    }

    private static final String RING_WAIT = "`mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%r28], %r62` (line 181)";
    private static final String RING_ARRIVE = "`mbarrier.arrive.release.cta.shared::cta.b64 _, [%r58]` (line 143)";

    @Test
    void aRingWhoseConsumerFlipsItsPhasePerItemDeadlocksByDefaultAndRacesWhenTheConsumerWaitsBeforeTheFill() throws Exception {
        String name = "ring-phase-per-item";
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("deadlock", "race", "mbarrier-phase-unobserved"));
        assertEquals("s1:", finding(r, "deadlock").path("minimization").path("minimal").asText());
        // The race: the consumer's wait on slot 1 ran before the producer's arrive on it, and returned at once.
        assertTrue(decisive(r, "race").startsWith("warp 0 ran its " + RING_WAIT + " before warp 1's " + RING_ARRIVE + " (step "),
                r.out());
        assertTrue(finding(r, "race").path("message").asText().contains("a parity wait on a fresh barrier (parity 1)"), r.out());
        sameWithTwoJobs(name, r);
        // Found by random schedules with several needless decisions, it still shrinks to the one switch, so explained.
        Result rnd = exploreRandomOnly(name);
        JsonNode race = finding(rnd, "race").path("minimization");
        assertTrue(race.path("foundSize").asInt() >= 3, race.toString());
        assertEquals(1, race.path("minimalSize").asInt(), race.toString());
        assertTrue(decisive(rnd, "race").startsWith("warp 0 ran its " + RING_WAIT + " before warp 1's " + RING_ARRIVE + " (step "),
                rnd.out());
    }

    @Test
    void aTileReloadedWithoutAClosingBarrierRacesInTheDefaultScheduleAndTheHintPointsAtTheEndOfTheIteration() throws Exception {
        String name = "tile-reload-without-sync";
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("race"));
        JsonNode f = finding(r, "race");
        assertEquals("s1:", f.path("minimization").path("minimal").asText());
        // The loop's own bar.sync lies between the two instructions: it is not what would order them.
        String msg = f.path("message").asText();
        assertTrue(msg.contains("no barrier between them in this run: bar.sync at line 51 (kernel.cu:21:9) lies between the two "
                + "instructions, but they are in a loop"), msg);
        assertTrue(msg.contains("a barrier at the end of each iteration, before the branch back, would order them"), msg);
        sameWithTwoJobs(name, r);
    }

    @Test
    void twoPairsSharingNamedBarrierOneRaceOnlyWhenAWarpOfTheOtherPairArrivesFirst() throws Exception {
        String name = "named-barrier-id-reuse";
        // In warp order each pair meets itself: the default schedule is correct.
        Result def = cli(true, "run", launch(name), "--schedule", "s1:");
        assertEquals(Main.OK, def.code(), def.out() + def.err());
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("race"));
        assertTrue(decisive(r, "race").startsWith("warp 2 ran its `bar.arrive 1, 64` (line 75) before warp 1's `bar.sync 1, 64` "
                + "(line 84) (step "), r.out());
        sameWithTwoJobs(name, r);
        // From a random schedule: consumer B met producer A where warp 0 was about to exit, so the default warp to
        // compare with is warp 1 (run after warp 0's exit), not warp 0's `ret`.
        Result rnd = exploreRandomOnly(name);
        assertEquals(1, finding(rnd, "race").path("minimization").path("minimalSize").asInt(), rnd.out());
        assertTrue(decisive(rnd, "race").startsWith("warp 3 ran its `bar.sync 1, 64` (line 84) before warp 1's `bar.sync 1, 64` "
                + "(line 84) (step "), rnd.out());
    }

    @Test
    void aClusterArriveBeforeTheRemoteStoreRacesAndItsDecisionSaysRankZeroExitedBeforeTheStoreLanded() throws Exception {
        String name = "cluster-arrive-before-store";
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("race", "dsmem-after-exit"));
        assertEquals("s1:", finding(r, "race").path("minimization").path("minimal").asText());
        // What matters is which CTA exited first and whose remote store came too late, not a pair of steps.
        String why = decisive(r, "dsmem-after-exit");
        long failing = finding(r, "dsmem-after-exit").path("minimization").path("failingStep").asLong();
        assertTrue(why.matches("cluster rank 0 \\(CTA 0\\) exited at step \\d+, before CTA 1 warp 0's `st.u32 \\[%rd12\\], %r17` "
                + "\\(line 88\\) reached rank 0's shared memory at step " + failing + ": CTA 0 warp 0 ran on instead of CTA 1 warp 0 "
                + "\\(step \\d+\\)"), why);
        assertTrue(r.out().contains("  decisive: " + why + "\n"), "the console says the same as the report: " + r.out());
        sameWithTwoJobs(name, r);
    }
    /**
     * The other direction of a decisive {@code dsmem-after-exit} switch: with two warps per CTA, a
     * switch inside rank 1 (to its warp 1) holds back warp 0 between its arrive and its remote
     * store, and rank 0 exits before the store. That decision is said as holding back the store,
     * not as a pair of unrelated steps; the second (rank 0 running on so that the race does not
     * stop the run first) as before.
     */
    @Test
    void aSwitchThatHoldsBackTheRemoteStoreUntilRankZeroExitedSaysSo() throws Exception {
        String name = "cluster-arrive-before-store-two-warps";
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("race", "dsmem-after-exit"));
        JsonNode m = finding(r, "dsmem-after-exit").path("minimization");
        assertEquals(2, m.path("minimalSize").asInt(), r.out());
        long failing = m.path("failingStep").asLong();
        String held = m.path("decisive").get(0).path("text").asText();
        assertTrue(held.matches("CTA 1 warp 1 ran instead of CTA 1 warp 0 \\(step \\d+\\), holding back CTA 1 warp 0's "
                + "`st.u32 \\[%rd12\\], %r17` \\(line 88\\): cluster rank 0 \\(CTA 0\\) exited at step \\d+ before it reached "
                + "rank 0's shared memory at step " + failing), held);
        String ran = m.path("decisive").get(1).path("text").asText();
        assertTrue(ran.matches("cluster rank 0 \\(CTA 0\\) exited at step \\d+, before CTA 1 warp 0's `st.u32 \\[%rd12\\], %r17` "
                + "\\(line 88\\) reached rank 0's shared memory at step " + failing + ": CTA 0 warp 0 ran on instead of CTA 1 warp 1 "
                + "\\(step \\d+\\)"), ran);
        assertTrue(r.out().contains("  decisive: " + held + "\n"), "the console says the same as the report: " + r.out());
        sameWithTwoJobs(name, r);
    }

    /**
     * The default search (bounded sleep sets) makes each run's race-reversing forks first
     * (docs/explore.md, "Race-reversing forks first"): within the default budget it reaches the
     * two decisions that hold back the remote store, which the decision order reaches only past
     * its 700 systematic schedules; both complete the same bound, with the same claim.
     */
    @Test
    void theDefaultSearchReachesTheHeldBackRemoteStoreWithinItsDefaultBudget() throws Exception {
        String name = "cluster-arrive-before-store-two-warps";
        Result r = cli(true, "explore", launch(name), "--no-minimize", "--jobs", "1");
        assertTrue(finding(r, "dsmem-after-exit") != null, r.out());
        Result inOrder = cli(true, "explore", launch(name), "--no-minimize", "--jobs", "1", "--decision-order");
        String claim = "deviation bound 1 (non-default decisions) complete up to equivalence";
        assertTrue(r.out().contains(claim), r.out());
        assertTrue(inOrder.out().contains(claim), inOrder.out());
        assertEquals(r.report().path("coverage").path("systematic"), inOrder.report().path("coverage").path("systematic"));
    }

    /**
     * {@code two-late-reads} hangs only when two switches are both made (warp 1 reads {@code a}
     * before warp 0 raises it, and warp 3 reads {@code b} before warp 2 raises it). The minimal
     * schedule, from the systematic search and from noisy random schedules alike, keeps both: it
     * is 1-minimal (the schedule without either decision passes) and each decision is explained
     * by its own pair.
     */
    @Test
    void twoDecisionsThatOnlyFailTogetherAreBothKeptAndBothNamed() throws Exception {
        String name = "two-late-reads";
        Result def = cli(true, "run", launch(name), "--schedule", "s1:");
        assertEquals(Main.OK, def.code(), def.out() + def.err());
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("deadlock"));
        for (Result res : List.of(r, exploreRandomOnly(name))) {
            JsonNode m = finding(res, "deadlock").path("minimization");
            assertEquals(2, m.path("minimalSize").asInt(), res.out());
            JsonNode d = m.path("decisive");
            assertTrue(d.get(0).path("text").asText().startsWith("warp 1 ran its `atom.global.add.u32 %r15, [%rd1], 0` (line 45) "
                    + "before warp 0's `atom.global.exch.b32 %r14, [%rd1], 1` (line 61) (step "), res.out());
            assertTrue(d.get(1).path("text").asText().startsWith("warp 3 ran its `atom.global.add.u32 %r15, [%rd4], 0` (line 84) "
                    + "before warp 2's `atom.global.exch.b32 %r10, [%rd6], 1` (line 75) (step "), res.out());
            // Either decision alone (at the decision index it had) runs to completion.
            String[] e = m.path("minimal").asText().substring(3).split(",");
            long first = Long.parseLong(e[0].substring(0, e[0].indexOf('w')));
            long second = first + 1 + Long.parseLong(e[1].substring(0, e[1].indexOf('w')));
            for (String alone : List.of("s1:" + e[0], "s1:" + second + e[1].substring(e[1].indexOf('w')))) {
                Result one = cli(true, "run", launch(name), "--schedule", alone);
                assertEquals(Main.OK, one.code(), alone + ": " + one.out() + one.err());
            }
        }
        sameWithTwoJobs(name, r);
    }

    private static final String ONCE_WAIT = "`mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%r13], %r14` (line 100)";

    /**
     * {@code try-wait-once} takes one {@code try_wait} as completion. Its minimal schedule is known:
     * two decisions, both needed (in the default schedule the producer arrives before the consumer
     * waits, so no wait can return early): let the consumer reach its wait before the producer's
     * arrive, and let its try_wait return false early. Either alone passes. Of that size, the one
     * without a preemption: warp 1 first to the {@code __syncthreads}, so warp 0, the last to arrive,
     * goes on past it to its wait, a free choice at the first decision (the systematic search finds
     * a preemption of the producer just before its arrive, {@code s1:9w0,32t1}, which the minimiser
     * trades for it).
     */
    @Test
    void aSingleTryWaitTakenAsCompletionRacesOnlyWhenItReturnsFalseBeforeTheArrive() throws Exception {
        String name = "try-wait-once";
        Result def = cli(true, "run", launch(name), "--schedule", "s1:");
        assertEquals(Main.OK, def.code(), def.out() + def.err());
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("race"));
        for (Result res : List.of(r, exploreRandomOnly(name))) {
            JsonNode m = finding(res, "race").path("minimization");
            assertEquals(2, m.path("minimalSize").asInt(), res.out());
            assertEquals(0, m.path("minimalPreemptions").asInt(), res.out());
            JsonNode d = m.path("decisive");
            // Named by the racing pair the free choice let happen: the consumer's read before the producer's write.
            assertTrue(d.get(0).path("text").asText().startsWith("warp 1 ran instead of warp 0 (step 0), so warp 0 ran its "
                    + "`ld.shared.u32 %r20, [%r19]` (line 109) before warp 1's `st.shared.u32 [%r26], %r27` (line 83) (step "), res.out());
            assertTrue(d.get(1).path("text").asText().startsWith("warp 0's " + ONCE_WAIT + " returned false early (step "), res.out());
            String[] e = m.path("minimal").asText().substring(3).split(",");
            assertTrue(e[0].equals("0w1") && e[1].matches("\\d+t1"), m.toString());
            // The switch alone: the wait suspends until the arrive. The early return alone has no wait to cut short
            // (the arrive came first): the schedule does not fit the run, or the run passes.
            Result one = cli(true, "run", launch(name), "--schedule", "s1:" + e[0]);
            assertEquals(Main.OK, one.code(), e[0] + ": " + one.out() + one.err());
            long at = Long.parseLong(e[0].substring(0, e[0].indexOf('w'))) + 1 + Long.parseLong(e[1].substring(0, e[1].indexOf('t')));
            Result other = cli(true, "run", launch(name), "--schedule", "s1:" + at + "t1");
            assertTrue(other.code() == Main.OK || other.code() == 2, at + "t1: " + other.out() + other.err());
        }
        sameWithTwoJobs(name, r);
    }

    /**
     * The tie-break among minimal schedules of one size: the systematic search's found schedule for
     * {@code try-wait-once} preempts the producer before its arrive ({@code s1:9w0,32t1}, 1
     * preemption); the minimiser keeps its size and trades the preemption for a free choice at the
     * first decision, the early return re-anchored to the same lane's try_wait (lane 31, the 32nd
     * of warp 0's try_wait decisions), so the race is the same pair of threads.
     */
    @Test
    void theMinimalTryWaitScheduleTradesThePreemptionOfTheProducerForAFreeChoice() throws Exception {
        Result r = explore("try-wait-once", "1");
        JsonNode m = finding(r, "race").path("minimization");
        assertEquals("s1:9w0,32t1", m.path("found").asText(), r.out());
        assertEquals(1, m.path("foundPreemptions").asInt(), r.out());
        assertEquals("s1:0w1,36t1", m.path("minimal").asText(), r.out());
        assertEquals(m.path("foundSize").asInt(), m.path("minimalSize").asInt(), r.out());
        assertEquals(0, m.path("minimalPreemptions").asInt(), r.out());
        assertTrue(m.path("complete").asBoolean(), r.out());
        assertTrue(r.out().contains("minimal schedule: 2 decisions off the default, 0 preemptions: s1:0w1,36t1"), r.out());
    }

    /**
     * {@code last-block-without-fence}: the last-block reduction across CTAs with relaxed ticket
     * atomics and no fences races in every schedule (minimal {@code s1:}); its fix
     * ({@code last-block-with-fence}, fences around the ticket) has no finding in the same search.
     */
    @Test
    void aLastBlockReductionWithoutFencesRacesInEveryScheduleAndItsFencedTwinIsClean() throws Exception {
        String name = "last-block-without-fence";
        Result r = explore(name, "1");
        checkEveryFinding(name, r, List.of("race"));
        JsonNode f = finding(r, "race");
        assertEquals("s1:", f.path("minimization").path("minimal").asText());
        assertTrue(f.path("message").asText().contains("only a release/acquire flag (st.release / ld.acquire, or fences with atomics) "
                + "can order them"), f.toString());
        sameWithTwoJobs(name, r);
        Result fixed = explore("last-block-with-fence", "1");
        assertEquals(Main.OK, fixed.code(), fixed.out() + fixed.err());
        assertEquals(0, fixed.report().path("findings").size(), fixed.out());
    }
}
