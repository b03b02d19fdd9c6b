package io.barrierscope.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MbarrierSyncTest {
    @Test
    void nvccLocalStaticNamesAreShownAsTheirSourceNames() {
        assertEquals("full", MbarrierSync.readable("_ZZ10edge_tilesE4full"));
        assertEquals("bar", MbarrierSync.readable("bar"));
        assertEquals("_ZZ99xE1a", MbarrierSync.readable("_ZZ99xE1a"));
    }
}
