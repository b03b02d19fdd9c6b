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
        assertEquals(TimeTravel.INTERVAL, TimeTravel.intervalFor(8L * TimeTravel.INTERVAL));
        assertEquals(2L * TimeTravel.INTERVAL, TimeTravel.intervalFor(8L * TimeTravel.INTERVAL + 1));
        assertEquals(TimeTravel.MAX_INTERVAL, TimeTravel.intervalFor(1L << 40));
    }

    private static final String LOOP = ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
            + "mov.u32 %r4, 0;\nL:\nadd.u32 %r5, %r5, %r4;\nbar.sync 0;\nadd.u32 %r4, %r4, 1;\n"
            + "setp.lt.u32 %p1, %r4, 10;\n@%p1 bra L;\nret;";

    @Test
    void aSmallLaunchCheckpointsEverySixtyFourKiSteps() {
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
}
