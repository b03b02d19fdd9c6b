package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.barrierscope.exec.GlobalMemory;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A launch's write watch gives back the memory as the launch found it, page by page. */
class LaunchBundleWatchTest {
    @Test
    void writtenPagesComeBackAsTheyWereAndUntouchedSegmentsAreNotCopied() {
        GlobalMemory g = new GlobalMemory();
        byte[] a = new byte[3 * 4096 + 100];
        Arrays.fill(a, (byte) 1);
        GlobalMemory.Segment s = g.map("a", a, false);
        GlobalMemory.Segment t = g.map("t", new byte[16], false);
        byte[] original = a.clone();
        LaunchBundle.Watch w = new LaunchBundle.Watch();
        g.watchWrites(w);
        // A write across the boundary of pages 0 and 1, then one into the short last page.
        long at = s.base() + 4096 - 4;
        g.find(at, 8, true);
        Arrays.fill(a, 4092, 4100, (byte) 9);
        g.find(s.base() + 3 * 4096 + 50, 4, true);
        Arrays.fill(a, 3 * 4096 + 50, 3 * 4096 + 54, (byte) 7);
        g.find(t.base(), 4, false); // a read: nothing kept
        g.watchWrites(null);
        LaunchBundle.Before b = w.before(g, null);
        assertArrayEquals(original, b.segments().get(0).data());
        assertSame(t, b.segments().get(1), "a segment the launch did not write is not copied");
    }
}
