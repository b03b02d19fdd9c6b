package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.SyncEvent;
import org.junit.jupiter.api.Test;

/**
 * Which reordered pair of steps explains a warp decision, on hand-built runs: tagged footprints
 * carry the key's kind in bits 57 and up (1 a word, 2 a CTA barrier, 4 an mbarrier, 5 a fence, as
 * {@link StepFootprints} notes them) and the write bit at the bottom.
 */
class DecisivePairTest {
    private static final int WORD = 1;
    private static final int BAR = 2;
    private static final int MBARRIER = 4;
    private static final int FENCE = 5;

    private static StepFootprints.Footprint fp(int kind, long id, boolean write) {
        return new StepFootprints.Footprint(new long[] {(((long) kind << 57 | id) << 1) | (write ? 1 : 0)}, false);
    }

    @Test
    void theSameWordWithAWriteConflictsInEffectButTwoReadsDoNot() {
        assertTrue(StepFootprints.conflictsInEffect(fp(WORD, 7, true), fp(WORD, 7, false)));
        assertFalse(StepFootprints.conflictsInEffect(fp(WORD, 7, false), fp(WORD, 7, false)));
        assertFalse(StepFootprints.conflictsInEffect(fp(WORD, 7, true), fp(WORD, 8, true)));
    }

    @Test
    void twoArrivalsAtOneBarrierOrTwoFencesAreDependentButCommuteInEffect() {
        assertTrue(fp(BAR, 3, true).dependent(fp(BAR, 3, true)));
        assertFalse(StepFootprints.conflictsInEffect(fp(BAR, 3, true), fp(BAR, 3, true)));
        assertFalse(StepFootprints.conflictsInEffect(fp(FENCE, 0, true), fp(FENCE, 0, true)));
        assertTrue(StepFootprints.conflictsInEffect(fp(MBARRIER, 3, true), fp(MBARRIER, 3, true)));
    }

    @Test
    void aStepTouchingEverythingConflictsInEffectWithAWordButNotWithAFence() {
        StepFootprints.Footprint all = StepFootprints.Footprint.EVERYTHING;
        assertTrue(StepFootprints.conflictsInEffect(all, fp(WORD, 7, false)));
        assertFalse(StepFootprints.conflictsInEffect(all, fp(FENCE, 0, true)));
    }

    @Test
    void aLoadAndAStoreOfOneWordThatTheDecisionSwappedAreItsPair() {
        DecisivePair.Run failing = new DecisivePair.Run(null, true);
        failing.add(1, 20, 5, fp(WORD, 7, false)); // warp 1's load first
        failing.add(0, 10, 6, fp(WORD, 7, true));
        DecisivePair.Run without = new DecisivePair.Run(null, true);
        without.add(0, 10, 5, fp(WORD, 7, true));
        without.add(1, 20, 6, fp(WORD, 7, false));

        DecisivePair.Pair p = DecisivePair.differing(failing, without, 1, 0, 5);
        assertNotNull(p);
        assertEquals(1, p.first().warp());
        assertEquals(20, p.first().pc());
        assertEquals(0, p.second().warp());
        assertEquals(10, p.second().pc());
    }

    @Test
    void twoArrivalsAtOneGenerationEitherWayAreNoPairButArrivalsThatRegroupAre() {
        assertNull(DecisivePair.differing(arrivals(1, 0, 0, 0), arrivals(0, 1, 0, 0), 1, 0, 5));
        // Without the decision warp 1 arrived at the next generation: the order decided who completed it.
        DecisivePair.Pair p = DecisivePair.differing(arrivals(1, 0, 0, 0), arrivals(0, 1, 0, 1), 1, 0, 5);
        assertNotNull(p);
        assertEquals(1, p.first().warp());
    }

    /** Two warps' arrivals at barrier 3, steps 5 and 6: {@code a} (at generation {@code ga}) first, then {@code b}. */
    private static DecisivePair.Run arrivals(int a, int b, long ga, long gb) {
        DecisivePair.Run r = new DecisivePair.Run(null, true);
        r.syncEvent(5, SyncEvent.BAR_ARRIVE, a << 5, 3, ga, 0);
        r.add(a, 30 + a, 5, fp(BAR, 3, true));
        r.syncEvent(6, SyncEvent.BAR_ARRIVE, b << 5, 3, gb, 0);
        r.add(b, 30 + b, 6, fp(BAR, 3, true));
        return r;
    }
}
