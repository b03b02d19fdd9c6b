package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Warp sets as bit arrays: any number of warps, walked in warp order. */
class WarpBitsTest {
    @Test
    void warpsPastTheFirstWordAreHeldAndWalkedInOrder() {
        long[] s = WarpBits.of(200, 3, 63, 64, 130, 199);
        assertEquals(4, s.length);
        assertEquals(5, WarpBits.count(s));
        StringBuilder walked = new StringBuilder();
        for (int w = WarpBits.next(s, 0); w >= 0; w = WarpBits.next(s, w + 1)) walked.append(w).append(' ');
        assertEquals("3 63 64 130 199 ", walked.toString());
        assertEquals(130, WarpBits.next(s, 65));
        assertEquals(-1, WarpBits.next(s, 200));
    }

    @Test
    void setsShareAWarpOnlyWhenTheSameBitOfTheSameWordIsSet() {
        assertFalse(WarpBits.intersects(WarpBits.of(130, 1), WarpBits.of(130, 65)), "warp 65 is not warp 1");
        assertTrue(WarpBits.intersects(WarpBits.of(130, 1, 129), WarpBits.of(130, 129)));
        assertFalse(WarpBits.intersects(WarpBits.of(130, 1), null), "null is the empty set");
        long[] u = WarpBits.of(130, 1);
        WarpBits.or(u, WarpBits.of(130, 128));
        assertTrue(WarpBits.get(u, 128) && WarpBits.get(u, 1) && !WarpBits.get(u, 0));
        assertTrue(WarpBits.isEmpty(WarpBits.empty(130)) && WarpBits.isEmpty(null));
    }
}
