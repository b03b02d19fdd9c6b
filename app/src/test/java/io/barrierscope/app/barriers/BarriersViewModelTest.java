package io.barrierscope.app.barriers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.ClusterBarrierRow;
import io.barrierscope.app.session.MbarrierRow;
import io.barrierscope.app.session.PanelRow;
import io.barrierscope.app.session.Snapshots;
import io.barrierscope.exec.Outcome;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.api.Test;

class BarriersViewModelTest {
    private final BarriersViewModel vm = new BarriersViewModel();
    private final BarrierRow waiting = new BarrierRow(0, "CTA (0,0,0)", 0, 2, 3, 4, "w0–1 w3", "w2", false);
    private final BarrierRow idle = new BarrierRow(1, "CTA (1,0,0)", 0, 5, 0, 4, "", "", false);

    @Test
    void rowsAndHeadlineFollowTheSnapshot() {
        assertEquals("CTA barriers: none used yet", vm.headlineProperty().get());
        vm.update(Snapshots.at(Outcome.RUNNING, 9, 1, Map.of(), List.of(waiting, idle), List.of()));
        assertEquals(List.of(waiting, idle), vm.rows());
        assertEquals("CTA barriers: 2 used, 1 with warps waiting", vm.headlineProperty().get());
        vm.clear();
        assertEquals(List.of(), vm.rows());
    }

    @Test
    void unchangedRowsAreNotReplaced() {
        vm.update(Snapshots.at(Outcome.RUNNING, 1, 1, Map.of(), List.of(waiting), List.of()));
        int[] changes = {0};
        vm.rows().addListener((ListChangeListener<PanelRow>) c -> changes[0]++);
        vm.update(Snapshots.at(Outcome.RUNNING, 2, 1, Map.of(), List.of(waiting), List.of()));
        assertEquals(0, changes[0]);
        assertSame(waiting, vm.rows().get(0));
    }

    @Test
    void ctaBarrierRowNamesArrivedAndMissingWarps() {
        assertEquals("3/4 warps", waiting.arrivedText());
        assertEquals(0.75, waiting.fraction());
        assertEquals(true, waiting.waiting());
        assertEquals(false, idle.waiting());
        assertEquals("gen 2", waiting.phaseText());
        assertEquals("idle (0/4)", idle.gaugeText());
        assertEquals("missing: w2 · arrived: w0–1 w3", waiting.detail());
        assertEquals("", idle.detail());
    }

    @Test
    void mbarrierRowTexts() {
        MbarrierRow owed = new MbarrierRow(0, "CTA (0,0,0)", 24, "full+8 (shared 0x18)", 3, 1, 129, 64, 64, 0, false);
        assertEquals("mbarrier", owed.kind());
        assertEquals("full+8 (shared 0x18)", owed.label());
        assertEquals("3 (parity 1)", owed.phaseText());
        assertEquals("1 of 129 pending", owed.gaugeText());
        assertEquals(128.0 / 129, owed.fraction());
        assertEquals(1.0, new MbarrierRow(0, "c", 0, "bar", 0, 0, 2, 0, 0, 0, false).fraction());
    }

    @Test
    void txGaugeShowsTheBytesCompletedOfThoseExpectedThisPhase() {
        MbarrierRow half = new MbarrierRow(0, "c", 0, "full", 1, 0, 1, 512, 1024, 512, false);
        assertTrue(half.hasTx());
        assertEquals("tx +512 of 1024 bytes", half.detail());
        assertEquals(0.5, half.txFraction());
        MbarrierRow early = new MbarrierRow(0, "c", 0, "full", 1, 0, 1, -16, 1024, 1040, false);
        assertEquals("tx -16 of 1024 bytes (16 more than expected)", early.detail());
        assertEquals(1.0, early.txFraction());
        MbarrierRow none = new MbarrierRow(0, "c", 0, "full", 1, 1, 1, 0, 0, 0, false);
        assertFalse(none.hasTx());
        assertEquals("tx 0", none.detail());
    }

    @Test
    void clusterBarriersFollowTheMbarriersAndJoinTheHeadline() {
        ClusterBarrierRow pair = new ClusterBarrierRow(0, "CTA (0,0,0)–(1,0,0)", "cluster (0,0,0)", 0, 64, 128, 2, 4,
                "CTA (0,0,0) w0 · CTA (1,0,0) w0", true);
        MbarrierRow full = new MbarrierRow(0, "CTA (0,0,0)", 24, "full", 3, 1, 2, 0, 0, 0, false);
        vm.update(Snapshots.at(Outcome.DEADLOCK, 9, 1, Map.of(), List.of(waiting), List.of(full), List.of(pair), List.of()));
        assertEquals(List.of(waiting, full, pair), vm.rows());
        assertEquals("CTA barriers: 1 used, 1 with warps waiting · mbarriers: 1 valid · cluster barriers: 1 used, "
                + "1 with a phase open, 1 deadlocked", vm.headlineProperty().get());
    }

    @Test
    void clusterBarrierRowTexts() {
        ClusterBarrierRow open = new ClusterBarrierRow(2, "CTA (2,0,0)–(3,0,0)", "cluster (1,0,0)", 1, 64, 128, 2, 4,
                "CTA (2,0,0) w0 · CTA (3,0,0) w0", false);
        assertEquals("cluster", open.kind());
        assertEquals("cluster (1,0,0)", open.label());
        assertEquals("CTA (2,0,0)–(3,0,0)", open.ctaName());
        assertEquals("phase 1", open.phaseText());
        assertEquals(0.5, open.fraction());
        assertEquals("64/128 threads · 2/4 warps", open.gaugeText());
        assertEquals("missing: CTA (2,0,0) w0 · CTA (3,0,0) w0", open.detail());
        ClusterBarrierRow idle = new ClusterBarrierRow(2, "CTA (2,0,0)–(3,0,0)", "cluster (1,0,0)", 2, 0, 128, 0, 4, "", false);
        assertEquals("idle (0/128 threads)", idle.gaugeText());
        assertEquals("", idle.detail());
    }
}
