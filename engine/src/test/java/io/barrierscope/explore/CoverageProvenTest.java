package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/** What a finding-free search states it covered. */
class CoverageProvenTest {
    private static final String STORES = """
            .reg .b32 %r<8>;
            .shared .align 4 .b32 s[128];
            mov.u32 %r1, %tid.x;
            shl.b32 %r2, %r1, 2;
            mov.u32 %r3, s;
            add.u32 %r3, %r3, %r2;
            st.shared.u32 [%r3], %r1;
            bar.sync 0;
            ret;
            """;

    @Test
    void aLaunchWithNoAlternativeIsCoveredWhole() {
        Explorer ex = new Explorer(PtxRun.kernel(STORES).threads(32).launch(new SchedulePolicy()), () -> 0L);
        Coverage c = ex.explore(new Explorer.Options(100, 0, 0, 3, 100_000, true, -1)).coverage();
        assertTrue(c.allSchedules());
        assertEquals(1, c.schedules());
        assertTrue(c.proven(true).startsWith("all schedules (warp order at visible instructions"), c.proven(true));
    }

    @Test
    void aBudgetCutSearchStatesOnlyTheBoundItCompleted() {
        Explorer ex = new Explorer(PtxRun.kernel(STORES).threads(128).launch(new SchedulePolicy()), () -> 0L);
        ex.systematicOnly(true);
        ex.partialOrder(false); // the bounded statement schedule by schedule (PartialOrderTest: what it says with the reduction)
        Coverage full = ex.explore(new Explorer.Options(100_000, 0, 0, 1, 100_000, false, -1)).coverage();
        assertEquals(1, full.deviationBoundCompleted());
        assertEquals(full.deviationBoundCompleted(), full.preemptionBoundCompleted(), "the old name is an alias of the same number");

        Explorer cut = new Explorer(PtxRun.kernel(STORES).threads(128).launch(new SchedulePolicy()), () -> 0L);
        cut.systematicOnly(true);
        cut.partialOrder(false);
        Coverage c = cut.explore(new Explorer.Options(full.schedules() + 2, 0, 0, 3, 100_000, false, -1)).coverage();
        assertEquals(Coverage.SCHEDULE_BUDGET, c.stoppedBy());
        assertFalse(c.allSchedules());
        assertEquals(1, c.deviationBoundCompleted());
        assertTrue(c.proven(false).startsWith("every schedule with up to 1 non-default decisions"), c.proven(false));
        assertFalse(c.proven(false).contains("symmetric"), c.proven(false));
    }

    @Test
    void nothingIsClaimedBeforeTheFirstBoundIsComplete() {
        Explorer ex = new Explorer(PtxRun.kernel(STORES).threads(128).launch(new SchedulePolicy()), () -> 0L);
        ex.systematicOnly(true);
        Coverage c = ex.explore(new Explorer.Options(2, 0, 0, 3, 100_000, false, -1)).coverage();
        assertEquals(0, c.deviationBoundCompleted());
        assertEquals("", c.proven(false));
    }
}
