package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A write watch may watch some segments only (exec's mirrored memory): writes to those are
 * reported and leave the inline store path; writes to the others stay on it, unreported.
 */
class GlobalMemoryWatchTest {
    @Test
    void aWatchOfOneSegmentSeesItsWritesWhileStoresToOtherSegmentsStayInline() {
        GlobalMemory g = new GlobalMemory();
        GlobalMemory.Segment a = g.map("a", new byte[64], false);
        GlobalMemory.Segment b = g.map("b", new byte[64], false);
        List<String> seen = new ArrayList<>();
        g.watchWrites(new GlobalMemory.WriteWatch() {
            @Override
            public void beforeWrite(GlobalMemory.Segment s, int offset, int size) { seen.add(s.name() + "@" + offset + "+" + size); }

            @Override
            public boolean watches(GlobalMemory.Segment s) { return s == a; }
        });
        g.find(b.base() + 8, 4, true);
        assertSame(b, g.lastWritable());
        assertSame(b, g.lastHolding(b.base() + 12, 4, true));
        g.find(a.base() + 4, 4, true);
        assertNull(g.lastWritable());
        assertNull(g.lastHolding(a.base() + 8, 4, true));
        g.find(a.base() + 16, 8, true); // the same segment again: still reported
        assertEquals(List.of("a@4+4", "a@16+8"), seen);
        g.watchWrites(null);
        g.find(a.base(), 4, true);
        assertSame(a, g.lastWritable());
        assertEquals(2, seen.size());
    }
}
