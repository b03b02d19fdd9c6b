package io.barrierscope.app.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The global-memory tab in the real window: a buffer's values, and going to the step that wrote one. */
@ExtendWith(ApplicationExtension.class)
class GlobalMemoryViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aBuffersValuesAndTheStepThatWroteOne(FxRobot robot) {
        w.open(robot, "block-reduce");
        w.run(robot);
        long end = w.vm.nowProperty().get();
        robot.press(KeyCode.CONTROL).type(KeyCode.DIGIT1).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        TabPane inspector = robot.lookup(".inspector").queryAs(TabPane.class);
        robot.interact(() -> inspector.getSelectionModel().select(
                inspector.getTabs().stream().filter(t -> "globalTab".equals(t.getId())).findFirst().orElseThrow()));
        robot.interact(() -> robot.lookup("#globalBuffer").queryAs(ComboBox.class).setValue("out"));
        TableView<GlobalMemoryViewModel.Row> table = robot.lookup("#globalTable").queryAs(TableView.class);
        assertEquals(4, table.getItems().size());
        assertEquals("24512", table.getItems().get(1).value());
        assertTrue(robot.lookup("#globalTitle").queryAs(Label.class).getText().startsWith("out: 4 × .s32"));

        robot.interact(() -> table.getSelectionModel().select(1));
        robot.interact(() -> robot.lookup("#globalGoToWriter").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitForFxEvents();
        long at = w.vm.nowProperty().get();
        assertTrue(at > 0 && at < end, "went back to step " + at);
        assertTrue(robot.lookup("#globalStatus").queryAs(Label.class).getText().contains("out[1] was last written at step " + at),
                robot.lookup("#globalStatus").queryAs(Label.class).getText());
        assertEquals("24512", table.getItems().get(1).value(), "the state right after the write holds it");
    }
}
