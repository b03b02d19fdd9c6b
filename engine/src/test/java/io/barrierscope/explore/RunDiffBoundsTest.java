package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/**
 * {@code diff} compares two runs' barrier arrivals while they run, holding only what the other
 * run has not reached yet: before, every arrival of both runs was kept to the end, and a 12M-step
 * loop around a {@code bar.sync} ran a 256 MB heap out of memory (docs/reliability.md).
 */
class RunDiffBoundsTest {
    /** One warp passing {@code bar.sync BAR} n times (n the parameter). */
    private static LaunchedRun loop(int bar, long n) {
        return PtxRun.kernel("""
                .reg .pred %p<2>;
                .reg .b32 %r<4>;
                ld.param.u32 %r1, [n];
                mov.u32 %r2, 0;
                LOOP:
                bar.sync BAR;
                add.s32 %r2, %r2, 1;
                setp.lt.u32 %p1, %r2, %r1;
                @%p1 bra LOOP;
                ret;
                """.replace("BAR", Integer.toString(bar))).threads(32).value("n", ScalarType.U32, n).launch();
    }

    @Test
    void differingGenerationsAreAllCountedButOnlyTheFirstThousandKeptInOrder() {
        RunDiff.Result r = RunDiff.compare(loop(0, 3000), loop(0, 10), 1_000_000);
        assertFalse(r.same());
        assertEquals(2990, r.syncDiffering(), "every generation only A reached differs");
        assertEquals(ArrivalComparison.KEPT, r.sync().size());
        assertEquals(10, r.sync().get(0).generation(), "listed by object and generation");
        assertEquals(1009, r.sync().get(ArrivalComparison.KEPT - 1).generation());
        assertEquals("CTA 0 barrier 0", r.sync().get(0).object());
        assertTrue(r.sync().get(0).b().isEmpty());
        assertNull(r.syncNote());
    }

    @Test
    void aRunTooFarAheadOfTheOtherInArrivalsStopsTheComparisonWithANoteNotHoldingThemAll() {
        // Barrier 0 against barrier 1: neither run ever closes a generation the other has, so A's wait for B.
        RunDiff.Result r = RunDiff.compare(loop(0, 500), loop(1, 500), 1_000_000, 100);
        assertEquals("completed", r.outcomeA());
        assertEquals("completed", r.outcomeB(), "both runs still run to their end");
        assertNotNull(r.syncNote());
        assertTrue(r.syncNote().startsWith("barrier arrivals compared up to warp step "), r.syncNote());
        assertTrue(r.syncNote().contains("100 arrivals ahead"), r.syncNote());
        assertFalse(r.same());
    }

    @Test
    void twoEqualLongRunsAreTheSameWithNothingHeld() {
        RunDiff.Result r = RunDiff.compare(loop(0, 5_000), loop(0, 5_000), 1_000_000, 100);
        assertTrue(r.same(), "equal generations are compared as they close, so the small cap is never reached");
        assertNull(r.syncNote());
    }
}
