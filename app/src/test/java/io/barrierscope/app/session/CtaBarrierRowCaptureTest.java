package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.barrierscope.exec.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A CTA barrier row names its missing warps without being selected. */
class CtaBarrierRowCaptureTest {

    @Test
    void openGenerationRowNamesTheSameMissingWarpsAsTheRoster() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        BarrierRow open = null;
        for (int i = 0; i < 5000 && open == null; i++) {
            r.session.step();
            open = r.last().barriers().stream().filter(b -> b.arrived() > 1 && b.arrived() < b.expected() - 1)
                    .findFirst().orElse(null);
        }
        assertNotNull(open, "no step with two warps arrived and two missing");
        r.session.selectBarrier(new BarrierKey(BarrierKey.Kind.CTA_BARRIER, open.cta(), open.id()));
        BarrierDetail d = r.details.get(r.details.size() - 1);
        int missing = 0;
        for (String w : d.missing()) missing |= 1 << Integer.parseInt(w.substring(1, w.indexOf(' ')));
        assertEquals(StateCapture.warpRanges(missing), open.missingWarps());
        assertEquals("missing: " + open.missingWarps() + " · arrived: " + open.arrivedWarps(), open.detail());
    }

    @Test
    void countedBarrierRowNamesTheWarpsStillNeeded() {
        Snapshot end = SessionRecorder.open("cluster-barrier-one-partition").runToEnd();
        assertEquals(Outcome.DEADLOCK, end.outcome());
        // bar.sync 1, 64 in each CTA: the producer (w0) waits for the consumer (w1), stuck at the cluster barrier.
        assertEquals(List.of("missing: w1 · arrived: w0", "missing: w1 · arrived: w0"), end.barriers().stream().map(BarrierRow::detail).toList());
    }

    @Test
    void warpRangesJoinRuns() {
        assertEquals("w0–1 w3", StateCapture.warpRanges(0b1011));
        assertEquals("w31", StateCapture.warpRanges(1 << 31));
        assertEquals("", StateCapture.warpRanges(0));
        assertEquals("t32–63", StateCapture.ranges("t", 0xFFFFFFFFL, 32));
    }
}
