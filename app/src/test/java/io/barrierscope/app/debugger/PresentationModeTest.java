package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.threads.ThreadNode;
import io.barrierscope.app.timeline.TimelineView;
import javafx.geometry.Point2D;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Presentation mode (Ctrl+Shift+P) enlarges the timeline as it does the source and the gauges, headless. */
@ExtendWith(ApplicationExtension.class)
class PresentationModeTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    @SuppressWarnings("unchecked")
    void presentationModeEnlargesTheTimelineAndAClickStillFindsItsLane(FxRobot robot) {
        w.open(robot, "named-barrier-too-many");
        w.run(robot);
        assertEquals(16, w.view.timelineView().rowHeight());
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        TimelineView view = w.view.timelineView();
        assertEquals(21, view.rowHeight());
        assertTrue(view.labelWidth() > 200);
        var t = view.viewModel();
        int row = t.rowOfLane(t.model().laneOfWarp(3));
        Point2D at = TestWindow.onFx(() -> view.localToScreen(view.getWidth() - 3, view.rowY(row) + view.rowHeight() - 3));
        robot.clickOn(at);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(3, t.selectedWarpProperty().get());
        robot.interact(() -> w.vm.showPanel(Panel.THREADS)); // the run's end brought the Deadlock tab forward
        TreeTableView<ThreadNode> tree = robot.lookup("#threadTree").queryAs(TreeTableView.class);
        assertEquals("w3", tree.getSelectionModel().getSelectedItem().getValue().key());
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(16, w.view.timelineView().rowHeight());
    }
}
