package io.barrierscope.app.breakpoints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.Panel;
import io.barrierscope.app.debugger.TestWindow;
import io.barrierscope.app.session.BreakpointRow;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The breakpoint editor in the real window: the chosen kind's fields, and Add sending the spec they make. */
@ExtendWith(ApplicationExtension.class)
class BreakpointFieldsViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    @SuppressWarnings("unchecked")
    void choosingAKindShowsItsFieldsAndAddMakesTheBreakpoint(FxRobot robot) {
        w.open(robot, "block-reduce");
        robot.interact(() -> w.vm.showPanel(Panel.BREAKPOINTS));
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(robot.lookup("#bpField-cta").tryQuery().isPresent(), "spec as typed: no fields");
        robot.interact(() -> robot.lookup("#breakpointKind").queryAs(ComboBox.class).setValue("barrier"));
        robot.interact(() -> {
            robot.lookup("#bpField-id").queryAs(TextField.class).setText("0");
            robot.lookup("#bpField-phase").queryAs(TextField.class).setText("1");
            robot.lookup("#bpField-cta").queryAs(TextField.class).setText("2");
        });
        assertEquals("Add sends: barrier:0,phase=1,cta=2", robot.lookup("#breakpointPreview").queryAs(Label.class).getText());
        assertFalse(robot.lookup("#bpField-var").tryQuery().isPresent(), "an mbarrier's variable is not a CTA barrier's field");
        robot.interact(() -> robot.lookup("#addBreakpoint").queryAs(Button.class).fire());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(1, w.vm.breakpoints().rows().size());
        BreakpointRow r = w.vm.breakpoints().rows().get(0);
        assertEquals("barrier:0,phase=1,cta=2", r.spec());

        robot.interact(() -> robot.lookup("#breakpointKind").queryAs(ComboBox.class).setValue("mbarrier"));
        assertTrue(robot.lookup("#bpField-var").tryQuery().isPresent());
        assertEquals("2", robot.lookup("#bpField-cta").queryAs(TextField.class).getText(), "the CTA typed stays");
    }
}
