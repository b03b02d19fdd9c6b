package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.MemoryEstimate;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/**
 * An enumerated run keeps a bounded number of checkpoints of its own, whatever its length, so
 * what explore's checkpoints take is counted before it starts (launch/MemoryEstimate).
 */
class ExplorerCheckpointBudgetTest {
    /** Two warps spinning on a flag nobody sets: every step is a decision, every schedule runs to the step limit. */
    private static LaunchedRun spinners() {
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
    void aLongRunKeepsAtMostItsShareOfCheckpointsThinnedEvenly() {
        LaunchedRun run = spinners();
        Explorer ex = new Explorer(run, () -> 0L);
        long steps = 100_000; // about 390 checkpoints at one per 256 steps without the cap
        ex.explore(new Explorer.Options(3, 0, 0, 1, steps, true, -1));
        assertTrue(ex.thinnings > 0, "the run reached the cap and thinned its checkpoints");
        assertTrue(ex.mostOwnCheckpoints <= ex.checkpointsPerRun, "" + ex.mostOwnCheckpoints);
        // What the estimate counts for it: one run per preemption level plus one, each capped.
        assertEquals(2L * MemoryEstimate.EXPLORE_CHECKPOINTS_PER_RUN, MemoryEstimate.forkCheckpoints(run.stateBytes(), steps, 1));
    }
}
