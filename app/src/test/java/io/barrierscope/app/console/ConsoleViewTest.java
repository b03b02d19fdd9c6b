package io.barrierscope.app.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.debugger.TestWindow;
import io.barrierscope.app.session.ConsoleLine;
import io.barrierscope.app.session.LaunchSettings;
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
import org.testfx.matcher.control.LabeledMatchers;
import org.testfx.util.WaitForAsyncUtils;

/** The Console tab in the real window (headless), on the engine's printf kernel. */
@ExtendWith(ApplicationExtension.class)
class ConsoleViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    private void openAndRun(FxRobot robot, int ctas) {
        robot.interact(() -> w.vm.open(TestFiles.printfPtx(),
                LaunchSettings.parse(Integer.toString(ctas), "32", "", "round-robin", "0")));
        robot.interact(w.vm::run);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    @SuppressWarnings("unchecked")
    void ctrl3ShowsTheConsoleAndStepsBackRemoveLines(FxRobot robot) {
        openAndRun(robot, 4);
        robot.press(KeyCode.CONTROL).type(KeyCode.DIGIT3).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        TabPane tabs = robot.lookup("#panelTabs").queryAs(TabPane.class);
        assertEquals("consoleTab", tabs.getSelectionModel().getSelectedItem().getId());
        assertEquals("Console (5)", tabs.getSelectionModel().getSelectedItem().getText());
        TableView<ConsoleLine> table = robot.lookup("#consoleTable").queryAs(TableView.class);
        assertEquals(5, table.getItems().size());
        assertTrue(robot.lookup(".table-cell").match(LabeledMatchers.hasText("block 3 done")).tryQuery().isPresent());
        assertTrue(robot.lookup(".table-cell").match(LabeledMatchers.hasText("CTA (3,0,0) thread (0,0,0)")).tryQuery().isPresent());

        long lastStep = table.getItems().get(4).step();
        robot.interact(() -> w.vm.seek(lastStep));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(4, table.getItems().size());
        assertTrue(robot.lookup("#consoleSummary").queryAs(Label.class).getText().endsWith("1 more later in the recording"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void clickingALineGoesToItsStepAndSelectsItsThread(FxRobot robot) {
        openAndRun(robot, 4);
        robot.interact(() -> w.vm.showPanel(io.barrierscope.app.debugger.Panel.CONSOLE));
        TableView<ConsoleLine> table = robot.lookup("#consoleTable").queryAs(TableView.class);
        ConsoleLine done1 = table.getItems().stream().filter(l -> l.text().startsWith("block 1 done")).findFirst().orElseThrow();
        robot.clickOn(robot.lookup(".table-cell").match(LabeledMatchers.hasText("block 1 done")).<javafx.scene.Node>query());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(done1.stopStep(), w.vm.nowProperty().get());
        assertTrue(w.vm.registers().titleProperty().get().startsWith("Registers of CTA (1,0,0) thread (0,0,0)"));
    }
}
