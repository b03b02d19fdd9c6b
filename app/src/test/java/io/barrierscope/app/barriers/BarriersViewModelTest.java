package io.barrierscope.app.barriers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.BarrierRow;
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
    void ctaBarrierRowNamesMissingWarpsBeforeArrivedOnes() {
        assertEquals("3/4 warps", waiting.arrivedText());
        assertEquals(0.75, waiting.fraction());
        assertEquals(true, waiting.waiting());
        assertEquals(false, idle.waiting());
        assertEquals("missing: w2 · arrived: w0–1 w3", waiting.detail());
        assertEquals("", idle.detail());
    }

    @Test
    void mbarriersFollowTheCtaBarriers() {
        MbarrierRow full = new MbarrierRow(0, "CTA (0,0,0)", 24, "full+8 (shared 0x18)", 3, 1, 129, 64, true);
        vm.update(Snapshots.at(Outcome.DEADLOCK, 9, 1, Map.of(), List.of(waiting), List.of(full), List.of()));
        assertEquals(List.of(waiting, full), vm.rows());
        assertEquals("CTA barriers: 1 used, 1 with warps waiting · mbarriers: 1 valid, 1 deadlocked",
                vm.headlineProperty().get());
        vm.update(Snapshots.at(Outcome.RUNNING, 10, 1, Map.of(), List.of(), List.of(full), List.of()));
        assertEquals(List.of(full), vm.rows());
        assertTrue(vm.headlineProperty().get().startsWith("CTA barriers: none used yet · mbarriers: 1 valid"));
    }

    @Test
    void mbarrierRowTexts() {
        MbarrierRow owed = new MbarrierRow(0, "CTA (0,0,0)", 24, "full+8 (shared 0x18)", 3, 1, 129, 64, false);
        assertEquals("mbarrier", owed.kind());
        assertEquals("full+8 (shared 0x18)", owed.label());
        assertEquals("3 (parity 1)", owed.phaseText());
        assertEquals("1 of 129 pending", owed.gaugeText());
        assertEquals(128.0 / 129, owed.fraction());
        assertEquals("tx +64: 64 bytes outstanding", owed.detail());
        MbarrierRow over = new MbarrierRow(0, "CTA (0,0,0)", 0, "bar", 0, 0, 2, -16, false);
        assertEquals("tx -16: 16 bytes over-delivered", over.detail());
        assertEquals(1.0, over.fraction());
        assertEquals("tx 0", new MbarrierRow(0, "c", 0, "bar", 0, 2, 2, 0, false).detail());
        assertEquals("gen 2", waiting.phaseText());
        assertEquals("idle (0/4)", idle.gaugeText());
    }
}
