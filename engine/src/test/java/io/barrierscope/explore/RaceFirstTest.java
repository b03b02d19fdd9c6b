package io.barrierscope.explore;

import static io.barrierscope.explore.PartialOrderTest.fp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Race-reversing forks first ({@link RaceFirst}, docs/explore.md): the bounded sleep sets make the
 * forks that reverse a dependence of their run before the others, and only the order changes.
 */
class RaceFirstTest {
    private static final char W = SchedulePolicy.WARP;

    /** A warp fork (decision, warp) taken at step {@code step}, as the lister files it. */
    private static long[] fork(long decision, int warp, long step) { return new long[] {decision, W, warp, -1, step}; }

    @Test
    void aLaterStepDependentWithAnotherWarpsStepIsReversible() {
        TraceLog t = new TraceLog();
        t.add(10, 3, 0, fp(5 << 1 | 1), null); // warp 0 writes key 5
        t.add(11, 4, 2, fp(7 << 1), null); // warp 2 reads another key
        t.add(20, 5, 1, fp(5 << 1), null); // warp 1 reads key 5: dependent with step 10
        long[][] rev = RaceFirst.reversible(t, 3);
        assertEquals(1, rev.length);
        assertEquals(10, rev[0][0]);
        assertEquals(1L << 1, rev[0][1], "warp 1's later step reverses step 10");
    }

    @Test
    void twoReadsOfOneKeyAreNotReversible() {
        TraceLog t = new TraceLog();
        t.add(10, 3, 0, fp(5 << 1), null);
        t.add(20, 5, 1, fp(5 << 1), null);
        assertEquals(0, RaceFirst.reversible(t, 2).length);
    }

    @Test
    void theForksAroundTheDependentStepComeFirstInDecisionOrder() {
        TraceLog t = new TraceLog();
        t.add(10, 3, 0, fp(5 << 1 | 1), null);
        t.add(20, 5, 1, fp(5 << 1), null);
        long[] early = fork(1, 1, 2);
        long[] before = fork(3, 1, 10); // the last decision offering warp 1 at or before step 10
        long[] after = fork(4, 1, 15); // and the first after it
        long[] late = fork(5, 1, 18);
        long[] other = new long[] {2, 'c', 1, -1, 5}; // not a warp decision: keeps its place among the rest
        List<long[]> as = List.of(early, other, before, after, late);
        assertEquals(List.of(before, after, early, other, late), RaceFirst.order(as, RaceFirst.reversible(t, 2)));
    }

    /**
     * A raced run puts back the symmetric alternatives it skipped (Explorer.keepSymmetricIfRaced): they carry their
     * decision's step as the other forks do, so one that reverses a dependence is made first too.
     */
    @Test
    void aSymmetricAlternativePutBackAfterARaceIsOrderedFirstWhenItReverses() {
        LaunchedRun run = PartialOrderTest.exchanges(3);
        var m = run.machine();
        Frame record = new Frame(Schedule.EMPTY, -1);
        record.listSkipped = true;
        DecisionLister lister = new DecisionLister(record, null, new WarpSymmetry(m.program), m, true);
        // At the start every warp is in the same state: warps 1 and 2 are skipped as symmetric to the running warp 0.
        lister.point(0, (char) W, 0, new long[] {1, 2}, 2);
        assertFalse(record.skipped.isEmpty());
        long[] back = record.skipped.get(0);
        long[] other = {1, W, 0, -1, m.steps + 1}; // a later fork to warp 0
        assertEquals(5, back.length, java.util.Arrays.toString(back));
        assertEquals(-1, back[3], "no sleep point, as before");
        assertEquals(m.steps, back[4]);
        // Warp back[2] reads at step 20 what warp 0 wrote at step 10: the fork to it at the decision before is first.
        TraceLog t = new TraceLog();
        t.add(m.steps + 10, 3, 0, fp(5 << 1 | 1), null);
        t.add(m.steps + 20, 5, (int) back[2], fp(5 << 1), null);
        assertEquals(List.of(back, other), RaceFirst.order(List.of(other, back), RaceFirst.reversible(t, 3)));
    }

    @Test
    void withoutDependencesTheOrderIsKept() {
        List<long[]> as = List.of(fork(1, 1, 2), fork(2, 0, 3));
        assertSame(as, RaceFirst.order(as, new long[0][]));
        assertSame(as, RaceFirst.order(as, null));
    }

    @Test
    void aRunsLogIsFullAtItsEntryOrKeyCap() {
        TraceLog t = new TraceLog();
        for (int i = 0; i < RaceFirst.MAX_ENTRIES - 1; i++) t.add(i, -1, i & 1, fp(), null);
        assertFalse(RaceFirst.full(t));
        t.add(RaceFirst.MAX_ENTRIES, -1, 0, fp(), null);
        assertTrue(RaceFirst.full(t));
        TraceLog wide = new TraceLog();
        long[] keys = new long[StepFootprints.MAX_KEYS];
        for (int k = 0; k < keys.length; k++) keys[k] = (long) k << 1;
        for (int i = 0; i < RaceFirst.MAX_KEYS / keys.length; i++) {
            assertFalse(RaceFirst.full(wide));
            wide.add(i, -1, 0, fp(keys), null);
        }
        assertTrue(RaceFirst.full(wide));
    }

    private record Search(Coverage coverage, List<String> schedules) {}

    private static Search search(LaunchedRun run, boolean raceFirst, int bound) {
        Explorer ex = new Explorer(run, () -> 0L);
        ex.systematicOnly(true);
        ex.boundedPartialOrder(true);
        ex.raceFirst(raceFirst);
        List<String> seen = new ArrayList<>();
        ex.onSchedule(s -> seen.add(s.toString()));
        Coverage c = ex.explore(new Explorer.Options(1_000_000, 0, 0, bound, 100_000, false, -1)).coverage();
        return new Search(c, seen);
    }

    /** Every schedule the decision order runs to complete a bound is run in the race-first order, and no other. */
    @Test
    void theSameSchedulesCompleteEachBoundInEitherOrder() {
        List<Supplier<LaunchedRun>> kernels = List.of(() -> PartialOrderTest.exchanges(3), () -> PartialOrderTest.pairs(2),
                () -> BoundedPartialOrderTest.rounds(3), () -> PartialOrderTest.exchanges(4));
        boolean reordered = false;
        for (int k = 0; k < kernels.size(); k++) {
            for (int bound = 1; bound <= 2; bound++) {
                Search inOrder = search(kernels.get(k).get(), false, bound);
                Search first = search(kernels.get(k).get(), true, bound);
                String what = "kernel " + k + ", bound " + bound;
                assertEquals(new TreeSet<>(inOrder.schedules()), new TreeSet<>(first.schedules()), what);
                assertEquals(inOrder.coverage().deviationBoundCompleted(), first.coverage().deviationBoundCompleted(), what);
                assertEquals(inOrder.coverage().allSchedules(), first.coverage().allSchedules(), what);
                assertEquals(inOrder.coverage().prunedByState(), first.coverage().prunedByState(), what);
                reordered |= !inOrder.schedules().equals(first.schedules());
            }
        }
        assertTrue(reordered, "race-first changes the order on some kernel");
    }

    @Test
    void raceFirstIsInForceOnlyWithTheBoundedSleepSets() {
        Explorer ex = new Explorer(PartialOrderTest.exchanges(2), () -> 0L);
        ex.raceFirst(true);
        ex.boundedPartialOrder(false);
        assertFalse(ex.raceFirst(), "race-first orders the bounded sleep sets' forks only");
        ex.boundedPartialOrder(true);
        assertTrue(ex.raceFirst());
    }
}
