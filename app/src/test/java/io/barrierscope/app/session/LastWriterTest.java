package io.barrierscope.app.session;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import org.junit.jupiter.api.Test;

/** The step that last wrote a buffer element, found by re-executing with the write watch on; the session ends where it was. */
class LastWriterTest {
    private static TimeTravel atEnd() {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(TestFiles.sample("block-reduce")).start());
        tt.runForward(() -> false);
        return tt;
    }

    private static long out(TimeTravel tt, int i) {
        return GlobalMemoryCapture.capture(tt.run(), tt.now()).buffer("out").values().get(i).longValue();
    }

    @Test
    void theFoundStepIsTheFirstStateHoldingTheWrittenValueAndTheSessionStaysPut() {
        TimeTravel tt = atEnd();
        long end = tt.now();
        LastWriter.Result r = LastWriter.find(tt, "out", 1, LastWriter.BOUND);
        assertTrue(r.found(), r.text());
        assertEquals(end, tt.now(), "back where the search started");
        assertEquals(24512, out(tt, 1));
        assertTrue(r.warp() >= 0);
        assertTrue(r.text().contains("out[1] was last written at step " + r.step()), r.text());
        tt.seek(r.step());
        assertEquals(24512, out(tt, 1));
        assertEquals(r.warp(), tt.lastWarp(), "the warp named took that step");
        tt.seek(r.step() - 1);
        assertEquals(0, out(tt, 1), "the step before it, the element still held its initial value");
    }

    @Test
    void anElementNobodyWroteSaysItHoldsItsInitialValue() {
        TimeTravel tt = atEnd();
        LastWriter.Result r = LastWriter.find(tt, "in", 3, LastWriter.BOUND);
        assertFalse(r.found());
        assertTrue(r.text().contains("initial value"), r.text());
    }

    @Test
    void theSearchIsBoundedAndSaysHowFarItLooked() {
        TimeTravel tt = atEnd();
        long end = tt.now();
        LastWriter.Result full = LastWriter.find(tt, "out", 0, LastWriter.BOUND);
        long bound = end - full.step(); // the write lies just outside this window
        LastWriter.Result r = LastWriter.find(tt, "out", 0, bound);
        assertFalse(r.found(), r.text());
        assertTrue(r.text().contains("searched back to step " + full.step()), r.text());
        assertEquals(end, tt.now());
    }

    @Test
    void anIndexOutsideTheBufferIsSaid() {
        LastWriter.Result r = LastWriter.find(atEnd(), "out", 4, LastWriter.BOUND);
        assertFalse(r.found());
        assertTrue(r.text().contains("outside"), r.text());
    }
}
