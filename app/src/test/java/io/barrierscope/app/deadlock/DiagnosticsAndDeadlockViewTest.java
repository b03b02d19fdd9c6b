package io.barrierscope.app.deadlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import io.barrierscope.app.diagnostics.DiagnosticsViewModel;
import java.util.List;
import javafx.geometry.Point2D;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import io.barrierscope.app.source.CodeList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The diagnostics list and the deadlock explanation, each brought forward by the run's end. */
@ExtendWith(ApplicationExtension.class)
class DiagnosticsAndDeadlockViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    private static String selectedTab(FxRobot robot) {
        return robot.lookup("#panelTabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem().getId();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDiagnosticIsListedAndADoubleClickShowsItsLine(FxRobot robot) {
        w.open(robot, "double-bar-arrive");
        w.run(robot);
        assertEquals("diagnosticsTab", selectedTab(robot));
        TableView<DiagnosticsViewModel.Row> table = robot.lookup("#diagnosticTable").queryAs(TableView.class);
        assertEquals(1, table.getItems().size());
        DiagnosticsViewModel.Row row = table.getItems().get(0);
        assertEquals("barrier-over-arrival", row.code());
        javafx.scene.Node cell = robot.lookup("#diagnosticTable .table-cell")
                .match(org.testfx.matcher.control.LabeledMatchers.hasText("barrier-over-arrival")).query();
        robot.doubleClickOn(cell);
        WaitForAsyncUtils.waitForFxEvents();
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        assertEquals(List.of(row.ptxLine()), TestWindow.linesWith(ptx, "linked-line"));
        assertTrue(TestWindow.styles(ptx, row.ptxLine()).contains("diagnostic-line"));
        assertEquals(1, TestWindow.linesWith(robot.lookup("#cudaArea").queryAs(CodeList.class), "linked-line").size());
    }

    @Test
    void aDeadlockIsExplainedInTextAndAsAGraphWhoseBoxesAnswerClicks(FxRobot robot) {
        w.open(robot, "named-barrier-too-many");
        w.run(robot);
        assertEquals("deadlockTab", selectedTab(robot));
        assertEquals("Deadlock: 2 blocked thread groups", robot.lookup("#deadlockHeadline").queryAs(Label.class).getText());
        String text = robot.lookup("#deadlockText").queryAs(TextArea.class).getText();
        assertTrue(text.contains("CTA (0,0,0) warp 2: exited"), text);
        assertTrue(text.contains("CTA (0,0,0) warp 3: exited"), text);
        Canvas canvas = robot.lookup("#deadlockCanvas").queryAs(Canvas.class);
        WaitGraph g = w.vm.deadlock().graphProperty().get();
        double scale = canvas.getWidth() / g.width();
        assertTrue(scale >= 0.75 && scale <= 1.0, "scale " + scale);
        WaitGraph.Node missing = g.nodes().stream().filter(n -> n.kind() == WaitGraph.Kind.MISSING).findFirst().orElseThrow();
        Point2D at = canvas.localToScreen((missing.x() + 20) * scale, (missing.y() + 20) * scale);
        robot.clickOn(at);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(missing.id(), w.vm.deadlock().selectedProperty().get());
        assertTrue(robot.lookup("#deadlockDetail").queryAs(Label.class).getText().startsWith("CTA (0,0,0) warp 2: exited"));
    }
}
