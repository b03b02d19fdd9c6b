package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/** A schedule given to {@code diff} is held to the launch as `run --schedule` holds it. */
class RunDiffScheduleTest {
    private static LaunchedRun twoWarps(String schedule) {
        return PtxRun.kernel("""
                bar.sync 0;
                ret;
                """).threads(64).launch(new SchedulePolicy(Schedule.parse(schedule)));
    }

    @Test
    void aScheduleWithDecisionsItsRunNeverReachesIsRefusedNotComparedAsIfFollowed() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> RunDiff.compare(twoWarps("s1:"), twoWarps("s1:999999w1"), 1000));
        assertTrue(e.getMessage().startsWith("error: the schedule of run B does not match its launch: the run ended (completed)"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("with 1 of its decisions not reached"), e.getMessage());
    }

    @Test
    void aScheduleCutShortByTheStepBudgetIsStillCompared() {
        RunDiff.Result r = RunDiff.compare(twoWarps("s1:"), twoWarps("s1:999999w1"), 1);
        assertEquals("step-limit", r.outcomeB());
    }
}
