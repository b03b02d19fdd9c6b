package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.BreakpointRow;
import io.barrierscope.app.session.PanelRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import io.barrierscope.app.source.CodeList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The window going both ways: a barrier-completion breakpoint written in the panel, continue,
 * the gauges and the highlighted line at the stop, a reverse step, gutter clicks, a deadlock
 * left and found again, and a trace saved and reopened.
 */
@ExtendWith(ApplicationExtension.class)
class TimeTravelViewTest {
    private TestWindow w;
    @TempDir
    Path tmp;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    private static String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    private static void keys(FxRobot robot, KeyCode modifier, KeyCode key) {
        robot.press(modifier).type(key).release(modifier);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @SuppressWarnings("unchecked")
    private static PanelRow fullBarrier(FxRobot robot) {
        TableView<PanelRow> table = robot.lookup("#barrierTable").queryAs(TableView.class);
        return table.getItems().stream().filter(r -> r.label().startsWith("full ")).findFirst().orElseThrow();
    }

    @Test
    @SuppressWarnings("unchecked")
    void stopAtAnMbarrierCompletionStepBackThenLeaveADeadlockAndReopenItsTrace(FxRobot robot) throws Exception {
        w.open(robot, "mbarrier-parity-pipeline");
        assertEquals(1, robot.lookup("#timelineSlot").queryAs(javafx.scene.layout.StackPane.class).getChildren().size());
        keys(robot, KeyCode.CONTROL, KeyCode.B); // the breakpoints panel, keyboard in its field
        assertEquals("breakpointsTab", robot.lookup("#panelTabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem().getId());
        TextField spec = robot.lookup("#breakpointSpec").queryAs(TextField.class);
        assertTrue(spec.isFocused());
        robot.interact(() -> spec.setText("mbarrier:full,phase=1")); // typed char by char it costs seconds headless
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        TableView<BreakpointRow> bps = robot.lookup("#breakpointTable").queryAs(TableView.class);
        assertEquals(1, bps.getItems().size());
        assertEquals("mbarrier phase completes", bps.getItems().get(0).kind());

        robot.type(KeyCode.F5);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(text(robot, "#stepsLabel").startsWith("step 311 of 311 (frontier)"), text(robot, "#stepsLabel"));
        String why = robot.lookup("#statusBar").queryAs(org.controlsfx.control.StatusBar.class).getText();
        assertTrue(why.startsWith("Breakpoint mbarrier:full,phase=1 at step 311: mbarrier full"), why);
        assertTrue(why.endsWith("completed phase 1"), why);
        PanelRow full = fullBarrier(robot);
        assertEquals("2 (parity 0)", full.phaseText());
        assertEquals("1 of 1 pending", full.gaugeText()); // a fresh phase waits for its one arrival
        assertEquals("tx 0", full.detail());
        assertEquals(1, bps.getItems().get(0).hits());
        // The highlighted line is the followed warp's next instruction, in view.
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        int line = w.vm.source().getCurrentLine();
        assertEquals(List.of(line), TestWindow.linesWith(ptx, "current-line"));
        assertTrue(text(robot, "#positionLabel").endsWith("line " + line), text(robot, "#positionLabel"));

        keys(robot, KeyCode.SHIFT, KeyCode.F10); // one warp step back: before the arrival that completed the phase
        assertTrue(text(robot, "#stepsLabel").startsWith("step 310 of 311 (frontier)"), text(robot, "#stepsLabel"));
        PanelRow before = fullBarrier(robot);
        assertEquals("1 (parity 1)", before.phaseText()); // the arrival that completed phase 1 is undone
        assertEquals("1 of 1 pending", before.gaugeText());
        assertEquals("tx 0", before.detail());
        robot.type(KeyCode.F10);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(full, fullBarrier(robot), "forward again: the same state");

        // A click in the gutter sets a line breakpoint; its marker shows; a second click removes it.
        Node gutter = TestWindow.gutter(robot, ptx, line);
        robot.clickOn(gutter);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(2, bps.getItems().size());
        assertEquals("line:" + line, bps.getItems().get(1).spec());
        assertTrue(robot.from(gutter).lookup(".breakpoint-marker").query().isVisible());
        robot.interact(() -> w.vm.source().toggleBreakpoint(line)); // what a second click does
        assertEquals(1, bps.getItems().size());
        assertTrue(robot.from(TestWindow.gutter(robot, ptx, line)).lookup(".breakpoint-marker").tryQuery().filter(Node::isVisible).isEmpty(),
                "no marker left");

        // One window for both halves: each window costs seconds headless.
        deadlockIsLeftByStepsBackFoundAgainAndItsTraceReopens(robot);
    }

    private void deadlockIsLeftByStepsBackFoundAgainAndItsTraceReopens(FxRobot robot) throws Exception {
        w.open(robot, "named-barrier-too-many");
        robot.type(KeyCode.F5);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("deadlock", text(robot, "#outcomeLabel"));
        String explanation = robot.lookup("#deadlockText").queryAs(TextArea.class).getText();
        assertTrue(explanation.contains("CTA (0,0,0) warp 2: exited"), explanation);
        assertTrue(explanation.contains("CTA (0,0,0) warp 3: exited"), explanation);

        keys(robot, KeyCode.SHIFT, KeyCode.F11); // the focused warp's previous step: no deadlock yet
        assertEquals("paused", text(robot, "#outcomeLabel"));
        assertEquals("No deadlock", text(robot, "#deadlockHeadline"));
        robot.type(KeyCode.F5);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(text(robot, "#deadlockHeadline").startsWith("Deadlock: 2 blocked thread groups"));

        Path trace = tmp.resolve("deadlock.bstrace");
        robot.interact(() -> w.vm.saveTrace(trace));
        assertTrue(Files.size(trace) > 0);
        robot.interact(() -> w.vm.open(trace));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("deadlock", text(robot, "#outcomeLabel"));
        assertEquals("step 64 of 64 (end) · 64 cycles", text(robot, "#stepsLabel"));
        robot.interact(() -> w.vm.showPanel(Panel.DEADLOCK)); // only the chosen tab is in the window
        assertTrue(robot.lookup("#deadlockText").queryAs(TextArea.class).getText().contains("CTA (0,0,0) warp 2: exited"));
        assertFalse(robot.lookup("#stepBackButton").query().isDisabled());
        assertTrue(robot.lookup("#stepButton").query().isDisabled());
    }
}
