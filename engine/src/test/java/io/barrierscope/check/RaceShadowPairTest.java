package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A word's two unordered readers held in place as a pair (RaceShadow.Cells#pairs) stand for the
 * two-entry read set object the detector made before: the state hash, a checkpoint's copy, a split
 * into byte cells and the object the general path asks for must all be what that object gives.
 */
class RaceShadowPairTest {
    private static final int W = 3;
    private static final long WRITE = (5L << 32) | 40; // the copy's write both readers are ordered after
    private static final long FIRST = (7L << 32) | RaceDetector.STRONG | 33; // a strong read first
    private static final long SECOND = (9L << 32) | 70;

    /** The cells as the detector leaves them after the second read: the pair, or (as before) the object. */
    private static RaceShadow.Page page(boolean asPair) {
        RaceShadow.Page p = new RaceShadow.Page();
        RaceShadow.Cells c = p.words;
        c.setWrite(W, WRITE, 11, 100);
        c.setRead(W, FIRST, 12, 101);
        if (asPair) {
            c.setPair(W, FIRST, SECOND, 13, 102);
        } else {
            c.readSets = new RaceShadow.ReadSet[c.size()];
            RaceShadow.ReadSet rs = c.readSets[W] = new RaceShadow.ReadSet();
            rs.put(33 | Integer.MIN_VALUE, 7, 12, 101);
            rs.put(70, 9, 13, 102);
        }
        c.clearRead(W);
        return p;
    }

    private static List<Long> hash(RaceShadow.Page p) {
        List<Long> h = new ArrayList<>();
        p.hashInto(h::add);
        return h;
    }

    @Test
    void aPairFeedsTheStateHashAsItsReadSetObjectDid() {
        assertEquals(hash(page(false)), hash(page(true)));
    }

    @Test
    void theGeneralPathGetsThePairAsTheSameReadSetEntriesInOrder() {
        RaceShadow.Page pair = page(true);
        RaceShadow.ReadSet want = page(false).words.readSet(W);
        RaceShadow.ReadSet got = pair.words.readSet(W);
        assertEquals(want.size, got.size);
        assertArrayEquals(want.ids, got.ids);
        assertArrayEquals(want.clocks, got.clocks);
        assertArrayEquals(want.pcs, got.pcs);
        assertArrayEquals(want.steps, got.steps);
        assertFalse(pair.words.hasPair(W));
        assertTrue(pair.words.hasReadSet(W));
        assertEquals(hash(page(false)), hash(pair));
    }

    @Test
    void aCheckpointCopyKeepsThePairApartFromTheLiveCells() {
        RaceShadow.Page live = page(true);
        RaceShadow.Page copy = live.copy();
        live.words.clearPair(W);
        live.words.setWrite(W, (6L << 32) | 40, 14, 103);
        assertEquals(hash(page(false)), hash(copy));
        assertTrue(copy.words.hasPair(W));
    }

    @Test
    void splittingAWordGivesEachByteThePairsReadSet() {
        RaceShadow.Page pair = page(true);
        RaceShadow.Page object = page(false);
        assertEquals(object.split(W), pair.split(W));
        assertEquals(hash(object), hash(pair));
        assertEquals(object.join(W), pair.join(W));
        assertEquals(hash(object), hash(pair));
    }
}
