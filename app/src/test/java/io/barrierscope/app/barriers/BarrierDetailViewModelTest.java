package io.barrierscope.app.barriers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.BarrierDetail;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.MbarrierRow;
import io.barrierscope.app.session.Snapshots;
import io.barrierscope.exec.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Selecting a barrier: the session is asked, its detail shown, completions seek, stale details ignored. */
class BarrierDetailViewModelTest {
    private final BarriersViewModel vm = new BarriersViewModel();
    private final List<BarrierKey> asked = new ArrayList<>();
    private final List<Long> seeks = new ArrayList<>();
    private final BarrierRow bar = new BarrierRow(0, "CTA (0,0,0)", 1, 2, 1, 3, "w0", "w1–2", false);
    private final MbarrierRow full = new MbarrierRow(0, "CTA (0,0,0)", 8, "full (shared 0x8)", 3, 1, 2, 0, 0, 0, false);
    private final BarrierKey fullKey = new BarrierKey(BarrierKey.Kind.MBARRIER, 0, 8);

    {
        vm.setOnSelect(asked::add);
        vm.setOnSeek(seeks::add);
    }

    private BarrierDetail detail(BarrierKey key) {
        return new BarrierDetail(key, "full (shared 0x8) of CTA (0,0,0) · phase 3", "1 of 2 arrivals still pending",
                List.of("t0 · count 1 at step 40 (1 pending after)"), List.of("t1–95"),
                List.of("expect-tx 64 bytes by t0 at step 39 (tx +64)"),
                List.of(new BarrierDetail.Completion(0, 12, "phase 0 completed at step 12"),
                        new BarrierDetail.Completion(1, 25, "phase 1 completed at step 25")),
                Set.of(99), Set.of(1, 2));
    }

    @Test
    void selectingAsksTheSessionAndShowsTheRosterHistoryAndWaiters() {
        assertEquals(BarriersViewModel.NO_SELECTION, vm.detailTitleProperty().get());
        vm.update(Snapshots.at(Outcome.RUNNING, 41, 1, Map.of(), List.of(bar), List.of(full), List.of()));
        vm.select(full);
        assertEquals(List.of(fullKey), asked);
        assertEquals(fullKey, vm.selectedProperty().get());
        vm.showDetail(detail(fullKey));
        assertEquals("full (shared 0x8) of CTA (0,0,0) · phase 3", vm.detailTitleProperty().get());
        assertEquals(List.of("t0 · count 1 at step 40 (1 pending after)", "expect-tx 64 bytes by t0 at step 39 (tx +64)"),
                vm.arrived());
        assertEquals(List.of("t1–95"), vm.missing());
        assertEquals(2, vm.history().size());
        assertEquals(Set.of(99), vm.waiterLinesProperty().get());
        assertEquals(Set.of(1, 2), vm.waiterWarpsProperty().get());
        vm.seekTo(vm.history().get(1));
        assertEquals(List.of(25L), seeks);
        vm.select(full); // the same barrier again: nothing new to ask
        assertEquals(1, asked.size());
    }

    @Test
    void aDetailOfAnotherBarrierIsIgnoredAndDeselectingClears() {
        vm.update(Snapshots.at(Outcome.RUNNING, 41, 1, Map.of(), List.of(bar), List.of(full), List.of()));
        vm.select(bar);
        assertEquals(new BarrierKey(BarrierKey.Kind.CTA_BARRIER, 0, 1), asked.get(0));
        vm.showDetail(detail(fullKey)); // late, for a barrier no longer selected
        assertEquals(List.of(), vm.arrived());
        vm.select(null);
        assertNull(asked.get(1));
        assertEquals(BarriersViewModel.NO_SELECTION, vm.detailTitleProperty().get());
        assertEquals(Set.of(), vm.waiterWarpsProperty().get());
    }

    @Test
    void newRowsKeepTheSelectionAndClearDropsIt() {
        vm.update(Snapshots.at(Outcome.RUNNING, 41, 1, Map.of(), List.of(bar), List.of(full), List.of()));
        vm.select(full);
        assertEquals(1, vm.selectedIndex());
        // The table drops its selection while the rows are replaced: the view model keeps the barrier.
        vm.rows().addListener((javafx.collections.ListChangeListener<io.barrierscope.app.session.PanelRow>) c -> vm.select(null));
        MbarrierRow next = new MbarrierRow(0, "CTA (0,0,0)", 8, "full (shared 0x8)", 4, 2, 2, 0, 0, 0, false);
        vm.update(Snapshots.at(Outcome.RUNNING, 42, 1, Map.of(), List.of(), List.of(next), List.of()));
        assertEquals(fullKey, vm.selectedProperty().get());
        assertEquals(0, vm.selectedIndex());
        vm.clear();
        assertNull(vm.selectedProperty().get());
        assertNull(asked.get(asked.size() - 1));
        assertTrue(vm.history().isEmpty());
    }
}
