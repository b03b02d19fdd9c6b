package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.FrozenPanesViewModel.Pane;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.app.session.Snapshots;
import io.barrierscope.exec.Outcome;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A run's stop reaches the panes a group per frame; each pane keeps its marker until its group ran. */
class PaneStagesTest {
    private final ArrayDeque<Runnable> frames = new ArrayDeque<>();
    private DebuggerViewModel vm;

    @BeforeEach
    void running() {
        vm = new DebuggerViewModel(l -> new DebugSession(task -> {}, Runnable::run, l));
        vm.setNextFrame(frames::add);
        vm.opened(new OpenedFile(Path.of("/x/k.ptx"), "k.ptx", List.of("nop;", "nop;", "nop;", "exit;")));
        vm.updated(Snapshots.at(Outcome.RUNNING, 0, 1, Map.of(), List.of(), List.of()));
        vm.run();
        vm.updated(as(Snapshots.at(Outcome.RUNNING, 7, 3, Map.of(3, 1), List.of(), List.of()), Snapshot.Cause.RUN_PROGRESS));
    }

    @Test
    void aStopReachesThePanesAGroupPerFrameEachDroppingItsMarkerWithIt() {
        vm.updated(as(Snapshots.at(Outcome.RUNNING, 9, 4, Map.of(4, 1), List.of(), List.of()), Snapshot.Cause.RUN_END));
        assertEquals("paused", vm.outcomeProperty().get(), "the status shows the stop at once");
        assertFalse(vm.frozen().frozen(Pane.THREADS), "the threads and barriers take it at once");
        assertFalse(vm.frozen().frozen(Pane.BARRIERS));
        assertEquals("as of step 0 — updating", vm.frozen().markerProperty(Pane.PTX).get());
        assertEquals(1, vm.source().getCurrentLine(), "the PTX pane still shows the moment its marker names");
        frames.poll().run();
        assertFalse(vm.frozen().frozen(Pane.PTX));
        assertEquals(4, vm.source().getCurrentLine());
        assertTrue(vm.frozen().frozen(Pane.CUDA) && vm.frozen().frozen(Pane.DIAGNOSTICS));
        while (!frames.isEmpty()) frames.poll().run();
        assertFalse(vm.frozen().any(), "every pane shows the stop");
    }

    @Test
    void aNewSnapshotFirstCompletesTheGroupsStillWaiting() {
        vm.updated(as(Snapshots.at(Outcome.RUNNING, 9, 4, Map.of(4, 1), List.of(), List.of()), Snapshot.Cause.RUN_END));
        vm.updated(Snapshots.at(Outcome.RUNNING, 10, 2, Map.of(2, 1), List.of(), List.of())); // F10 before the frames came
        assertFalse(vm.frozen().any());
        assertEquals(2, vm.source().getCurrentLine());
        while (!frames.isEmpty()) frames.poll().run(); // frames asked for by the old stop: nothing left to do
        assertEquals(2, vm.source().getCurrentLine(), "an old group never comes back over a newer snapshot");
    }

    @Test
    void aStepAppliesEveryPaneAtOnce() {
        vm.updated(as(Snapshots.at(Outcome.RUNNING, 9, 4, Map.of(4, 1), List.of(), List.of()), Snapshot.Cause.RUN_END));
        while (!frames.isEmpty()) frames.poll().run();
        vm.updated(Snapshots.at(Outcome.RUNNING, 10, 2, Map.of(2, 1), List.of(), List.of()));
        assertTrue(frames.isEmpty(), "no frame asked for");
        assertEquals(2, vm.source().getCurrentLine());
    }

    private static Snapshot as(Snapshot s, Snapshot.Cause cause) {
        return new Snapshot(s.outcome(), s.steps(), s.cycles(), s.maxSteps(), s.focusWarp(), s.focusName(), s.focusLine(),
                s.lastAction(), s.warpsAtLine(), s.barriers(), s.diagnostics(), s.report(), cause);
    }
}
