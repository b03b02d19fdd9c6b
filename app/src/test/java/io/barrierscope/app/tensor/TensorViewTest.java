package io.barrierscope.app.tensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import javafx.scene.canvas.Canvas;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The Tensor tab in the real window: opening it shows the first mma's accumulator for the focused warp; choosing an operand shows that one. */
@ExtendWith(ApplicationExtension.class)
class TensorViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTensorTabShowsAnMmaOperandAsItsMatrix(FxRobot robot) {
        w.open(robot, "mma-gemm");
        w.run(robot);
        robot.interact(() -> w.vm.showPanel(io.barrierscope.app.debugger.Panel.THREADS)); // the run's end showed the report
        TabPane inspector = robot.lookup(".inspector").queryAs(TabPane.class);
        // the registers' context menu leads to the Tensor tab
        TableView<?> registers = robot.lookup("#registerTable").queryAs(TableView.class);
        robot.interact(() -> registers.getContextMenu().getItems().get(0).fire());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("tensorTab", inspector.getSelectionModel().getSelectedItem().getId());
        Label header = robot.lookup("#tensorHeader").queryAs(Label.class);
        assertTrue(header.getText().matches("D \\(16 x 8 f32\\) of warp \\d of CTA \\(0,0,0\\)"), header.getText());
        ComboBox<String> instruction = robot.lookup("#tensorInstruction").queryAs(ComboBox.class);
        assertEquals(2, instruction.getItems().size());
        assertTrue(instruction.getValue().contains("mma.sync.aligned.m16n8k16"), instruction.getValue());
        Canvas grid = robot.lookup("#tensorGrid").queryAs(Canvas.class);
        double narrow = grid.getWidth();

        ComboBox<String> operand = robot.lookup("#tensorOperand").queryAs(ComboBox.class);
        robot.interact(() -> operand.setValue("A"));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(header.getText().startsWith("A (16 x 16 f16)"), header.getText());
        assertTrue(grid.getWidth() > narrow, "16 columns are wider than 8");
        assertEquals("A", w.vm.tensor().operand());
    }
}
