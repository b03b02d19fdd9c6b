package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.MemoryEstimate;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The samples whose clocks the estimate once counted at the detector's whole cap (async bulk copies
 * in several CTAs) or at one mbarrier per 8 bytes of shared memory (one CTA with 48-72 KiB) count
 * their clocks from their PTX now (docs/reliability.md, "Clocks joined from other CTAs"), far below
 * the cap; their runs, sampled every 25 warp steps, never hold more clocks than counted, and never
 * stop detection for them. A launch with async operations keeps the reservation it counts.
 */
class RaceClockSamplesTest {
    @ParameterizedTest
    @ValueSource(strings = {"cluster-2d-fanout", "multicast-expect-tx-cluster-size", "wgmma-pingpong", "wgmma-pipeline"})
    void aSamplesRunHoldsNoMoreClocksThanItsLaunchCountsAndTheCountIsFarBelowTheCap(String sample) throws Exception {
        LaunchedRun run = LaunchValidation.validate(Path.of("..", "samples", sample, "launch.json")).start();
        MemoryEstimate e = run.memoryEstimate(0);
        long counted = e.raceClockBytes() + e.joinedClockBytes();
        assertTrue(e.joinedClockBytes() < RaceDetector.JOINED_CLOCK_CAP / 4, "counted from the PTX, not the cap: " + e.describe());
        RaceDetector d = (RaceDetector) run.machine().race;
        assertEquals(e.joinedClockBytes(), RaceMemory.runClockCap(d), "the run keeps the reservation its launch counts");
        long most = 0;
        long limit = run.spec().maxSteps();
        while (run.interpreter().outcome() == Outcome.RUNNING && run.machine().steps < limit) {
            run.interpreter().advance(Math.min(limit, run.machine().steps + 25));
            most = Math.max(most, d.clockBudget.liveBytes());
        }
        assertTrue(most > 0 && most <= counted, sample + ": " + most + " bytes of clocks alive at most, counted " + counted);
        assertEquals(-1, run.raceDetectionStoppedAt(), run.raceDetectionNote());
    }
}
