package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The main tab pane keeps only the chosen tab's content in the window (docs/performance.md, "Window responsiveness"). */
@ExtendWith(ApplicationExtension.class)
class MainTabsViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    void aHiddenTabHasNoContentInTheWindowAndComesBackShowingThePresentMoment(FxRobot robot) {
        w.open(robot, "block-reduce");
        assertEquals("lessonTab", selected(robot).getId(), "a sample with a lesson opens on it");
        assertTrue(robot.lookup("#lessonContent").tryQuery().isPresent());
        assertFalse(robot.lookup("#threadTree").tryQuery().isPresent());
        for (Tab t : tabs(robot).getTabs()) {
            if (!t.isSelected()) assertNull(t.getContent(), t.getId() + " is hidden: its content is out of the scene graph");
        }
        assertFalse(robot.lookup("#reportText").tryQuery().isPresent());
        assertFalse(robot.lookup("#consoleTable").tryQuery().isPresent());
        assertFalse(robot.lookup("#deadlockHeadline").tryQuery().isPresent());

        // Steps taken while the threads tab is hidden show when it comes back.
        robot.interact(() -> w.vm.showPanel(Panel.CONSOLE));
        assertEquals("consoleTab", selected(robot).getId());
        assertTrue(robot.lookup("#consoleTable").tryQuery().isPresent());
        assertFalse(robot.lookup("#threadTree").tryQuery().isPresent(), "the tab left is taken out");
        assertFalse(robot.lookup("#threadSummary").tryQuery().isPresent());
        for (int i = 0; i < 3; i++) robot.type(KeyCode.F10);
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> w.vm.showPanel(Panel.THREADS));
        assertFalse(robot.lookup("#consoleTable").tryQuery().isPresent());
        Label summary = robot.lookup("#threadSummary").queryAs(Label.class);
        assertFalse(summary.getText().isEmpty());
        assertEquals(w.vm.threads().summaryProperty().get(), summary.getText(), "attached again, it shows the present moment");

        // The run's end brings the report forward, with the run's report in it.
        w.run(robot);
        assertEquals("reportTab", selected(robot).getId());
        assertTrue(robot.lookup("#reportText").queryAs(TextArea.class).getText().contains("completed"));
        assertFalse(robot.lookup("#threadTree").tryQuery().isPresent());
    }

    @Test
    void theRunReportsTextCanBeSelectedWithTheKeysAndCopied(FxRobot robot) {
        w.open(robot, "block-reduce");
        w.run(robot);
        TextArea report = robot.lookup("#reportText").queryAs(TextArea.class);
        assertTrue(report.getText().contains("completed"));
        assertFalse(report.isEditable());
        robot.clickOn(report);
        robot.press(KeyCode.CONTROL).type(KeyCode.A).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(report.getText(), report.getSelectedText(), "Ctrl+A selects the whole report");
        String[] copied = new String[1];
        robot.interact(() -> {
            javafx.scene.input.Clipboard.getSystemClipboard().clear();
            report.copy();
            copied[0] = javafx.scene.input.Clipboard.getSystemClipboard().getString();
        });
        assertEquals(report.getText(), copied[0], "what is copied is the report's text");
    }

    private static TabPane tabs(FxRobot robot) {
        return robot.lookup("#panelTabs").queryAs(TabPane.class);
    }

    private static Tab selected(FxRobot robot) {
        return tabs(robot).getSelectionModel().getSelectedItem();
    }
}
