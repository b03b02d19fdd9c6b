package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A clock chunk by warp (one entry per warp) means the same entries as its full form: lookups,
 * joins, single raises and the state hash see per-id values either way.
 */
class VectorClockByWarpTest {
    private static final int CHUNK = 64; // two warps per CTA
    private static final int COUNT = 2;

    private static List<Long> hash(VectorClock v) {
        List<Long> out = new ArrayList<>();
        v.hashInto(out::add, CHUNK);
        return out;
    }

    @Test
    void aChunkByWarpReadsHashesAndJoinsLikeItsFullForm() {
        int[] byWarp = {3, 5};
        int[] full = VectorClock.expand(byWarp, CHUNK);
        VectorClock a = new VectorClock(new int[][] {byWarp, null});
        VectorClock b = new VectorClock(new int[][] {full, null});
        for (int id = 0; id < CHUNK * COUNT; id++) assertEquals(b.get(id, CHUNK), a.get(id, CHUNK), "id " + id);
        assertEquals(hash(b), hash(a));

        int[] other = new int[CHUNK];
        other[7] = 9;
        other[40] = 1;
        VectorClock o = new VectorClock(new int[][] {other, null});
        assertEquals(hash(b.join(o)), hash(a.join(o)));
        assertEquals(hash(o.join(b)), hash(o.join(a)));
        assertEquals(hash(b.with(33, 8, CHUNK, COUNT)), hash(a.with(33, 8, CHUNK, COUNT)));
    }

    @Test
    void aBuilderSplitsAChunkByWarpWhenOneLanesEntryMustDiffer() {
        VectorClock.Builder byWarp = new VectorClock.Builder(COUNT, CHUNK);
        VectorClock.Builder full = new VectorClock.Builder(COUNT, CHUNK);
        byWarp.raiseWarp(0, 1, 4);
        for (int id = 32; id < 64; id++) full.raise(id, 4);
        assertEquals(hash(full.snapshot()), hash(byWarp.snapshot()));
        byWarp.raise(35, 6);
        full.raise(35, 6);
        assertEquals(hash(full.snapshot()), hash(byWarp.snapshot()));
        assertEquals(6, byWarp.get(35));
        assertEquals(4, byWarp.get(36));
        assertArrayEquals(full.snapshot().chunks[0], byWarp.snapshot().chunks[0]);
    }
}
