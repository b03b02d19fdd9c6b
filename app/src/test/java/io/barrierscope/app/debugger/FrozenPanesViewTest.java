package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.app.session.Snapshots;
import io.barrierscope.exec.Outcome;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import io.barrierscope.app.source.CodeList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * While a Continue runs, the heavy panes keep the moment they showed when it began; each says so
 * ("as of step N — running", dimmed) until the stop's snapshot reaches it. The engine's work is
 * held in a queue and run on the FX thread when the test says, so "during the run" is a state
 * the test can look at.
 */
@ExtendWith(ApplicationExtension.class)
class FrozenPanesViewTest {
    private final Queue<Runnable> engine = new ConcurrentLinkedQueue<>();
    private DebuggerViewModel vm;

    @Start
    void start(Stage stage) {
        vm = new DebuggerViewModel(l -> new DebugSession(engine::add, Runnable::run, l));
        DebuggerView view = new DebuggerView(vm, List.of());
        Scene scene = new Scene(view.root(), 1280, 800);
        view.installShortcuts(scene);
        stage.setScene(scene);
        stage.show();
    }

    /** Runs the engine's queued work on the FX thread (its results arrive there, in order). */
    private void runEngine(FxRobot robot) {
        robot.interact(() -> {
            for (Runnable r; (r = engine.poll()) != null; ) r.run();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void openAndStep(FxRobot robot, int steps) {
        robot.interact(() -> vm.open(TestFiles.sample("tma-pipeline")));
        runEngine(robot);
        for (int i = 0; i < steps; i++) {
            robot.type(KeyCode.F10);
            runEngine(robot);
        }
    }

    private static final String[] PANES = {"ptx", "cuda", "barriers", "threads", "diagnostics", "console", "deadlock"};

    /** The pane's marker; a pane in the main tabs is brought forward first (only the chosen tab is in the window). */
    private Node veil(FxRobot robot, String pane) {
        java.util.Set<String> tabbed = java.util.Set.of("threads", "diagnostics", "console", "deadlock");
        if (tabbed.contains(pane)) robot.interact(() -> vm.showPanel(Panel.valueOf(pane.toUpperCase(java.util.Locale.ROOT))));
        return robot.lookup("#frozen-" + pane).query();
    }

    private String badge(FxRobot robot, String pane) {
        return robot.from(veil(robot, pane)).lookup(".frozen-badge").queryAs(Label.class).getText();
    }

    @Test
    void duringContinueEveryHeavyPaneIsMarkedWithTheStepItShows(FxRobot robot) {
        openAndStep(robot, 3);
        long shown = vm.nowProperty().get();
        for (String p : PANES) assertFalse(veil(robot, p).isVisible(), p + " is current before the run");
        robot.type(KeyCode.F5); // the engine's run is held in the queue: the run goes on
        String expected = "as of step " + shown + " — running";
        for (String p : PANES) {
            Node v = veil(robot, p);
            // The veils come in one per frame (each repaints its pane): within a few pulses.
            waitUntil(() -> v.isVisible(), p + " is marked during the run");
            assertEquals(expected, badge(robot, p), p);
        }
        // A progress snapshot moves the status line; the panes, and so their markers, stay.
        robot.interact(() -> vm.updated(progress(shown + 200)));
        assertTrue(vm.stepsProperty().get().startsWith("step " + (shown + 200) + " "), vm.stepsProperty().get());
        for (String p : PANES) assertEquals(expected, badge(robot, p), p);
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition, String what) {
        try {
            WaitForAsyncUtils.waitFor(5, java.util.concurrent.TimeUnit.SECONDS,
                    () -> FrameProbe.fx(() -> condition.getAsBoolean()));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(what, e);
        }
    }

    @Test
    void theFirstMarkerShowsAtOnceTheOthersLaterAndEveryMarkerShowsAsSoonAsTheStatusLineMoves(FxRobot robot) {
        openAndStep(robot, 3);
        long shown = vm.nowProperty().get();
        java.util.List<Node> veils = new java.util.ArrayList<>();
        for (String p : new String[] {"ptx", "cuda", "barriers", "threads"}) veils.add(veil(robot, p)); // the threads tab in front
        java.util.List<Boolean> afterF5 = new java.util.ArrayList<>();
        java.util.List<Boolean> afterProgress = new java.util.ArrayList<>();
        robot.interact(() -> {
            vm.run(); // as F5 does; the engine's run is held in the queue
            veils.forEach(v -> afterF5.add(v.isVisible()));
            vm.updated(progress(shown + 200)); // the status line moves on: every pane must say it is older, now
            veils.forEach(v -> afterProgress.add(v.isVisible()));
        });
        assertEquals(List.of(true, false, false, false), afterF5, "the first marker at once, the others in the frames after");
        assertEquals(List.of(true, true, true, true), afterProgress);
    }

    @Test
    void theMarkersGoWhenTheRunEndsAndThePanesShowItsEnd(FxRobot robot) {
        openAndStep(robot, 1);
        robot.type(KeyCode.F5);
        Node threads = veil(robot, "threads");
        waitUntil(threads::isVisible, "the threads pane is marked during the run");
        runEngine(robot);
        assertFalse(vm.runningProperty().get());
        assertTrue(vm.finishedProperty().get(), vm.outcomeProperty().get());
        for (String p : PANES) assertFalse(veil(robot, p).isVisible(), p + " shows the run's end");
    }

    @Test
    void theMarkersGoWhenPauseStopsTheRun(FxRobot robot) {
        openAndStep(robot, 1);
        robot.type(KeyCode.F5);
        robot.press(KeyCode.SHIFT).type(KeyCode.F5).release(KeyCode.SHIFT); // Pause, before the engine's next check
        runEngine(robot);
        assertEquals("paused", vm.outcomeProperty().get());
        assertFalse(vm.finishedProperty().get(), "Pause stopped the run before its end");
        for (String p : PANES) assertFalse(veil(robot, p).isVisible(), p + " shows the paused moment");
    }

    /** The lines highlighted as current in the PTX and the CUDA pane (each should be one). */
    private static List<List<Integer>> currentLines(FxRobot robot) {
        return List.of(TestWindow.linesWith(robot.lookup("#sourceArea").queryAs(CodeList.class), "current-line"),
                TestWindow.linesWith(robot.lookup("#cudaArea").queryAs(CodeList.class), "current-line"));
    }

    @Test
    void duringContinueBothSourcePanesShowTheLinesOfOneMomentAndTakeTheStopsTogether(FxRobot robot) {
        openAndStep(robot, 3);
        List<List<Integer>> before = currentLines(robot);
        assertEquals(List.of(List.of(vm.source().getCurrentLine()), List.of(vm.cuda().currentLineProperty().get())), before);
        robot.type(KeyCode.F5);
        robot.interact(() -> vm.updated(progress(vm.nowProperty().get() + 200)));
        assertEquals(before, currentLines(robot), "during the run both panes keep the moment it began at");
        runEngine(robot);
        List<List<Integer>> end = currentLines(robot);
        assertEquals(List.of(List.of(vm.source().getCurrentLine()), List.of(vm.cuda().currentLineProperty().get())), end);
        // The same moment reached by steps (a snapshot of another kind) shows the same pair of lines.
        robot.press(KeyCode.SHIFT).type(KeyCode.F10).release(KeyCode.SHIFT);
        runEngine(robot);
        robot.type(KeyCode.F10);
        runEngine(robot);
        assertEquals(end, currentLines(robot), "the end's lines, the same in both panes as when stepped to");
    }

    private static Snapshot progress(long steps) {
        Snapshot s = Snapshots.at(Outcome.RUNNING, steps, 1, Map.of(), List.of(), List.of());
        return new Snapshot(s.outcome(), s.steps(), s.cycles(), s.maxSteps(), s.focusWarp(), s.focusName(), s.focusLine(),
                s.lastAction(), s.warpsAtLine(), s.barriers(), s.diagnostics(), s.report(), Snapshot.Cause.RUN_PROGRESS);
    }
}
