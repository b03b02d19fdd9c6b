package io.barrierscope.app.breakpoints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.BreakpointRow;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BreakpointsViewModelTest {
    private final List<String> asked = new ArrayList<>();
    private final BreakpointsViewModel vm = new BreakpointsViewModel(new BreakpointsViewModel.Actions() {
        @Override public void add(String spec) { asked.add("add " + spec); }
        @Override public void remove(int id) { asked.add("remove " + id); }
        @Override public void enable(int id, boolean on) { asked.add("enable " + id + " " + on); }
    });

    private static BreakpointRow row(int id, String spec, boolean on) {
        return new BreakpointRow(id, spec, "k", "", 0, on, 0, null, 0);
    }

    @Test
    void theKindChooserWritesTheKindInFrontOfAnArgumentOrConditions() {
        assertEquals("mbarrier:full,phase=1", BreakpointsViewModel.compose("mbarrier", "full,phase=1"));
        assertEquals("arrive,warp=2", BreakpointsViewModel.compose("arrive", "warp=2"));
        assertEquals("barrier", BreakpointsViewModel.compose("barrier", " "));
        assertEquals("diagnostic:barrier-divergence", BreakpointsViewModel.compose("diagnostic", "barrier-divergence"));
        assertEquals("tx-zero,cta=1", BreakpointsViewModel.compose("tx-zero", ",cta=1"));
        // A field that already names a kind is taken as it is, whatever the chooser says.
        assertEquals("line:42", BreakpointsViewModel.compose("barrier", "line:42"));
        assertEquals("whatever", BreakpointsViewModel.compose(BreakpointsViewModel.AS_TYPED, " whatever "));
    }

    @Test
    void anAcceptedSpecEmptiesTheFieldARefusedOneKeepsItWithTheMessage() {
        vm.textProperty().set("bogus");
        vm.add();
        assertEquals(List.of("add bogus"), asked);
        vm.refused("breakpoint 'bogus': unknown kind 'bogus'");
        assertEquals("bogus", vm.textProperty().get());
        assertTrue(vm.errorProperty().get().contains("unknown kind"));

        vm.kindProperty().set("mbarrier");
        vm.textProperty().set("full");
        vm.add();
        assertEquals("add mbarrier:full", asked.get(1));
        assertEquals("", vm.errorProperty().get());
        vm.update(List.of(row(1, "mbarrier:full", true)));
        assertEquals("", vm.textProperty().get());
        assertEquals("Breakpoints (1)", vm.titleProperty().get());
    }

    @Test
    void anEmptyFieldIsExplainedRowsAreEnabledAndRemovedThroughTheSession() {
        vm.add();
        assertTrue(asked.isEmpty());
        assertTrue(vm.errorProperty().get().startsWith("Write a breakpoint"));
        BreakpointRow r = row(3, "barrier", true);
        vm.update(List.of(r));
        vm.setEnabled(r, true); // no change: nothing asked
        vm.setEnabled(r, false);
        vm.remove(r);
        assertEquals(List.of("enable 3 false", "remove 3"), asked);
        vm.stoppedAt(3);
        assertEquals(3, vm.hitProperty().get());
        vm.clear();
        assertEquals(-1, vm.hitProperty().get());
        assertTrue(vm.rows().isEmpty());
    }
}
