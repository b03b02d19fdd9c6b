package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The default search's exhaustion pass ({@link ExhaustionPass}: bounded sleep sets, and after bound 1
 * an unbounded source-set search under a share of the budgets): small kernels are exhausted with
 * every interleaving class brute force reaches, where the bounded sleep sets alone only complete
 * bounds; a pass that does not exhaust leaves the bounded search as it was; any number of jobs.
 */
class ExhaustionPassTest {
    private record Search(Coverage coverage, List<String> schedules, boolean byPass) {}

    /** The default reduction (bounded sleep sets) with or without the pass; no symmetric-warp reduction. */
    private static Search search(Supplier<LaunchedRun> open, boolean pass, long budget, int bound, int jobs) {
        Explorer ex = new Explorer(open.get(), () -> 0L);
        ex.boundedPartialOrder(true);
        ex.exhaustionPass(pass);
        if (jobs > 1) ex.jobs(jobs, open);
        List<String> seen = new ArrayList<>();
        ex.onSchedule(s -> seen.add(s.toString()));
        Coverage c = ex.explore(new Explorer.Options(budget, 0, 0, bound, 100_000, false, -1)).coverage();
        return new Search(c, seen, ex.exhaustedByPass());
    }

    /** Every schedule with up to 2 non-default decisions, no reduction of any kind (on these kernels: every class). */
    private static Search bruteForce(Supplier<LaunchedRun> open) {
        Explorer ex = new Explorer(open.get(), () -> 0L);
        ex.systematicOnly(true);
        ex.partialOrder(false);
        List<String> seen = new ArrayList<>();
        ex.onSchedule(s -> seen.add(s.toString()));
        Coverage c = ex.explore(new Explorer.Options(1_000_000, 0, 0, 2, 100_000, false, -1)).coverage();
        assertTrue(c.deviationBoundCompleted() >= 2, c.toString());
        return new Search(c, seen, ex.exhaustedByPass());
    }

    private static final List<Supplier<LaunchedRun>> KERNELS = List.of(() -> PartialOrderTest.exchanges(3), () -> PartialOrderTest.pairs(2),
            () -> BoundedPartialOrderTest.rounds(3));
    /** Their interleaving classes: 3! exchange orders; 2 x 2 for two pairs; 3! x 3! for two rounds. */
    private static final List<Integer> CLASSES = List.of(6, 4, 36);

    @Test
    void theDefaultSearchExhaustsSmallKernelsWithEveryClassBruteForceReaches() {
        for (int k = 0; k < KERNELS.size(); k++) {
            Supplier<LaunchedRun> open = KERNELS.get(k);
            Search ours = search(open, true, 1000, 2, 1);
            Search alone = search(open, false, 1000, 2, 1);
            String what = "kernel " + k + ": " + ours.coverage();
            assertTrue(ours.coverage().allSchedules(), what);
            assertEquals(Coverage.EXHAUSTED, ours.coverage().stoppedBy(), what);
            assertEquals(0, ours.coverage().random(), what);
            assertTrue(ours.coverage().proven(false).startsWith("all schedules"), what);
            assertTrue(ours.coverage().proven(false).contains("all interleavings, up to equivalence"), what);
            var classes = PartialOrderTest.finalBuffers(ours.schedules(), open);
            assertEquals(CLASSES.get(k), classes.size(), what);
            // Brute force where it is cheap enough: the same classes.
            if (k < 2) assertEquals(PartialOrderTest.finalBuffers(bruteForce(open).schedules(), open), classes, what);
            // The bounded sleep sets alone complete the bounds but do not exhaust these kernels.
            assertFalse(alone.coverage().allSchedules(), "kernel " + k + " alone: " + alone.coverage());
            assertEquals(2, alone.coverage().deviationBoundCompleted(), "kernel " + k + " alone: " + alone.coverage());
        }
    }

    /** What the report's coverage.exhaustedBy reads: the pass's proof is told from the bounded search's own and from none. */
    @Test
    void theExplorerSaysWhetherThePassProvedTheExhaustion() {
        assertTrue(search(KERNELS.get(0), true, 1000, 2, 1).byPass(), "exhausted by the pass");
        assertFalse(search(KERNELS.get(0), false, 1000, 2, 1).byPass(), "no pass: not exhausted, not by it");
        // One warp: no alternative at all, so bound 1 of the bounded search exhausts before the pass would start.
        Search one = search(() -> PartialOrderTest.exchanges(1), true, 1000, 2, 1);
        assertTrue(one.coverage().allSchedules(), one.coverage().toString());
        assertFalse(one.byPass(), one.coverage().toString());
        // Four warps in two rounds: the pass runs out of its share; the bounded search does not exhaust either.
        Search cut = search(() -> BoundedPartialOrderTest.rounds(4), true, 300, 2, 1);
        assertFalse(cut.coverage().allSchedules() || cut.byPass(), cut.coverage().toString());
    }

    @Test
    void aPassThatDoesNotExhaustLeavesTheBoundedSearchAsItWas() {
        // Four warps exchanging in two rounds: 576 classes, more than the pass's share of 60 schedules holds.
        Supplier<LaunchedRun> open = () -> BoundedPartialOrderTest.rounds(4);
        Search with = search(open, true, 300, 2, 1);
        Search without = search(open, false, 300, 2, 1);
        Coverage w = with.coverage();
        Coverage wo = without.coverage();
        assertFalse(w.allSchedules(), w.toString());
        assertEquals(wo.deviationBoundCompleted(), w.deviationBoundCompleted());
        assertEquals(wo.proven(false), w.proven(false));
        assertEquals(wo.skippedByPartialOrder(), w.skippedByPartialOrder());
        long pass = w.systematic() - wo.systematic();
        assertEquals(60, pass, w + " vs " + wo);
        assertEquals(wo.schedules(), w.schedules());
        // The bounded search's schedules, in order, are those without the pass: bound 1's, then (after the pass's) the rest.
        List<String> a = with.schedules().subList(0, (int) w.systematic());
        List<String> b = without.schedules().subList(0, (int) wo.systematic());
        boolean found = false;
        for (int n1 = 1; n1 < b.size() && !found; n1++) {
            found = a.subList(0, n1).equals(b.subList(0, n1)) && a.subList((int) (n1 + pass), a.size()).equals(b.subList(n1, b.size()));
        }
        assertTrue(found, "the bounded search's schedules around the pass: " + a + " vs " + b);
    }

    @Test
    void twoJobsRunTheSchedulesOfOne() {
        for (Supplier<LaunchedRun> open : List.<Supplier<LaunchedRun>>of(() -> PartialOrderTest.exchanges(3),
                () -> BoundedPartialOrderTest.rounds(4))) {
            Search one = search(open, true, 300, 2, 1);
            Search two = search(open, true, 300, 2, 2);
            assertEquals(one.schedules(), two.schedules());
            assertEquals(one.coverage(), two.coverage());
        }
    }
}
