package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SplitMix64;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/**
 * Minimisation on a kernel whose minimal failing schedule is known: warp 0 sets a flag, warp 1
 * checks it and, seeing 0, waits at a barrier nobody else reaches (a deadlock); warps 2 and 3 only
 * store to their own words. The one decisive decision is letting warp 1 read the flag before
 * warp 0 writes it; every switch among the noise warps is irrelevant.
 */
class MinimizerTest {
    private static final String KERNEL = """
            .reg .pred %p<4>;
            .reg .b32 %r<12>;
            .shared .align 4 .b32 flag;
            .shared .align 4 .b32 junk[128];
            mov.u32 %r1, %tid.x;
            shr.u32 %r2, %r1, 5;
            mov.u32 %r3, flag;
            setp.eq.u32 %p1, %r2, 0;
            @%p1 bra WRITER;
            setp.eq.u32 %p2, %r2, 1;
            @%p2 bra CHECKER;
            shl.b32 %r4, %r1, 2;
            mov.u32 %r5, junk;
            add.u32 %r5, %r5, %r4;
            st.shared.u32 [%r5], %r1;
            st.shared.u32 [%r5], %r2;
            st.shared.u32 [%r5], %r1;
            st.shared.u32 [%r5], %r2;
            st.shared.u32 [%r5], %r1;
            bra JOIN;
            WRITER:
            mov.u32 %r6, 1;
            st.shared.u32 [%r3], %r6;
            bra JOIN;
            CHECKER:
            ld.shared.u32 %r7, [%r3];
            setp.eq.u32 %p3, %r7, 0;
            @%p3 bra STUCK;
            JOIN:
            bar.sync 0;
            ret;
            STUCK:
            bar.sync 1, 64;
            ret;
            """;

    private static LaunchedRun fresh() {
        return PtxRun.kernel(KERNEL).threads(128).racy().launch(new SchedulePolicy());
    }

    /** The cause of the first failure the launch's last run ended in. */
    private static String firstCause(LaunchedRun run) {
        return Causes.of(run.interpreter(), run.maxSteps()).get(0).cause();
    }

    /** A minimiser whose every replay goes through {@code ex} and is counted in {@code calls[0]}. */
    private static Minimizer countingMinimizer(LaunchedRun run, SchedulePolicy p, Explorer ex, int[] calls) {
        return new Minimizer(run.interpreter(), p, s -> {
            calls[0]++;
            ex.replay(s);
            return true;
        }, run.maxSteps());
    }

    /** A long random schedule of the launch that deadlocks: the found schedule, full of irrelevant switches. */
    private static Schedule noisyDeadlock(Explorer ex, SchedulePolicy p, LaunchedRun run) {
        for (long seed = 0; seed < 10_000; seed++) {
            p.randomize(new SplitMix64(seed), 2);
            Outcome o = ex.replay(Schedule.EMPTY);
            p.randomize(null, 0);
            Schedule s = p.taken();
            if (o == Outcome.DEADLOCK && s.size() >= 4) return s;
        }
        throw new AssertionError("no noisy deadlocking schedule among 10,000 seeds");
    }

    @Test
    void aNoisyFailingScheduleShrinksToTheOneDecisiveDecision() {
        LaunchedRun run = fresh();
        SchedulePolicy p = (SchedulePolicy) run.interpreter().policy();
        Explorer ex = new Explorer(run, () -> 0L);
        assertEquals(Outcome.COMPLETED, ex.replay(Schedule.EMPTY), () -> "the default schedule passes: " + run.interpreter().diagnostics());
        Schedule found = noisyDeadlock(ex, p, run);
        String cause = firstCause(run);

        Minimization mn = ex.minimize(found, cause);
        assertEquals(found.size(), mn.foundSize());
        assertEquals(1, mn.minimalSize(), "minimal: " + mn.minimal() + " from " + found);
        assertTrue(mn.complete());
        assertEquals(1, mn.decisive().size());
        String why = mn.decisive().get(0).text();
        assertTrue(why.startsWith("warp 1 ran its `ld.shared.u32 %r7, [%r3]`"), why);
        assertTrue(why.contains("before warp 0's `st.shared.u32 [%r3], %r6`"), why);

        // The minimal schedule replays exactly (no leniency) to the same deadlock.
        assertEquals(Outcome.DEADLOCK, ex.replay(mn.minimal()));
        assertTrue(ex.replayEndsIn(cause));
        assertEquals(0, p.unconsumed());
    }

    /**
     * A found schedule of one decision that preempts warp 0 just before it writes the flag, letting
     * warp 1 read it first: nothing can be dropped, but the same deadlock follows from warp 1 first
     * at the first decision, a free choice. The minimiser keeps the size and drops the preemption.
     */
    @Test
    void aPreemptionThatAFreeChoiceReplacesIsTradedForItAtTheSameSize() {
        LaunchedRun run = fresh();
        SchedulePolicy p = (SchedulePolicy) run.interpreter().policy();
        Explorer ex = new Explorer(run, () -> 0L);
        int[] preemptions = {0};
        p.observe((idx, kind, def, chosen, preemption) -> preemptions[0] += preemption ? 1 : 0);
        Schedule found = null;
        for (long d = 1; d < 64 && found == null; d++) { // the first single switch to warp 1 that preempts and deadlocks
            preemptions[0] = 0;
            Schedule s = new Schedule(new long[] {d}, new char[] {SchedulePolicy.WARP}, new long[] {1});
            p.lenient(true);
            Outcome o = ex.replay(s);
            p.lenient(false);
            if (o == Outcome.DEADLOCK && preemptions[0] == 1 && p.taken().equals(s)) found = s;
        }
        p.observe(null);
        assertNotNull(found, "no single preempting switch to warp 1 deadlocks");
        String cause = firstCause(run);

        Minimization mn = ex.minimize(found, cause);
        assertEquals(1, mn.foundPreemptions());
        assertEquals("s1:0w1", mn.minimal().toString(), "from " + found);
        assertEquals(1, mn.minimalSize());
        assertEquals(0, mn.minimalPreemptions());
        assertTrue(mn.complete());
        assertEquals(Outcome.DEADLOCK, ex.replay(mn.minimal()));
    }

    @Test
    void everyFindingOfASearchIsMinimisedAndItsMinimalScheduleReplays() {
        LaunchedRun run = fresh();
        Explorer ex = new Explorer(run, () -> 0L);
        Explorer.Result r = ex.explore(new Explorer.Options(200, 0, 3, 2, 100_000, true, 0));
        assertFalse(r.findings().isEmpty());
        for (Finding f : r.findings()) {
            Minimization mn = f.minimized();
            assertNotNull(mn);
            assertTrue(mn.minimalSize() <= mn.foundSize());
            assertEquals(mn.minimalSize(), mn.decisive().size());
            ex.replay(mn.minimal());
            assertTrue(ex.replayEndsIn(f.cause()), f.cause() + " under " + mn.minimal());
        }
    }

    @Test
    void noMinimizeReportsTheScheduleAsFound() {
        Explorer ex = new Explorer(fresh(), () -> 0L);
        Explorer.Result r = ex.explore(new Explorer.Options(200, 0, 3, 2, 100_000, true, -1));
        assertFalse(r.findings().isEmpty());
        for (Finding f : r.findings()) {
            assertEquals(null, f.minimized());
            assertEquals(f.schedule(), f.replaySchedule());
        }
    }

    @Test
    void aClockPastItsShareStopsMinimisingAndSaysItIsIncomplete() {
        LaunchedRun run = fresh();
        SchedulePolicy p = (SchedulePolicy) run.interpreter().policy();
        long[] now = {0};
        Explorer ex = new Explorer(run, () -> now[0]);
        Schedule found = noisyDeadlock(ex, p, run);
        String cause = firstCause(run);
        now[0] = 1; // already past: only the first candidate (the default schedule) is tried
        Minimization mn = ex.minimize(found, cause, () -> now[0] >= 1);
        assertFalse(mn.complete());
        assertEquals(found.size(), mn.minimalSize());
    }

    @Test
    void aFindingCarriesTheStepItsMinimalScheduleFailsAt() {
        LaunchedRun run = fresh();
        Explorer ex = new Explorer(run, () -> 0L);
        Explorer.Result r = ex.explore(new Explorer.Options(200, 0, 3, 2, 100_000, true, 0));
        assertFalse(r.findings().isEmpty());
        for (Finding f : r.findings()) {
            assertNotNull(f.minimized());
            // The deadlock is found at the run's last step: replaying the minimal schedule must end there.
            ex.replay(f.minimized().minimal());
            long expected = Causes.of(run.interpreter(), run.maxSteps()).stream().filter(c -> c.cause().equals(f.cause()))
                    .findFirst().orElseThrow().step();
            assertEquals(expected, f.minimized().failingStep());
            assertEquals(expected, f.minimalStep());
        }
    }

    @Test
    void minimisingReportsEachReplayAgainstItsBudget() {
        Explorer ex = new Explorer(fresh(), () -> 0L);
        java.util.List<int[]> seen = new java.util.ArrayList<>();
        ex.onProgress(new Explorer.Progress() {
            @Override public void explored(long schedules, int findings) {}

            @Override public void minimizing(int finding, int findings, int replays, int budget) {
                seen.add(new int[] {finding, findings, replays, budget});
            }
        });
        Explorer.Result r = ex.explore(new Explorer.Options(200, 0, 3, 2, 100_000, true, 0));
        assertFalse(seen.isEmpty());
        int total = 0;
        for (Finding f : r.findings()) total += f.minimized().replays();
        assertEquals(total, seen.size(), "one report per candidate replay");
        for (int k = 0; k < seen.size(); k++) {
            int[] e = seen.get(k);
            assertEquals(r.findings().size(), e[1]);
            assertEquals(ExploreTuning.MAX_MINIMIZE_REPLAYS, e[3]);
            assertTrue(e[2] >= 1 && e[2] <= e[3]);
            if (k > 0 && seen.get(k - 1)[0] == e[0]) assertEquals(seen.get(k - 1)[2] + 1, e[2]);
        }
    }
    /**
     * Warp 0 stands at a guarded {@code @%p3 ret} that no lane takes (its warp index is never 7),
     * then sets the flag warp 2 checks. Letting warp 2 run there is the decisive switch: the warp it
     * ran before is warp 0 (which goes on past the {@code ret}), not warp 1, which the default
     * schedule would only have run had warp 0 exited.
     */
    @Test
    void aGuardedRetThatNoLaneTakesDoesNotEndTheWarpTheDecisionIsComparedWith() {
        LaunchedRun run = PtxRun.kernel("""
                .reg .pred %p<4>;
                .reg .b32 %r<12>;
                .shared .align 4 .b32 flag;
                .shared .align 4 .b32 other;
                mov.u32 %r1, %tid.x;
                shr.u32 %r2, %r1, 5;
                mov.u32 %r9, 1;
                setp.eq.u32 %p1, %r2, 0;
                @%p1 bra W0;
                setp.eq.u32 %p1, %r2, 1;
                @%p1 bra W1;
                ld.shared.u32 %r5, [flag];
                setp.eq.u32 %p2, %r5, 0;
                @%p2 bra STUCK;
                ret;
                W0:
                setp.eq.u32 %p3, %r2, 7;
                @%p3 ret;
                st.shared.u32 [flag], %r9;
                ret;
                W1:
                st.shared.u32 [other], %r9;
                ret;
                STUCK:
                bar.sync 1, 64;
                ret;
                """).threads(96).racy().launch(new SchedulePolicy());
        io.barrierscope.exec.Interpreter x = run.interpreter();
        SchedulePolicy p = (SchedulePolicy) x.policy();
        Explorer ex = new Explorer(run, () -> 0L);
        int guardedRet = pcOf(x, "@%p3 ret");
        // The decision of the default run at which warp 0 stands at its guarded ret.
        long[] at = {-1};
        p.observe((idx, kind, def, chosen, preemption) -> {
            if (at[0] < 0 && kind == SchedulePolicy.WARP && def == 0 && x.machine().pc[0] == guardedRet) at[0] = idx;
        });
        try {
            assertEquals(Outcome.COMPLETED, ex.replay(Schedule.EMPTY), () -> "the default schedule passes: " + x.diagnostics());
        } finally {
            p.observe(null);
        }
        assertTrue(at[0] >= 0, "warp 0 meets a decision at its guarded ret");
        Schedule found = new Schedule(new long[] {at[0]}, new char[] {SchedulePolicy.WARP}, new long[] {2});
        assertEquals(Outcome.DEADLOCK, ex.replay(found));
        String cause = firstCause(run);

        Minimization mn = ex.minimize(found, cause);
        assertEquals(1, mn.decisive().size(), "minimal: " + mn.minimal());
        String why = mn.decisive().get(0).text();
        assertTrue(why.startsWith("warp 2 ran its `ld.shared.u32 %r5, [flag]`"), why);
        assertTrue(why.contains("before warp 0's `st.shared.u32 [flag], %r9`"), why);
    }

    /**
     * When the default warp never runs again, its next instructions stand in for it: only those on
     * its path. Code an unconditional branch jumps over never runs, so it is not named; past a
     * guarded branch some lanes may fall through (an arrive under {@code if (lane == 0)}).
     */
    @Test
    void theStaticLookAheadFollowsUnconditionalBranchesAndFallsThroughGuardedOnes() {
        LaunchedRun run = PtxRun.kernel("""
                .reg .pred %p<2>;
                .reg .b32 %r<4>;
                .shared .align 4 .b32 w;
                mov.u32 %r1, %tid.x;
                bra SKIP;
                st.shared.u32 [w], %r1;
                SKIP:
                setp.eq.u32 %p1, %r1, 0;
                @%p1 bra END;
                ld.shared.u32 %r2, [w];
                END:
                ret;
                """).threads(32).launch(new SchedulePolicy());
        io.barrierscope.exec.Interpreter x = run.interpreter();
        Minimizer mz = new Minimizer(x, (SchedulePolicy) x.policy(), s -> true, run.maxSteps());
        int mov = pcOf(x, "mov.u32 %r1"), jump = pcOf(x, "bra SKIP"), skipped = pcOf(x, "st.shared"), setp = pcOf(x, "setp");
        int guarded = pcOf(x, "@%p1 bra"), ret = pcOf(x, "ret");
        assertEquals(jump, mz.nextOnPath(mov));
        assertEquals(setp, mz.nextOnPath(jump), "the unconditional branch's target, not the store it jumps over");
        assertEquals(guarded, mz.nextOnPath(setp));
        assertEquals(pcOf(x, "ld.shared"), mz.nextOnPath(guarded), "lanes that do not take a guarded branch fall through");
        assertEquals(-1, mz.nextOnPath(ret));
        for (int pc = mov; pc >= 0; pc = mz.nextOnPath(pc)) assertTrue(pc != skipped, "the jumped-over store is on no path");
    }

    private static int pcOf(io.barrierscope.exec.Interpreter x, String text) {
        for (int pc = 0; pc < x.machine().program.code.length; pc++) {
            if (x.op(pc) != null && x.op(pc).insn != null && x.op(pc).insn.text().strip().startsWith(text)) return pc;
        }
        throw new AssertionError("no instruction " + text);
    }
    /**
     * Deadlocks only after two decisions: warp 1 reads {@code a} before warp 0 sets it (and so sets
     * {@code x}), and warp 3 reads {@code b} before warp 2 sets it. Any one switch from the default
     * order leaves one of the two reads too late, so the 1-minimal schedule has two decisions and the
     * single-decision pass runs (and finds nothing).
     */
    private static final String TWO_DECISIONS = """
            .reg .pred %p<4>;
            .reg .b32 %r<12>;
            .shared .align 4 .b32 a;
            .shared .align 4 .b32 b;
            .shared .align 4 .b32 x;
            mov.u32 %r1, %tid.x;
            shr.u32 %r2, %r1, 5;
            mov.u32 %r9, 1;
            setp.eq.u32 %p1, %r2, 0;
            @%p1 bra W0;
            setp.eq.u32 %p1, %r2, 1;
            @%p1 bra W1;
            setp.eq.u32 %p1, %r2, 2;
            @%p1 bra W2;
            ld.shared.u32 %r3, [b];
            ld.shared.u32 %r4, [x];
            setp.eq.u32 %p2, %r3, 0;
            setp.eq.u32 %p3, %r4, 1;
            and.pred %p2, %p2, %p3;
            @%p2 bra STUCK;
            ret;
            W0:
            st.shared.u32 [a], %r9;
            ret;
            W1:
            ld.shared.u32 %r5, [a];
            setp.eq.u32 %p2, %r5, 0;
            @%p2 st.shared.u32 [x], %r9;
            ret;
            W2:
            st.shared.u32 [b], %r9;
            ret;
            STUCK:
            bar.sync 1, 64;
            ret;
            """;

    @Test
    void theSingleDecisionPassStaysWithinTheReplayBudget() {
        LaunchedRun run = PtxRun.kernel(TWO_DECISIONS).threads(128).racy().launch(new SchedulePolicy());
        SchedulePolicy p = (SchedulePolicy) run.interpreter().policy();
        Explorer ex = new Explorer(run, () -> 0L);
        assertEquals(Outcome.COMPLETED, ex.replay(Schedule.EMPTY), () -> "the default schedule passes: " + run.interpreter().diagnostics());
        Schedule found = noisyDeadlock(ex, p, run);
        String cause = firstCause(run);
        int[] calls = {0};
        Minimizer mz = countingMinimizer(run, p, ex, calls);
        Minimization mn = mz.minimize(found, cause, 2_000, () -> false);
        assertEquals(2, mn.minimalSize(), "minimal: " + mn.minimal() + " from " + found);
        assertTrue(mn.complete());
        // Outside the budget: only the found schedule's preemption count and the final explanation.
        assertEquals(mn.replays() + 2, calls[0]);
        for (int budget : new int[] {mn.replays() - 1, mn.replays() / 2}) {
            calls[0] = 0;
            Minimization cutShort = mz.minimize(found, cause, budget, () -> false);
            assertTrue(cutShort.replays() <= budget, cutShort.replays() + " replays for a budget of " + budget);
            assertTrue(calls[0] <= budget + 2, calls[0] + " replays in all for a budget of " + budget);
        }
    }

    @Test
    void noExplanationReplayWithoutADecisionStartsOnceTheClockIsUp() {
        LaunchedRun run = fresh();
        SchedulePolicy p = (SchedulePolicy) run.interpreter().policy();
        Explorer ex = new Explorer(run, () -> 0L);
        Schedule found = noisyDeadlock(ex, p, run);
        String cause = firstCause(run);
        int[] calls = {0};
        Minimizer mz = countingMinimizer(run, p, ex, calls).explainWith(StepFootprints.install(run.interpreter()));
        // Past the clock from the start: the found schedule stays, with all its warp decisions to explain.
        Minimization mn = mz.minimize(found, cause, 2_000, () -> true);
        assertFalse(mn.complete());
        assertTrue(mn.minimal().size() >= 4, "minimal: " + mn.minimal());
        // Outside the budget: only the found schedule's preemption count and the final explanation.
        assertEquals(mn.replays() + 2, calls[0]);
    }
}
