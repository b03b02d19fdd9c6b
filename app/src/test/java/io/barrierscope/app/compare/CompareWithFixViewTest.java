package io.barrierscope.app.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** "Compare with the fix" where the window offers it: the welcome cards, the Samples menu and the File menu. */
@ExtendWith(ApplicationExtension.class)
class CompareWithFixViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage, "block-reduce", "cluster-barrier-one-partition", "cluster-barrier-one-partition-fixed");
        w.vm.welcome().show();
    }

    @AfterEach
    void closeCompareWindows(FxRobot robot) {
        robot.interact(() -> List.copyOf(Window.getWindows()).stream().filter(x -> x instanceof Stage s && s.getTitle() != null
                && s.getTitle().startsWith("Compare")).forEach(Window::hide));
    }

    private static boolean compareWindowOpen() {
        return Window.getWindows().stream().anyMatch(x -> x instanceof Stage s && s.getTitle() != null
                && s.getTitle().equals("Compare: cluster-barrier-one-partition ↔ cluster-barrier-one-partition-fixed"));
    }

    @Test
    void onlyTheBugSampleCardHasTheButtonAndItOpensTheComparisonNotTheSample(FxRobot robot) throws TimeoutException {
        List<Node> visible = robot.lookup(".sample-compare").queryAll().stream().filter(Node::isVisible).toList();
        assertEquals(1, visible.size(), "block-reduce and the fix itself have no fix to compare with");
        robot.clickOn((Button) visible.get(0));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, CompareWithFixViewTest::compareWindowOpen);
        assertTrue(robot.lookup("#welcome").query().isVisible(), "the click did not open the sample");
    }

    @Test
    void theSamplesMenuListsTheBugSamplesAndTheFileMenuFollowsTheOpenSample(FxRobot robot) {
        MenuBar bar = robot.lookup(".menu-bar").queryAs(MenuBar.class);
        Menu samples = bar.getMenus().stream().filter(m -> m.getText().equals("Samples")).findFirst().orElseThrow();
        Menu compare = (Menu) samples.getItems().stream().filter(i -> "Compare with the fix".equals(i.getText())).findFirst().orElseThrow();
        assertEquals(List.of("cluster-barrier-one-partition"), compare.getItems().stream().map(MenuItem::getText).toList());

        MenuItem file = bar.getMenus().get(0).getItems().stream().filter(i -> "compareWithFixMenu".equals(i.getId())).findFirst().orElseThrow();
        w.open(robot, "block-reduce");
        assertTrue(file.isDisable());
        w.open(robot, "cluster-barrier-one-partition");
        assertFalse(file.isDisable());
        robot.interact(file::fire);
        assertTrue(compareWindowOpen());
    }
}
