package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/** What a search stopped early says it covered (docs/reliability.md, the campaign of 2026-11-29 morning). */
class ExplorerStoppedEarlyCoverageTest {
    private static LaunchedRun twoWarpsLooping() {
        return PtxRun.kernel("""
                .reg .pred %p<2>;
                .reg .b32 %r<4>;
                mov.u32 %r1, 0;
                LOOP:
                add.u32 %r1, %r1, 1;
                setp.lt.u32 %p1, %r1, 5000;
                @%p1 bra LOOP;
                ret;
                """).threads(64).launch(new SchedulePolicy());
    }

    @Test
    void aSearchStoppedBeforeItsDefaultScheduleEndedSaysNoBoundIsCompleteNotBoundZero() {
        // `explore --time-limit 0.001` said "explored 0 schedules (...; deviation bound 0 (non-default decisions) complete".
        long[] now = {0};
        Explorer ex = new Explorer(twoWarpsLooping(), () -> now[0] += 1_000);
        Coverage c = ex.explore(new Explorer.Options(100, 1, 0, 1, 100_000, true, -1)).coverage();
        assertEquals(0, c.schedules());
        assertEquals(-1, c.deviationBoundCompleted());
        assertEquals("no deviation bound complete (stopped before the default schedule ended)", c.boundText());
        // Given time, the same search completes its bounds as before.
        Coverage done = new Explorer(twoWarpsLooping(), () -> 0L).explore(new Explorer.Options(100, 0, 0, 1, 100_000, true, -1)).coverage();
        assertTrue(done.schedules() > 0 && done.deviationBoundCompleted() >= 1, done.boundText());
        assertTrue(done.boundText().startsWith("deviation bound " + done.deviationBoundCompleted() + " (non-default decisions) complete"));
    }
}
