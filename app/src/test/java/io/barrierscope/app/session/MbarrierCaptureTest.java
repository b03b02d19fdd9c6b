package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.barriers.BarriersViewModel;
import io.barrierscope.exec.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** StateCapture and the barriers pane on a real mbarrier sample, run to its end. */
class MbarrierCaptureTest {
    private static Snapshot runToEnd(String sample) {
        List<Snapshot> seen = new ArrayList<>();
        DebugSession s = new DebugSession(Runnable::run, Runnable::run, new DebugSession.Listener() {
            @Override public void opened(OpenedFile file) {}
            @Override public void updated(Snapshot snap) { seen.add(snap); }
            @Override public void failed(String message) { throw new AssertionError(message); }
        });
        s.open(TestFiles.sample(sample));
        s.run();
        return seen.get(seen.size() - 1);
    }

    @Test
    void initCountTooHighShowsOneArrivalPendingInRed() {
        Snapshot end = runToEnd("mbarrier-init-count-too-high");
        assertEquals(Outcome.DEADLOCK, end.outcome());
        assertEquals(1, end.mbarriers().size(), end.mbarriers().toString());
        MbarrierRow row = end.mbarriers().get(0);
        assertEquals(0, row.phase());
        assertEquals(0, row.parity());
        assertEquals(1, row.pending());
        assertEquals(129, row.expected());
        assertTrue(row.stuck());
        assertEquals("mbarrier", row.kind());
        assertEquals("CTA (0,0,0)", row.ctaName());
        assertEquals("1 of 129 pending", row.gaugeText());
        assertEquals("0 (parity 0)", row.phaseText());

        BarriersViewModel vm = new BarriersViewModel();
        vm.update(end);
        PanelRow shown = vm.rows().get(vm.rows().size() - 1);
        assertEquals(row, shown);
        assertTrue(vm.headlineProperty().get().endsWith("mbarriers: 1 valid, 1 deadlocked"),
                vm.headlineProperty().get());
    }

    @Test
    void aFreshRunShowsNoMbarrierAndTheFixedSampleNoneStuck() {
        Snapshot end = runToEnd("mbarrier-init-count-too-high-fixed");
        assertEquals(Outcome.COMPLETED, end.outcome());
        assertFalse(end.mbarriers().isEmpty());
        assertTrue(end.mbarriers().stream().noneMatch(MbarrierRow::stuck));
    }

    @Test
    void expectTxTooHighShowsTheBytesStillOwedOfThoseExpected() {
        Snapshot end = runToEnd("expect-tx-too-high");
        assertEquals(Outcome.DEADLOCK, end.outcome());
        MbarrierRow full = end.mbarriers().get(0);
        // The phase expects 256 bytes; the copy brings 128: a tx-count of +128 keeps it open.
        assertEquals(256, full.txExpected());
        assertEquals(128, full.txCompleted());
        assertEquals("tx +128 of 256 bytes", full.detail());
        assertEquals(0.5, full.txFraction());
        assertTrue(full.stuck());
    }

    @Test
    void txBytesAreThoseOfTheCurrentPhase() {
        SessionRecorder r = SessionRecorder.open("tma-pipeline");
        boolean sawBytes = false;
        for (int i = 0; i < 2000 && !r.last().finished(); i++) {
            r.session.step();
            for (MbarrierRow m : r.last().mbarriers()) {
                assertEquals(m.tx(), m.txExpected() - m.txCompleted(), m.toString());
                sawBytes |= m.hasTx();
            }
        }
        assertTrue(r.last().finished());
        assertTrue(sawBytes, "no step with transaction bytes in a phase");
        // Each completed phase starts the next without bytes.
        assertTrue(r.last().mbarriers().stream().noneMatch(MbarrierRow::hasTx), r.last().mbarriers().toString());
    }
}
