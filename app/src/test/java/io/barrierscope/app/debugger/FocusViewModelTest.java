package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Move;
import org.junit.jupiter.api.Test;

/** The toolbar's focus chooser on real samples, without a toolkit: its levels, following the selection, and F11 stepping its warp. */
class FocusViewModelTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));

    @Test
    void theFocusNamesOnlyTheLevelsTheLaunchHas() {
        vm.open(TestFiles.sample("mbarrier-init-count-too-high")); // one CTA
        vm.step();
        assertTrue(vm.focus().textProperty().get().matches("focus: warp \\d"), vm.focus().textProperty().get());
        vm.open(TestFiles.sample("block-reduce")); // four CTAs, no clusters
        vm.step();
        assertTrue(vm.focus().textProperty().get().matches("focus: CTA \\d / warp \\d"), vm.focus().textProperty().get());
        vm.open(TestFiles.sample("cluster-barrier-one-partition"));
        vm.step();
        assertTrue(vm.focus().textProperty().get().matches("focus: cluster \\d / CTA \\d / warp \\d"), vm.focus().textProperty().get());
    }

    @Test
    void selectingAWarpAnywhereFocusesIt() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.step();
        vm.threads().select(vm.threads().node("w13"));
        assertEquals(13, vm.focus().warpProperty().get());
        assertEquals("focus: CTA 3 / warp 1", vm.focus().textProperty().get());
    }

    @Test
    void aPickedWarpIsSelectedAndTheWarpStepMovesIt() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.step();
        vm.focus().pick(6);
        assertEquals("w6", vm.threads().selectedKeyProperty().get());
        assertEquals(6, vm.timelineProperty().get().selectedWarpProperty().get());
        vm.move(Move.STEP_WARP);
        assertTrue(vm.positionProperty().get().startsWith("CTA (1,0,0) warp 2"), vm.positionProperty().get());
        assertEquals("focus: CTA 1 / warp 2", vm.focus().textProperty().get());
    }
}
