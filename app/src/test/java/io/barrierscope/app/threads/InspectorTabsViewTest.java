package io.barrierscope.app.threads;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The inspector keeps only the chosen tab's content in the window (docs/performance.md, "Window responsiveness"). */
@ExtendWith(ApplicationExtension.class)
class InspectorTabsViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    void onlyTheChosenTabIsInTheWindowAndAChosenTabShowsThePresentMoment(FxRobot robot) {
        w.open(robot, "block-reduce");
        w.run(robot);
        robot.interact(() -> w.vm.showPanel(io.barrierscope.app.debugger.Panel.THREADS)); // the run's end showed the report
        assertTrue(robot.lookup("#registerTable").tryQuery().isPresent());
        assertFalse(robot.lookup("#sharedTable").tryQuery().isPresent(), "a hidden tab's table is not in the scene graph");
        assertFalse(robot.lookup("#globalTable").tryQuery().isPresent());

        choose(robot, "globalTab");
        assertFalse(robot.lookup("#registerTable").tryQuery().isPresent(), "the tab left is taken out");
        TableView<?> global = robot.lookup("#globalTable").queryAs(TableView.class);
        assertFalse(global.getItems().isEmpty(), "attached again, it shows the run's values");

        choose(robot, "registersTab");
        assertTrue(robot.lookup("#registerTable").tryQuery().isPresent());
        assertFalse(robot.lookup("#globalTable").tryQuery().isPresent());
    }

    private static void choose(FxRobot robot, String tab) {
        TabPane inspector = robot.lookup(".inspector").queryAs(TabPane.class);
        robot.interact(() -> inspector.getSelectionModel().select(
                inspector.getTabs().stream().filter(t -> tab.equals(t.getId())).findFirst().orElseThrow()));
        WaitForAsyncUtils.waitForFxEvents();
    }
}
