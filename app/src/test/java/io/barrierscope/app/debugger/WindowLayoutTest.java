package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.PanelRow;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The window's default layout at 1280x800 (the size the app opens at), headless. */
@ExtendWith(ApplicationExtension.class)
class WindowLayoutTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    @SuppressWarnings("unchecked")
    void at1280x800TheBarrierColumnsGetTheirWidthAndTheToolbarItsButtons(FxRobot robot) {
        w.open(robot, "mbarrier-parity-pipeline");
        w.run(robot);
        TableView<PanelRow> table = robot.lookup("#barrierTable").queryAs(TableView.class);
        for (TableColumn<PanelRow, ?> c : table.getColumns()) {
            String name = c.getGraphic() instanceof Label l ? l.getText() : c.getText();
            assertTrue(c.getWidth() >= c.getPrefWidth() - 0.5, "column " + name + " at " + c.getWidth() + " of " + c.getPrefWidth());
        }
        for (Node n : robot.from(table).lookup(".column-header .label").queryAll()) {
            Label l = (Label) n;
            assertTrue(l.getWidth() >= l.prefWidth(-1) - 0.5, "header " + (l.getGraphic() instanceof Label g ? g.getText() : l.getText()) + " cut to " + l.getWidth() + " of " + l.prefWidth(-1));
        }
        javafx.scene.control.MenuButton focus = robot.lookup("#focusChooser").queryAs(javafx.scene.control.MenuButton.class);
        assertTrue(focus.getText().startsWith("focus: warp "), focus.getText());
        assertTrue(focus.getScene() != null && focus.getWidth() >= focus.prefWidth(-1) - 0.5, "the focus chooser is cut to " + focus.getWidth());
        for (Node n : robot.lookup("#mainToolBar .button").queryAll()) {
            Button b = (Button) n;
            if (b.isVisible() && b.getScene() != null) {
                assertTrue(b.getWidth() >= b.prefWidth(-1) - 0.5, b.getText() + " is cut to " + b.getWidth());
            }
        }
    }

    @Test
    void theStatusBarSaysThePolicyInFull(FxRobot robot) {
        w.open(robot, "block-reduce");
        robot.interact(() -> {
            w.vm.policyProperty().set("random");
            w.vm.seedProperty().set("7");
            w.vm.rerun();
        });
        WaitForAsyncUtils.waitForFxEvents();
        Label policy = robot.lookup("#policyLabel").queryAs(Label.class);
        assertEquals("policy random · seed 7", policy.getText());
        Bounds b = policy.localToScene(policy.getBoundsInLocal());
        assertTrue(b.getMaxX() <= w.scene.getWidth() && b.getWidth() >= policy.prefWidth(-1) - 0.5, b.toString());
    }
}
