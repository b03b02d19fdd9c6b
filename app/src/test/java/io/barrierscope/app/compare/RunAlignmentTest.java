package io.barrierscope.app.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.app.timeline.TimelineModel.SyncPoint;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Aligning two runs by the generations and phases both complete, not by raw step numbers. */
class RunAlignmentTest {
    private static SyncPoint bar(long step, long generation) { return new SyncPoint(step, 0, 7, generation); }

    private static SyncPoint mbar(long step, long phase) { return new SyncPoint(step, 1, 0x40, phase); }

    @Test
    void theSameGenerationCompletingAtDifferentStepsIsTheSamePlace() {
        // B takes twice as long to reach generation 1 and 2 of barrier 7
        RunAlignment al = RunAlignment.of(List.of(bar(10, 1), bar(20, 2)), 30, List.of(bar(20, 1), bar(40, 2)), 50);
        assertEquals(2, al.anchors());
        assertEquals(20, al.toB(10));
        assertEquals(40, al.toB(20));
        assertEquals(30, al.toB(15), "linear between anchors");
        assertEquals(15, al.toA(30));
        assertEquals(50, al.toB(30), "the ends match");
        assertEquals(0, al.toB(0));
    }

    @Test
    void objectsAndPhasesOnlyInOneRunAreNotAnchors() {
        RunAlignment al = RunAlignment.of(List.of(bar(10, 1), mbar(12, 0)), 40, List.of(mbar(30, 0), new SyncPoint(31, 0, 8, 1)), 40);
        assertEquals(1, al.anchors(), "only the mbarrier phase 0 is in both");
        assertEquals(30, al.toB(12));
    }

    @Test
    void crossedCompletionsKeepTheMapMonotone() {
        // generation 1 of barrier 7 then phase 0 of the mbarrier in A; the other way round in B
        RunAlignment al = RunAlignment.of(List.of(bar(10, 1), mbar(20, 0)), 30, List.of(mbar(5, 0), bar(25, 1)), 30);
        assertEquals(1, al.anchors());
        long last = -1;
        for (long s = 0; s <= 30; s++) {
            long b = al.toB(s);
            assertEquals(true, b >= last, "monotone at " + s);
            last = b;
        }
    }

    @Test
    void aVisibleRangesEdgesMapUnroundedAndStepForStepPastTheEnds() {
        RunAlignment al = RunAlignment.of(List.of(bar(10, 1), bar(20, 2)), 30, List.of(bar(20, 1), bar(40, 2)), 50);
        assertEquals(20.0, al.toB(10.0), 1e-9);
        assertEquals(21.0, al.toB(10.5), 1e-9, "between anchors, the fraction kept");
        assertEquals(10.5, al.toA(21.0), 1e-9, "and back");
        assertEquals(52.5, al.toB(32.5), 1e-9, "past the end: step for step");
        assertEquals(-1.0, al.toB(-1.0), 1e-9);
    }
}
