package io.barrierscope.app.barriers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.Snapshots;
import io.barrierscope.exec.Outcome;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.api.Test;

class BarriersViewModelTest {
    private final BarriersViewModel vm = new BarriersViewModel();
    private final BarrierRow waiting = new BarrierRow(0, "CTA (0,0,0)", 0, 2, 3, 4, "w0 w1 w3", false);
    private final BarrierRow idle = new BarrierRow(1, "CTA (1,0,0)", 0, 5, 0, 4, "", false);

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
        vm.rows().addListener((ListChangeListener<BarrierRow>) c -> changes[0]++);
        vm.update(Snapshots.at(Outcome.RUNNING, 2, 1, Map.of(), List.of(waiting), List.of()));
        assertEquals(0, changes[0]);
        assertSame(waiting, vm.rows().get(0));
    }

    @Test
    void rowTexts() {
        assertEquals("3/4 warps", waiting.arrivedText());
        assertEquals(0.75, waiting.fraction());
        assertEquals(true, waiting.waiting());
        assertEquals(false, idle.waiting());
    }
}
