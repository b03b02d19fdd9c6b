package io.barrierscope.app.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.GlobalBuffers;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The global-memory view's model: buffers by name as typed arrays, changes since the previous stop marked. */
class GlobalMemoryViewModelTest {
    private static GlobalBuffers at(long step, Number... out) {
        return new GlobalBuffers(step, List.of(
                new GlobalBuffers.Buffer("out", ScalarType.S32, 0x1000, out.length, List.of(out)),
                new GlobalBuffers.Buffer("f", ScalarType.F32, 0x2000, 2, List.of(1.5, 2.0))));
    }

    @Test
    void theFirstBufferIsShownAsATypedArrayWithAddresses() {
        GlobalMemoryViewModel vm = new GlobalMemoryViewModel();
        vm.update(at(0, 0, 0, 0));
        assertEquals(List.of("out", "f"), vm.names());
        assertEquals("out", vm.bufferProperty().get());
        assertEquals(3, vm.rows().size());
        assertEquals("0x1008", vm.rows().get(2).address(), "4-byte elements");
        assertTrue(vm.titleProperty().get().startsWith("out: 3 × .s32 at 0x1000"), vm.titleProperty().get());
        vm.bufferProperty().set("f");
        assertEquals("1.5", vm.rows().get(0).value());
    }

    @Test
    void valuesTheLastStepChangedAreMarkedWithTheirOldValue() {
        GlobalMemoryViewModel vm = new GlobalMemoryViewModel();
        vm.update(at(4, 0, 0, 0));
        vm.update(at(5, 0, 7, 0));
        assertFalse(vm.rows().get(0).changed());
        assertTrue(vm.rows().get(1).changed());
        assertEquals("0", vm.rows().get(1).before());
        assertTrue(vm.titleProperty().get().endsWith("1 changed by the last step"), vm.titleProperty().get());
        vm.update(at(5, 0, 7, 0)); // the same stop posted again keeps what changed
        assertTrue(vm.rows().get(1).changed());
        vm.update(at(9, 0, 7, 1));
        assertTrue(vm.titleProperty().get().endsWith("1 changed since step 5"), vm.titleProperty().get());
        assertTrue(vm.rows().get(2).changed());
        assertFalse(vm.rows().get(1).changed());
    }

    @Test
    void aNewFileComparesWithNothing() {
        GlobalMemoryViewModel vm = new GlobalMemoryViewModel();
        vm.update(at(4, 0, 0, 0));
        vm.clear();
        vm.update(at(5, 0, 7, 0));
        assertFalse(vm.rows().get(1).changed());
    }

    @Test
    void goToWriterAsksForTheShownBufferAndElementAndShowsTheAnswer() {
        GlobalMemoryViewModel vm = new GlobalMemoryViewModel();
        List<String> asked = new ArrayList<>();
        vm.setWriterFinder((b, i) -> asked.add(b + "[" + i + "]"));
        vm.update(at(4, 0, 0, 0));
        vm.goToWriter(2);
        assertEquals(List.of("out[2]"), asked);
        assertTrue(vm.statusProperty().get().startsWith("Searching"));
        vm.told("out[2] was last written at step 3 by warp 1");
        assertEquals("out[2] was last written at step 3 by warp 1", vm.statusProperty().get());
    }

    @Test
    void aStepReplacesOnlyTheRowsWhoseCellsChange() {
        GlobalMemoryViewModel vm = new GlobalMemoryViewModel();
        vm.update(at(4, 0, 0, 0, 0));
        vm.update(at(5, 0, 7, 0, 0));
        List<GlobalMemoryViewModel.Row> before = new ArrayList<>(vm.rows());
        List<javafx.collections.ListChangeListener.Change<? extends GlobalMemoryViewModel.Row>> changes = new ArrayList<>();
        vm.rows().addListener((javafx.collections.ListChangeListener<GlobalMemoryViewModel.Row>) c -> changes.add(c));
        vm.update(at(6, 0, 7, 0, 3)); // element 3 changes; element 1 is no longer "changed by the last step"
        assertEquals(2, changes.size(), "one change per replaced row");
        assertTrue(vm.rows().get(0) == before.get(0) && vm.rows().get(2) == before.get(2), "untouched rows are kept");
        assertFalse(vm.rows().get(1).changed());
        assertTrue(vm.rows().get(3).changed());
        assertEquals("0x100c", vm.rows().get(3).address());
    }
}
