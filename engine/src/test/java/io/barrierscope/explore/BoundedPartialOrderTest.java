package io.barrierscope.explore;

import static io.barrierscope.explore.PartialOrderTest.fp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The partial-order reductions sound within the deviation bound ({@code --bounded-por}: the bounded
 * sleep sets, {@link SleepSet#bounded}, and the older rule {@link BoundedPartialOrder}): against
 * brute force (every schedule with up to K non-default decisions, no reduction of any kind), the
 * classes reached within the bound are the same; source sets miss some on kernels built for it.
 */
class BoundedPartialOrderTest {
    /**
     * Each warp exchanges its warp number into word 0, meets the others at bar.sync 0, exchanges
     * again, and stores what it got both times to its own words: the final buffer tells the order
     * of both rounds' exchanges apart (3! x 3! classes for 3 warps).
     */
    static LaunchedRun rounds(int warps) {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                ld.param.u64 %rd1, [out];
                mov.u32 %r1, %tid.x;
                shr.u32 %r2, %r1, 5;
                atom.global.exch.b32 %r3, [%rd1], %r2;
                bar.sync 0;
                atom.global.exch.b32 %r4, [%rd1], %r2;
                mul.wide.u32 %rd2, %r1, 8;
                add.u64 %rd2, %rd1, %rd2;
                st.global.u32 [%rd2+4], %r3;
                st.global.u32 [%rd2+8], %r4;
                ret;
                """).buffer("out", 1 + 64 * warps).threads(32 * warps).launch(new SchedulePolicy());
    }

    private enum Mode { BRUTE_FORCE, SOURCE_SETS, BOUNDED, REMAINDER }

    private record Search(Coverage coverage, List<String> schedules) {}

    /** The systematic phase alone up to {@code bound}, without the symmetric-warp reduction. */
    private static Search search(LaunchedRun run, Mode mode, int bound, int jobs, Supplier<LaunchedRun> open) {
        Explorer ex = new Explorer(run, () -> 0L);
        ex.systematicOnly(true);
        ex.partialOrder(mode != Mode.BRUTE_FORCE);
        ex.boundedPartialOrder(mode == Mode.BOUNDED || mode == Mode.REMAINDER);
        ex.boundedSleepSets(mode == Mode.BOUNDED);
        if (jobs > 1) ex.jobs(jobs, open);
        List<String> seen = new ArrayList<>();
        ex.onSchedule(s -> seen.add(s.toString()));
        Coverage c = ex.explore(new Explorer.Options(1_000_000, 0, 0, bound, 100_000, false, -1)).coverage();
        assertTrue(c.deviationBoundCompleted() >= bound || c.allSchedules(), c.toString());
        return new Search(c, seen);
    }

    private static Search search(Supplier<LaunchedRun> open, Mode mode, int bound) { return search(open.get(), mode, bound, 1, open); }

    /** The final buffer of each schedule, replayed from the start: on these kernels, its interleaving class. */
    private static Set<List<Long>> classes(List<String> schedules, Supplier<LaunchedRun> open) {
        return PartialOrderTest.finalBuffers(schedules, open);
    }

    /**
     * Warp 0 stores to its own word 70 times (so its fair streak cuts it off by default) before it
     * exchanges its warp number into word 0; warps 1 and 2 exchange at once. The final buffer
     * tells the exchange order apart.
     */
    static LaunchedRun longRun() {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                .reg .pred %p<2>;
                ld.param.u64 %rd1, [out];
                mov.u32 %r1, %tid.x;
                shr.u32 %r2, %r1, 5;
                mul.wide.u32 %rd2, %r1, 4;
                add.u64 %rd2, %rd1, %rd2;
                setp.ne.u32 %p1, %r2, 0;
                mov.u32 %r5, 70;
                @%p1 bra EXCH;
                LOOP:
                st.global.u32 [%rd2+8], %r5;
                sub.u32 %r5, %r5, 1;
                setp.ne.u32 %p1, %r5, 0;
                @%p1 bra LOOP;
                EXCH:
                atom.global.exch.b32 %r3, [%rd1], %r2;
                st.global.u32 [%rd2+4], %r3;
                ret;
                """).buffer("out", 2 + 32 * 3).threads(32 * 3).launch(new SchedulePolicy());
    }

    private static void sameClassesAsBruteForce(Mode mode, List<Supplier<LaunchedRun>> kernels, int bound) {
        for (int k = 0; k < kernels.size(); k++) {
            Supplier<LaunchedRun> open = kernels.get(k);
            Search brute = search(open, Mode.BRUTE_FORCE, bound);
            Search ours = search(open, mode, bound);
            String what = mode + ", kernel " + k + ", bound " + bound;
            assertEquals(classes(brute.schedules(), open), classes(ours.schedules(), open), what);
            assertTrue(ours.coverage().schedules() <= brute.coverage().schedules(), what + ": " + ours.coverage());
            assertEquals(0, brute.coverage().skippedByPartialOrder());
        }
    }

    private static final List<Supplier<LaunchedRun>> KERNELS = List.of(() -> PartialOrderTest.exchanges(3), () -> PartialOrderTest.pairs(2),
            () -> rounds(3), () -> PartialOrderTest.exchanges(4));

    @Test
    void everyClassWithinTheBoundIsReachedAsByBruteForce() {
        for (int bound = 1; bound <= 2; bound++) sameClassesAsBruteForce(Mode.BOUNDED, KERNELS, bound);
        sameClassesAsBruteForce(Mode.BOUNDED, List.of(() -> PartialOrderTest.exchanges(3)), 3);
    }

    @Test
    void aWarpCutOffByItsFairStreakKeepsEveryClassWithinTheBound() {
        sameClassesAsBruteForce(Mode.BOUNDED, List.of(BoundedPartialOrderTest::longRun), 1);
    }

    @Test
    void theIndependentRemainderRuleReachesEveryClassWithinTheBoundToo() {
        for (int bound = 1; bound <= 2; bound++) sameClassesAsBruteForce(Mode.REMAINDER, KERNELS.subList(0, 3), bound);
    }

    /**
     * The bounded sleep sets run far fewer schedules than the older rule for the same classes:
     * two pairs of exchanging warps, bound 2.
     */
    @Test
    void boundedSleepSetsRunFewerSchedulesThanTheIndependentRemainderRule() {
        Supplier<LaunchedRun> open = () -> PartialOrderTest.pairs(2);
        Search sleep = search(open, Mode.BOUNDED, 2);
        Search remainder = search(open, Mode.REMAINDER, 2);
        assertEquals(classes(remainder.schedules(), open), classes(sleep.schedules(), open));
        assertTrue(sleep.coverage().schedules() * 4 < remainder.coverage().schedules(),
                sleep.coverage().schedules() + " against " + remainder.coverage().schedules());
    }

    /** Source sets miss classes at bounds 2 and 3 too (four exchanging warps), which the bounded sleep sets reach. */
    @Test
    void sourceSetsMissClassesAtDeeperBoundsThatBoundedSleepSetsReach() {
        Supplier<LaunchedRun> open = () -> PartialOrderTest.exchanges(4);
        Set<List<Long>> brute = classes(search(open, Mode.BRUTE_FORCE, 2).schedules(), open);
        Set<List<Long>> source = classes(search(open, Mode.SOURCE_SETS, 2).schedules(), open);
        assertTrue(source.size() < brute.size(), source.size() + " of " + brute.size());
        assertEquals(brute, classes(search(open, Mode.BOUNDED, 2).schedules(), open));
    }

    /**
     * Three exchanging warps, bound 1: source sets skip "warp 2 first" and reach its class only
     * with a second decision; the bounded rule forks it, and says what it proved.
     */
    @Test
    void sourceSetsMissAClassWithinTheBoundThatTheBoundedRuleReaches() {
        Supplier<LaunchedRun> open = () -> PartialOrderTest.exchanges(3);
        Set<List<Long>> brute = classes(search(open, Mode.BRUTE_FORCE, 1).schedules(), open);
        Search source = search(open, Mode.SOURCE_SETS, 1);
        Search ours = search(open, Mode.BOUNDED, 1);
        Set<List<Long>> missed = new HashSet<>(brute);
        missed.removeAll(classes(source.schedules(), open));
        assertEquals(1, missed.size(), "the old rule misses one class within the bound");
        assertEquals(brute, classes(ours.schedules(), open));
        assertTrue(source.coverage().proven(false).contains("partial-order-reduced search"), source.coverage().proven(false));
        assertTrue(ours.coverage().boundedPartialOrder());
        assertFalse(source.coverage().boundedPartialOrder());
        assertTrue(ours.coverage().proven(false).startsWith("every interleaving with at most 1 deviation, up to equivalence"),
                ours.coverage().proven(false));
    }

    @Test
    void decisionsAfterWhichTheRunIsIndependentAreNotForked() {
        Supplier<LaunchedRun> own = () -> PartialOrderTest.ownWords(3);
        Search ours = search(own, Mode.REMAINDER, 2);
        assertEquals(List.of("s1:"), ours.schedules());
        assertTrue(ours.coverage().allSchedules());
        assertTrue(ours.coverage().proven(false).contains("all interleavings, up to equivalence"), ours.coverage().proven(false));
        assertTrue(search(own, Mode.BRUTE_FORCE, 2).coverage().schedules() > 1);
        // The exchanges: the stores after the last exchange are each warp's own, so their orders are not forked.
        Supplier<LaunchedRun> ex = () -> PartialOrderTest.exchanges(3);
        assertTrue(search(ex, Mode.REMAINDER, 2).coverage().schedules() < search(ex, Mode.BRUTE_FORCE, 2).coverage().schedules());
    }

    /**
     * Independent warps: the bounded sleep sets count the default schedule alone (every fork is cut
     * as a reordering), and a completed bound states the claim up to equivalence.
     */
    @Test
    void independentWarpsNeedTheDefaultRunAloneWithBoundedSleepSets() {
        Supplier<LaunchedRun> own = () -> PartialOrderTest.ownWords(3);
        Search ours = search(own, Mode.BOUNDED, 2);
        assertEquals(List.of("s1:"), ours.schedules());
        assertTrue(ours.coverage().boundedPartialOrder());
        assertTrue(ours.coverage().proven(false).startsWith("every interleaving with at most 2 deviations, up to equivalence"),
                ours.coverage().proven(false));
    }

    @Test
    void twoJobsRunTheSchedulesOfOne() {
        Supplier<LaunchedRun> open = () -> rounds(3);
        assertEquals(search(open.get(), Mode.BOUNDED, 2, 1, open).schedules(), search(open.get(), Mode.BOUNDED, 2, 2, open).schedules());
        assertEquals(search(open.get(), Mode.REMAINDER, 2, 1, open).schedules(), search(open.get(), Mode.REMAINDER, 2, 2, open).schedules());
    }

    @Test
    void theRemainderIsIndependentAfterTheLastStepThatMeetsAnotherWarps() {
        TraceLog t = new TraceLog();
        t.add(10, 0, 0, fp(5 << 1 | 1), null); // warp 0 writes word 5
        t.add(11, 1, 1, fp(5 << 1), null); // warp 1 reads it: the last interaction is step 10
        t.add(12, 2, 0, fp(6 << 1 | 1), null); // then each its own word
        t.add(13, 3, 1, fp(7 << 1 | 1), null);
        t.add(14, 4, 1, fp(7 << 1), null);
        assertEquals(10, BoundedPartialOrder.lastInteraction(t));
        assertTrue(BoundedPartialOrder.skips(2, 12, 10, -1));
        assertFalse(BoundedPartialOrder.skips(0, 10, 10, -1), "the decision before the writing step");
        assertFalse(BoundedPartialOrder.skips(2, 12, 10, 3), "a later alternative of another kind");

        TraceLog reads = new TraceLog();
        reads.add(1, 0, 0, fp(5 << 1), null);
        reads.add(2, 1, 1, fp(5 << 1), null);
        assertEquals(BoundedPartialOrder.NONE, BoundedPartialOrder.lastInteraction(reads), "two reads commute");

        TraceLog enabling = new TraceLog();
        long[] other = WarpBits.empty(2);
        WarpBits.set(other, 1);
        enabling.add(3, 0, 0, fp(), other);
        enabling.add(4, 1, 1, fp(), null);
        assertEquals(3, BoundedPartialOrder.lastInteraction(enabling), "a step that makes another warp runnable");

        TraceLog stopped = new TraceLog();
        stopped.add(7, 0, 0, fp(9 << 1 | 1), null);
        stopped.add(8, -1, 0, StepFootprints.Footprint.EVERYTHING, null); // the run stopped with warps 0 and 1 able to run
        stopped.add(8, -1, 1, StepFootprints.Footprint.EVERYTHING, null);
        assertEquals(8, BoundedPartialOrder.lastInteraction(stopped));
    }
}
