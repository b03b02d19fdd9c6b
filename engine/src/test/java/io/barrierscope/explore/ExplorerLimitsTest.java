package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/**
 * Limits inside one schedule, counted in steps and clock reads (never wall time): a time limit
 * or a cancel stops a schedule that would run for millions of steps within
 * {@link Explorer#LIMIT_CHECK_STEPS} steps of being due; state hashing stays within its byte
 * budget per warp step whatever the state's size.
 */
class ExplorerLimitsTest {
    /** One warp spinning on a flag nobody sets: every schedule runs to the step limit. */
    private static LaunchedRun spinner() {
        return PtxRun.kernel("""
                .reg .pred %p<2>;
                .reg .b32 %r<4>;
                .shared .align 4 .b32 flag;
                mov.u32 %r1, flag;
                LOOP:
                ld.volatile.shared.u32 %r2, [%r1];
                setp.eq.u32 %p1, %r2, 0;
                @%p1 bra LOOP;
                ret;
                """).threads(64).launch(new SchedulePolicy());
    }

    @Test
    void aTimeLimitStopsTheScheduleInsideItWithinBoundedSteps() {
        long[] reads = {0};
        // Each reading of the clock is one millisecond later: the limit is due after 5 readings.
        Explorer ex = new Explorer(spinner(), () -> reads[0]++);
        Explorer.Result r = ex.explore(new Explorer.Options(1000, 5, 0, 2, 50_000_000, true, -1));
        assertEquals(Coverage.TIME_LIMIT, r.coverage().stoppedBy());
        assertEquals(0, r.coverage().schedules(), "the cut schedule is not counted");
        assertTrue(r.coverage().warpSteps() <= 6L * ExploreTuning.LIMIT_CHECK_STEPS, "" + r.coverage().warpSteps());
    }

    @Test
    void aCancelDuringAScheduleStopsItWithinBoundedSteps() {
        LaunchedRun run = spinner();
        Explorer ex = new Explorer(run, () -> 0L);
        run.interpreter().addListener(new ExecutionListener() {
            @Override
            public void warpStep(long step, int warp, int pc, int group, int active) {
                if (step == 10_000) ex.cancel();
            }
        });
        Explorer.Result r = ex.explore(new Explorer.Options(1000, 0, 0, 2, 50_000_000, true, -1));
        assertEquals(Coverage.CANCELLED, r.coverage().stoppedBy());
        assertTrue(r.coverage().warpSteps() <= 10_001L + ExploreTuning.LIMIT_CHECK_STEPS, "" + r.coverage().warpSteps());
    }

    private static LaunchedRun manyDecisions() {
        return PtxRun.kernel("""
                .reg .b32 %r<8>;
                .shared .align 4 .b32 s[128];
                mov.u32 %r1, %tid.x;
                shl.b32 %r2, %r1, 2;
                mov.u32 %r3, s;
                add.u32 %r3, %r3, %r2;
                st.shared.u32 [%r3], %r1;
                st.shared.u32 [%r3], %r2;
                bar.sync 0;
                xor.b32 %r4, %r2, 4;
                mov.u32 %r6, s;
                add.u32 %r6, %r6, %r4;
                ld.shared.u32 %r7, [%r6];
                ret;
                """).threads(128).launch(new SchedulePolicy());
    }

    @Test
    void aLargeStateIsHashedWithinItsBytesPerStepBudget() {
        Explorer whole = new Explorer(manyDecisions(), () -> 0L);
        whole.systematicOnly(true);
        Explorer.Result all = whole.explore(new Explorer.Options(400, 0, 0, 2, 100_000, true, -1));
        // A small state is hashed at every decision: far more bytes than the budget would allow.
        assertTrue(whole.hashes() * whole.stateBytes() > all.coverage().warpSteps() * ExploreTuning.HASH_BYTES_PER_STEP,
                whole.hashes() + " hashes of " + whole.stateBytes() + " bytes in " + all.coverage().warpSteps() + " steps");

        Explorer budgeted = new Explorer(manyDecisions(), () -> 0L);
        budgeted.fullHashBytes = 0; // as if the state were larger than the full-hash threshold
        budgeted.systematicOnly(true);
        Explorer.Result r = budgeted.explore(new Explorer.Options(400, 0, 0, 2, 100_000, true, -1));
        assertTrue(budgeted.hashes() * budgeted.stateBytes() <= r.coverage().warpSteps() * ExploreTuning.HASH_BYTES_PER_STEP,
                budgeted.hashes() + " hashes of " + budgeted.stateBytes() + " bytes in " + r.coverage().warpSteps() + " steps");
        assertEquals(all.findings().stream().map(Finding::cause).toList(), r.findings().stream().map(Finding::cause).toList());
    }

    @Test
    void aTimeLimitPastTheClocksRangeIsNoLimitNotADeadlineAlreadyPassed() {
        // t0 plus the limit wrapped to a negative deadline: every check found it passed and the search stopped at once.
        Explorer ex = new Explorer(spinner(), () -> 1_000L);
        Explorer.Result r = ex.explore(new Explorer.Options(3, Long.MAX_VALUE - 10, 0, 1, 200, true, -1));
        assertEquals(Coverage.SCHEDULE_BUDGET, r.coverage().stoppedBy());
        assertEquals(3, r.coverage().schedules());
    }

    @Test
    void aPositiveTimeBelowAMillisecondIsOneMillisecondNotNone() {
        assertEquals(1, Explorer.Options.millis(1e-9), "0 ms would mean no limit");
        assertEquals(0, Explorer.Options.millis(0));
        assertEquals(1500, Explorer.Options.millis(1.5));
    }
}
