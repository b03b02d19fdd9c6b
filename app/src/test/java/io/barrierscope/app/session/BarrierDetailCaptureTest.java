package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import org.junit.jupiter.api.Test;

/** The selected barrier's roster, history and waiters, captured by the session. */
class BarrierDetailCaptureTest {

    @Test
    void ctaBarrierRosterIsExactAndItsWaitersAreTheArrivedWarps() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        BarrierRow open = null;
        for (int i = 0; i < 5000 && open == null; i++) {
            r.session.step();
            open = r.last().barriers().stream()
                    .filter(b -> b.generation() >= 1 && b.arrived() > 0 && b.arrived() < b.expected()).findFirst().orElse(null);
        }
        assertNotNull(open, "no step with a generation open after a completed one");
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.CTA_BARRIER, open.cta(), open.id()));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        assertTrue(d.title().startsWith("bar " + open.id() + " of " + open.ctaName() + " · generation " + open.generation()), d.title());
        assertEquals(open.arrived(), d.arrived().size());
        assertEquals(open.expected() - open.arrived(), d.missing().size(), d.toString());
        assertTrue(d.arrived().get(0).matches("w\\d+ \\(t\\d+–\\d+\\)"), d.arrived().get(0));
        assertEquals(open.generation(), d.history().size());
        for (int g = 0; g < d.history().size(); g++) {
            assertEquals(g, d.history().get(g).number());
            assertEquals("generation " + g + " completed at step " + d.history().get(g).step(), d.history().get(g).text());
        }
        // The arrived warps wait at the barrier: they are its waiters, at the bar.sync line(s).
        assertEquals(open.arrived(), d.waiterWarps().size(), d.toString());
        assertFalse(d.waiterLines().isEmpty());

        // The detail follows every move; after the next completion the history grows.
        long before = d.history().size();
        for (int i = 0; i < 5000 && r.details.get(r.details.size() - 1).history().size() == before; i++) r.session.step();
        assertEquals(before + 1, r.details.get(r.details.size() - 1).history().size());

        r.session.selectBarrier(null);
        assertNull(r.details.get(r.details.size() - 1));
    }

    @Test
    void mbarrierRosterFromTheRecording() {
        SessionRecorder r = SessionRecorder.open("mbarrier-init-count-too-high");
        Snapshot end = r.runToEnd();
        assertEquals(Outcome.DEADLOCK, end.outcome());
        MbarrierRow row = end.mbarriers().get(0);
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.MBARRIER, row.cta(), row.offset()));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        // Every thread arrived once; the one arrival still pending is nobody's: nobody is missing.
        assertEquals(row.expected() - row.pending(), d.arrived().size());
        assertTrue(d.arrived().get(0).matches("t\\d+ · count 1 at step \\d+ \\(128 pending after\\)"), d.arrived().get(0));
        assertTrue(d.missing().isEmpty(), d.missing().toString());
        assertTrue(d.summary().startsWith("1 of 129 arrivals still pending in phase 0"), d.summary());
        assertTrue(d.history().isEmpty());
        assertEquals(4, d.waiterWarps().size()); // all 128 threads park on it
        assertEquals(1, d.waiterLines().size());

        // Back to the start: the object is not initialised yet.
        r.session.seek(0);
        assertNull(r.details.get(r.details.size() - 1));
    }
}
