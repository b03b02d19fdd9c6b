package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import java.util.List;
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
    @Test
    void exitedWarpsOfABarrierWithACountAreMissingWithWhyAsInTheDeadlockExplanation() {
        SessionRecorder r = SessionRecorder.open("named-barrier-too-many");
        Snapshot end = r.runToEnd();
        assertEquals(Outcome.DEADLOCK, end.outcome());
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.CTA_BARRIER, 0, 1));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        // bar.sync 1, 128 reached by warps 0 and 1; warps 2 and 3 exited and can never arrive.
        assertEquals(List.of("w0 (t0–31)", "w1 (t32–63)"), d.arrived());
        assertEquals(2, d.missing().size(), d.missing().toString());
        assertTrue(d.missing().get(0).startsWith("w2 (t64–95): exited (exited threads never arrive on a barrier with an explicit count)"),
                d.missing().get(0));
        assertTrue(d.missing().get(1).startsWith("w3 (t96–127): exited"), d.missing().get(1));
        assertEquals(BarrierDetail.Who.warp(2), d.missingWho().get(0));
        assertTrue(d.summary().contains("warps not arrived: 2"), d.summary());
    }

    @Test
    void anMbarrierWaitingOnlyForBytesSaysSoAndListsNoThread() {
        SessionRecorder r = SessionRecorder.open("expect-tx-too-high");
        Snapshot end = r.runToEnd();
        assertEquals(Outcome.DEADLOCK, end.outcome());
        MbarrierRow row = end.mbarriers().get(0);
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.MBARRIER, row.cta(), row.offset()));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        // Count 1, its one arrival in, 128 bytes never delivered: not 63 threads "not arrived".
        assertTrue(d.summary().startsWith("All 1 arrivals are in in phase 2 (parity 0); the phase waits only for bytes: "
                + "128 tx bytes expected but not yet delivered"), d.summary());
        assertEquals(List.of("128 tx bytes not yet delivered; no copy in flight would deliver them"), d.missing());
    }

    @Test
    void anMbarrierOfCountOneBeforeItsProducerArrivesListsNoThreadAsNotArrived() {
        SessionRecorder r = SessionRecorder.open("expect-tx-too-high");
        MbarrierRow armed = null;
        for (int i = 0; i < 2000 && armed == null; i++) {
            r.session.step();
            armed = r.last().mbarriers().stream().filter(b -> b.expected() == 1 && b.pending() == 1).findFirst().orElse(null);
        }
        assertNotNull(armed, "no step with the count-1 mbarrier waiting for its arrival");
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.MBARRIER, armed.cta(), armed.offset()));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        assertEquals(1, d.missing().size(), d.missing().toString());
        assertTrue(d.missing().get(0).startsWith("1 more arrive-on needed, from any thread"), d.missing().get(0));
    }

    @Test
    void anMbarrierWithACountBelowItsThreadsNamesNoMissingThreadButTheCopiesInFlight() {
        SessionRecorder r = SessionRecorder.open("tma-pipeline");
        MbarrierRow waiting = null;
        for (int i = 0; i < 20000 && waiting == null; i++) {
            r.session.step();
            waiting = r.last().mbarriers().stream().filter(b -> b.pending() == 0 && b.tx() > 0).findFirst().orElse(null);
        }
        assertNotNull(waiting, "no step where an mbarrier waits for bytes only");
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.MBARRIER, waiting.cta(), waiting.offset()));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        assertTrue(d.missing().get(0).startsWith(waiting.tx() + " tx bytes not yet delivered; "), d.missing().toString());
        assertTrue(d.missing().get(0).contains("in flight would deliver"), d.missing().toString());
        assertTrue(d.missing().stream().skip(1).allMatch(m -> m.startsWith("in flight: cp.async.bulk")), d.missing().toString());
        assertTrue(d.missing().stream().noneMatch(m -> m.matches("t\\d+.*")), d.missing().toString());
    }

    @Test
    void aCountPast2To31IsShownAsTheKernelWroteIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // bar.sync's b is a .u32 (PTX ISA 9.7.13.1): 0xffffffe0 is 4294967264 threads, not a capped or negative count.
        java.nio.file.Path ptx = dir.resolve("big_count.ptx");
        java.nio.file.Files.writeString(ptx, ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                + ".reg .b32 %r<4>;\nmov.u32 %r1, 0xffffffe0;\nbar.sync 1, %r1;\nret;\n}\n");
        SessionRecorder r = new SessionRecorder();
        r.session.open(ptx, new LaunchSettings(io.barrierscope.exec.Dim3.ONE, new io.barrierscope.exec.Dim3(64, 1, 1), null, "round-robin", 0));
        assertEquals(Outcome.DEADLOCK, r.runToEnd().outcome());
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.CTA_BARRIER, 0, 1));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        assertTrue(d.summary().contains("of 134217727 warps (count 4294967264)"), d.summary());
    }
}
