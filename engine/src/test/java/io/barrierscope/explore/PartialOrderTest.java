package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The partial-order reduction (sleep sets over the steps' footprints, and source sets on top): on
 * kernels whose number of Mazurkiewicz-distinct interleavings is known, an exhaustive search with
 * it runs exactly one schedule per interleaving class and meets every outcome the search without
 * it meets; with a bound, the classes the search without it reaches; which steps it takes as dependent.
 */
class PartialOrderTest {
    /**
     * Each warp exchanges its warp number into word 0 (the exchanges do not commute), then stores
     * what it got to its own words and exits (commutes with everything else): the classes are the
     * orders of the exchanges, warps! of them, each with its own final buffer.
     */
    static LaunchedRun exchanges(int warps) {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                ld.param.u64 %rd1, [out];
                mov.u32 %r1, %tid.x;
                shr.u32 %r2, %r1, 5;
                atom.global.exch.b32 %r3, [%rd1], %r2;
                mul.wide.u32 %rd2, %r1, 4;
                add.u64 %rd2, %rd1, %rd2;
                st.global.u32 [%rd2+4], %r3;
                ret;
                """).buffer("out", 1 + 32 * warps).threads(32 * warps).launch(new SchedulePolicy());
    }

    /** Each warp stores to its own words, twice: every interleaving is one class. */
    static LaunchedRun ownWords(int warps) {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                ld.param.u64 %rd1, [out];
                mov.u32 %r1, %tid.x;
                mul.wide.u32 %rd2, %r1, 4;
                add.u64 %rd2, %rd1, %rd2;
                st.global.u32 [%rd2], %r1;
                st.global.u32 [%rd2], %r1;
                ret;
                """).buffer("out", 32 * warps).threads(32 * warps).launch(new SchedulePolicy());
    }

    /**
     * k pairs of warps: the two warps of pair p exchange into word p, then store what they got to
     * their own words. Exchanges of different pairs commute, so the classes are 2^k (one order per pair).
     */
    static LaunchedRun pairs(int k) {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                ld.param.u64 %rd1, [out];
                mov.u32 %r1, %tid.x;
                shr.u32 %r2, %r1, 5;
                shr.u32 %r4, %r2, 1;
                mul.wide.u32 %rd3, %r4, 4;
                add.u64 %rd3, %rd1, %rd3;
                atom.global.exch.b32 %r3, [%rd3], %r2;
                mul.wide.u32 %rd2, %r1, 4;
                add.u64 %rd2, %rd1, %rd2;
                st.global.u32 [%rd2+%OFF], %r3;
                ret;
                """.replace("%OFF", String.valueOf(4 * k))).buffer("out", k + 64 * k).threads(64 * k).launch(new SchedulePolicy());
    }

    /**
     * {@code ctas} CTAs of {@code perCta} warps each (more than 64 in all): with {@code exchange},
     * warp 0 and the last two exchange their warp numbers into word 0 (3! classes); every warp
     * stores what it got to its own words. Warps past bit 63 of a long take part in the races.
     */
    static LaunchedRun manyWarps(int ctas, int perCta, boolean exchange) {
        int warps = ctas * perCta;
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                .reg .pred %p<4>;
                ld.param.u64 %rd1, [out];
                mov.u32 %r4, %ctaid.x;
                mov.u32 %r5, %ntid.x;
                mov.u32 %r6, %tid.x;
                mad.lo.u32 %r1, %r4, %r5, %r6;
                shr.u32 %r2, %r1, 5;
                mov.u32 %r3, 0;
                setp.eq.u32 %p1, %r2, 0;
                setp.ge.u32 %p2, %r2, %FIRST;
                or.pred %p3, %p1, %p2;
                @!%p3 bra SKIP;
                atom.global.exch.b32 %r3, [%rd1], %r2;
                SKIP:
                mul.wide.u32 %rd2, %r1, 4;
                add.u64 %rd2, %rd1, %rd2;
                st.global.u32 [%rd2+4], %r3;
                ret;
                """.replace("%FIRST", String.valueOf(exchange ? warps - 2 : warps + 1)))
                .buffer("out", 1 + 32 * warps).grid(ctas).threads(32 * perCta).launch(new SchedulePolicy());
    }

    private record Search(Explorer.Result result, List<String> schedules, long blocked) {
        Coverage coverage() { return result.coverage(); }
    }

    /** The final buffer of each schedule, replayed from the start (the classes it reached, told apart exactly). */
    private static java.util.Set<List<Long>> finalBuffers(List<String> schedules, int warps) {
        return finalBuffers(schedules, () -> exchanges(warps));
    }

    /** Also the classes {@link BoundedPartialOrderTest} compares. */
    static java.util.Set<List<Long>> finalBuffers(List<String> schedules, java.util.function.Supplier<LaunchedRun> open) {
        java.util.Set<List<Long>> out = new java.util.HashSet<>();
        for (String s : schedules) {
            LaunchedRun r = open.get();
            ((SchedulePolicy) r.interpreter().policy()).follow(Schedule.parse(s));
            r.runToEnd();
            out.add(PtxRun.u32(r, "out"));
        }
        return out;
    }

    /** The systematic phase alone to exhaustion (no bound in practice), without the symmetric-warp reduction. */
    private static Search exhaust(LaunchedRun run, boolean por) { return exhaust(run, por, true); }

    private static Search exhaust(LaunchedRun run, boolean por, boolean sourceSets) {
        Search s = bounded(run, por, sourceSets, 8);
        assertEquals(Coverage.EXHAUSTED, s.coverage().stoppedBy());
        return s;
    }

    /** The systematic phase alone up to {@code bound} non-default decisions. */
    private static Search bounded(LaunchedRun run, boolean por, boolean sourceSets, int bound) {
        Explorer ex = new Explorer(run, () -> 0L);
        ex.systematicOnly(true);
        ex.partialOrder(por);
        ex.sourceSets(sourceSets);
        List<String> seen = new ArrayList<>();
        ex.onSchedule(s -> seen.add(s.toString()));
        Explorer.Result r = ex.explore(new Explorer.Options(1_000_000, 0, 0, bound, 100_000, false, -1));
        return new Search(r, seen, ex.blockedRuns());
    }

    @Test
    void anExhaustiveSearchRunsOneSchedulePerInterleavingClass() {
        for (int warps = 2; warps <= 4; warps++) {
            Search on = exhaust(exchanges(warps), true);
            long classes = warps == 2 ? 2 : warps == 3 ? 6 : 24;
            assertEquals(classes, on.coverage().schedules(), warps + " warps: " + on.schedules());
            assertEquals(classes, finalBuffers(on.schedules(), warps).size(), warps + " warps: every schedule a different class");
            assertTrue(on.coverage().allSchedules());
            assertTrue(on.coverage().skippedByPartialOrder() > 0);
            assertEquals(List.of(), on.result().findings());
        }
    }

    @Test
    void withoutTheReductionTheSameClassesNeedManyMoreSchedules() {
        Search off = exhaust(exchanges(3), false);
        Search on = exhaust(exchanges(3), true);
        assertEquals(finalBuffers(on.schedules(), 3), finalBuffers(off.schedules(), 3));
        assertEquals(0, off.coverage().skippedByPartialOrder());
        assertTrue(off.coverage().schedules() > 10 * on.coverage().schedules(), off.coverage() + " vs " + on.coverage());
    }

    @Test
    void warpsThatTouchOnlyTheirOwnWordsNeedOneSchedule() {
        Search on = exhaust(ownWords(3), true);
        assertEquals(List.of("s1:"), on.schedules());
        assertTrue(on.coverage().allSchedules());
        Search off = exhaust(ownWords(3), false);
        assertTrue(off.coverage().schedules() > 1);
        assertEquals(1, off.coverage().distinctOutcomes());
    }

    @Test
    void aFindingFreeExhaustiveSearchSaysAllSchedulesUpToEquivalence() {
        Coverage c = exhaust(exchanges(3), true).coverage();
        assertTrue(c.proven(false).startsWith("all schedules ("), c.proven(false));
        assertTrue(c.proven(false).contains("up to equivalence"), c.proven(false));
        assertFalse(exhaust(exchanges(3), false).coverage().proven(false).contains("equivalence"));
    }

    @Test
    void withSourceSetsIndependentWarpsRunTheDefaultScheduleAndNoFork() {
        LaunchedRun plain = ownWords(3);
        plain.runToEnd();
        Search on = exhaust(ownWords(3), true, true);
        assertEquals(List.of("s1:"), on.schedules());
        assertTrue(on.coverage().allSchedules());
        // No race, so no fork at all: the only steps run are the default run's (the sleep sets alone run forks to cut them).
        assertEquals(plain.machine().steps, on.coverage().warpSteps());
        assertEquals(0, on.blocked());
        Search sleep = exhaust(ownWords(3), true, false);
        assertTrue(sleep.coverage().warpSteps() > on.coverage().warpSteps());
        assertTrue(sleep.blocked() > 0, "the sleep sets alone run forks up to a sleeping step and cut them");
    }

    @Test
    void kDependentPairsRunOneSchedulePerMazurkiewiczTrace() {
        for (int k = 1; k <= 3; k++) {
            int pairs = k;
            Search on = exhaust(pairs(k), true, true);
            assertEquals(1L << k, on.coverage().schedules(), k + " pairs: " + on.schedules());
            assertEquals(1L << k, finalBuffers(on.schedules(), () -> pairs(pairs)).size(), k + " pairs: every schedule another class");
            assertTrue(on.coverage().allSchedules());
        }
    }

    @Test
    void sourceSetsRunFarFewerStepsThanTheSleepSetsAloneForTheSameClasses() {
        Search source = exhaust(pairs(2), true, true);
        Search sleep = exhaust(pairs(2), true, false);
        assertEquals(finalBuffers(sleep.schedules(), () -> pairs(2)), finalBuffers(source.schedules(), () -> pairs(2)));
        assertTrue(10 * source.coverage().warpSteps() < sleep.coverage().warpSteps(), source.coverage() + " vs " + sleep.coverage());
    }

    @Test
    void aSearchIsNotExhaustedWhileLeavesWereCutAsReorderings() {
        // Every leaf of some depth cut by the sleep sets says nothing about their forks one decision deeper.
        Search sleep = exhaust(pairs(2), true, false);
        assertEquals(4, sleep.coverage().schedules(), sleep.schedules().toString());
        assertEquals(4, finalBuffers(sleep.schedules(), () -> pairs(2)).size());
    }

    @Test
    void sourceSetsWorkOnLaunchesOfMoreThan64Warps() {
        // 65 warps (5 CTAs of 13): warps 0, 63 and 64 exchange, on both sides of a word of warp bits.
        // One schedule per class, as with few warps (the first decision offers all 64 other warps).
        java.util.function.Supplier<LaunchedRun> open = () -> manyWarps(5, 13, true);
        Search on = exhaust(open.get(), true, true);
        assertEquals(6, on.coverage().schedules(), on.schedules().toString());
        assertEquals(6, finalBuffers(on.schedules(), open).size(), "every schedule another class");
        assertTrue(on.coverage().allSchedules());
        assertTrue(on.schedules().stream().anyMatch(s -> s.contains("w64")), "a fork to warp 64: " + on.schedules());
    }

    @Test
    void pastSixtyFourWarpsTwoJobsGiveTheSchedulesOfOne() {
        List<List<String>> runs = new ArrayList<>();
        for (int jobs = 1; jobs <= 2; jobs++) {
            Explorer ex = new Explorer(manyWarps(5, 13, true), () -> 0L);
            ex.systematicOnly(true);
            ex.jobs(jobs, () -> manyWarps(5, 13, true));
            List<String> seen = new ArrayList<>();
            ex.onSchedule(s -> seen.add(s.toString()));
            ex.explore(new Explorer.Options(1_000_000, 0, 0, 1, 100_000, false, -1));
            assertTrue(ex.usedSourceSets());
            runs.add(seen);
        }
        assertTrue(runs.get(0).size() > 1, runs.get(0).toString());
        assertEquals(runs.get(0), runs.get(1));
    }

    @Test
    void onMoreThan64IndependentWarpsSourceSetsRunTheDefaultScheduleAlone() {
        LaunchedRun plain = manyWarps(5, 14, false);
        plain.runToEnd();
        Search on = exhaust(manyWarps(5, 14, false), true, true);
        assertEquals(List.of("s1:"), on.schedules());
        assertEquals(plain.machine().steps, on.coverage().warpSteps(), "no fork made, not even one cut by the sleep sets");
    }

    /**
     * Bounded partial-order reduction (Coons et al.): the run that stands for a skipped schedule may
     * need more non-default decisions. Three exchanging warps, bound 1: "warp 2 first" (one decision,
     * then warps 0 and 1 in turn) is skipped, and the reduced search reaches that class only with two.
     * So a bounded search with the reduction claims only what it forked, and --no-por every schedule.
     */
    @Test
    void withABoundTheReducedSearchMayNeedMoreDecisionsForAClassAndSaysSo() {
        java.util.function.Supplier<LaunchedRun> open = () -> exchanges(3);
        java.util.Set<List<Long>> off1 = finalBuffers(bounded(open.get(), false, true, 1).schedules(), open);
        for (boolean sourceSets : new boolean[] {true, false}) {
            Search on1 = bounded(open.get(), true, sourceSets, 1);
            java.util.Set<List<Long>> reached = finalBuffers(on1.schedules(), open);
            assertTrue(off1.containsAll(reached), "every schedule it runs is within the bound");
            assertEquals(off1.size() - 1, reached.size(), "one class needs a second decision with the reduction");
            assertTrue(on1.coverage().proven(false).contains("partial-order-reduced search"), on1.coverage().proven(false));
            assertTrue(on1.coverage().proven(false).contains("--no-por covers every schedule with up to 1"), on1.coverage().proven(false));
            assertTrue(finalBuffers(bounded(open.get(), true, sourceSets, 2).schedules(), open).containsAll(off1));
        }
        assertTrue(bounded(open.get(), false, true, 1).coverage().proven(false).startsWith("every schedule with up to 1"));
    }

    static StepFootprints.Footprint fp(long... keysAndWrite) {
        return new StepFootprints.Footprint(keysAndWrite, false);
    }

    @Test
    void stepsAreDependentOnlyWhenTheyShareAKeyAndOneWrites() {
        // Entries are key << 1 | write, sorted.
        assertFalse(fp(2 << 1).dependent(fp(2 << 1)), "two reads of one word commute");
        assertTrue(fp(2 << 1).dependent(fp(2 << 1 | 1)), "a read and a write of one word do not");
        assertTrue(fp(2 << 1 | 1).dependent(fp(2 << 1 | 1)), "nor two writes");
        assertFalse(fp(2 << 1 | 1).dependent(fp(3 << 1 | 1, 9 << 1 | 1)), "different words commute");
        assertTrue(fp(1 << 1, 7 << 1 | 1).dependent(fp(5 << 1, 7 << 1)), "one shared key with a write is enough");
        assertTrue(StepFootprints.Footprint.EVERYTHING.dependent(fp()), "a copy issued or landing depends on every step");
        assertFalse(fp().dependent(fp(4 << 1 | 1)), "a register-only step commutes with everything");
    }
}
