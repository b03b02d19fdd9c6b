package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import java.util.ArrayDeque;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * While a file loads, the status bar shows a busy indicator and Cancel, and nothing else of the
 * window moves: the panes keep their bounds, so the loading frames repaint the status bar only,
 * not the whole window (docs/performance.md, "Opening and Continue, bounded").
 */
@ExtendWith(ApplicationExtension.class)
class OpeningLayoutTest {
    private final ArrayDeque<Runnable> loads = new ArrayDeque<>();
    private DebuggerViewModel vm;
    private DebuggerView view;

    @Start
    void start(Stage stage) {
        vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, loads::add, Runnable::run, l));
        view = new DebuggerView(vm, List.of());
        Scene scene = new Scene(view.root(), 1280, 800);
        stage.setScene(scene);
        stage.show();
    }

    private Bounds bounds(FxRobot robot, String id) {
        Node n = robot.lookup(id).query();
        return FrameProbe.fx(() -> n.localToScene(n.getLayoutBounds()));
    }

    @Test
    void whileAFileLoadsThePanesAndTheStatusBarKeepTheirPlaces(FxRobot robot) {
        robot.interact(() -> vm.open(TestFiles.sample("block-reduce")));
        robot.interact(() -> { while (!loads.isEmpty()) loads.poll().run(); });
        WaitForAsyncUtils.waitForFxEvents();
        Bounds panes = bounds(robot, "#sourcesAndPanes");
        Bounds bar = bounds(robot, "#statusBar");
        robot.interact(() -> vm.open(TestFiles.sample("tma-pipeline"))); // held: it loads until the test says
        WaitForAsyncUtils.waitForFxEvents();
        javafx.scene.control.Button cancel = robot.lookup("#cancelOpen").queryAs(javafx.scene.control.Button.class);
        assertTrue(cancel.isVisible(), "Cancel shows while the file loads");
        Node text = robot.from(cancel).lookup(".text").query();
        Bounds t = FrameProbe.fx(() -> cancel.sceneToLocal(text.localToScene(text.getLayoutBounds())));
        assertTrue(t.getMinY() >= 0 && t.getMaxY() <= FrameProbe.fx(cancel::getHeight) && t.getWidth() > 20,
                "Cancel's text fits in it: " + t + " in " + FrameProbe.fx(cancel::getHeight));
        assertEquals(panes, bounds(robot, "#sourcesAndPanes"), "the panes do not move while a file loads");
        assertEquals(bar, bounds(robot, "#statusBar"), "nor does the status bar");
        robot.interact(() -> { while (!loads.isEmpty()) loads.poll().run(); });
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(panes, bounds(robot, "#sourcesAndPanes"));
        assertEquals(bar, bounds(robot, "#statusBar"));
    }
}
