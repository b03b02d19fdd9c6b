package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/**
 * Frontier checkpoints come every {@link TimeTravel#interval()} steps, longer for launches whose
 * state is large, so that copying the state stays a small share of executing the steps between.
 */
class CheckpointIntervalTest {
    @Test
    void theIntervalGrowsWithTheStateInPowersOfTwoBetweenItsBounds() {
        assertEquals(TimeTravel.INTERVAL, TimeTravel.intervalFor(1000));
        long atMost = (long) TimeTravel.BYTES_PER_STEP * TimeTravel.INTERVAL;
        assertEquals(TimeTravel.INTERVAL, TimeTravel.intervalFor(atMost));
        assertEquals(2L * TimeTravel.INTERVAL, TimeTravel.intervalFor(atMost + 1));
        assertEquals(TimeTravel.MAX_INTERVAL, TimeTravel.intervalFor(1L << 40));
    }

    private static final String LOOP = ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
            + "mov.u32 %r4, 0;\nL:\nadd.u32 %r5, %r5, %r4;\nbar.sync 0;\nadd.u32 %r4, %r4, 1;\n"
            + "setp.lt.u32 %p1, %r4, 10;\n@%p1 bra L;\nret;";

    @Test
    void aSmallLaunchCheckpointsEverySixtyFourKiSteps() {
        // (So does barrier_loop's 620 KiB: the first reverse step after a long run stays short.)
        TimeTravel tt = new TimeTravel(PtxRun.kernel(LOOP).threads(64).launch());
        assertEquals(TimeTravel.INTERVAL, tt.interval());
    }

    @Test
    void aLargeLaunchCheckpointsLessOftenThanASmallOne() {
        // 64 CTAs of 1024 threads: megabytes of registers per checkpoint.
        LaunchedRun big = PtxRun.kernel(LOOP).grid(64).threads(1024).launch();
        TimeTravel tt = new TimeTravel(big);
        assertTrue(tt.interval() > TimeTravel.INTERVAL, "interval " + tt.interval());
        assertEquals(Long.bitCount(tt.interval()), 1);
    }

    @Test
    void aLongBackwardSeekLeavesFineCheckpointsJustBeforeItsTargetSoTheNextStepsBackAreShort() {
        // 5,000 iterations of 2 warps: about 60k warp steps, all before the first frontier checkpoint.
        TimeTravel tt = new TimeTravel(PtxRun.kernel(LOOP.replace("10;", "5000;")).threads(64).launch());
        tt.runForward(() -> false);
        long end = tt.now();
        assertTrue(end > 10L * TimeTravel.FINE_INTERVAL && end < TimeTravel.INTERVAL, "ran " + end);
        tt.stepBack();
        long t = end - 1;
        long expected = 0;
        for (long s = t / TimeTravel.FINE_INTERVAL * TimeTravel.FINE_INTERVAL; s > t - (long) TimeTravel.FINE_SPAN * TimeTravel.FINE_INTERVAL; s -= TimeTravel.FINE_INTERVAL) {
            assertTrue(tt.checkpoints().has(s), "a checkpoint at step " + s);
            expected++;
        }
        assertTrue(expected >= TimeTravel.FINE_SPAN - 1);
        assertEquals(t, tt.now());
    }
}
