package io.barrierscope.app.classroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import javafx.scene.control.Label;
import javafx.scene.control.MenuBar;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.controlsfx.control.StatusBar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Themes, presentation mode, the help overlay, the glossary tooltips and the status bar. */
@ExtendWith(ApplicationExtension.class)
class ClassroomViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage, "block-reduce");
    }

    @Test
    void helpOverlayListsEveryKeyAndTheTerms(FxRobot robot) {
        robot.type(KeyCode.F1);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#helpOverlay").query().isVisible());
        assertTrue(robot.lookup("Step one warp step").tryQuery().isPresent());
        assertTrue(robot.lookup("F10").tryQuery().isPresent());
        assertTrue(robot.lookup("Presentation mode on/off").tryQuery().isPresent());
        assertTrue(robot.lookup(Glossary.TX_COUNT.sentence()).tryQuery().isPresent());
        assertTrue(robot.lookup("PTX ISA 9.7.13.15.5").tryQuery().isPresent());
        robot.type(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(robot.lookup("#helpOverlay").query().isVisible());
    }

    /** The brightness (0-1) of a region's innermost (last) background fill. */
    private static double brightness(javafx.scene.layout.Region r) {
        var fills = r.getBackground().getFills();
        return ((javafx.scene.paint.Color) fills.get(fills.size() - 1).getFill()).getBrightness();
    }

    @Test
    void darkThemeRecoloursTheControlsAndTheSourceEachTimeItIsSwitched(FxRobot robot) {
        w.open(robot, "block-reduce");
        var table = robot.lookup("#barrierTable").queryAs(javafx.scene.layout.Region.class);
        var lineNo = (javafx.scene.layout.Region) robot.lookup("#sourceArea").query().lookup(".lineno");
        // Twice on and off: the second switch goes through CSS's update of existing styles, not a first match.
        for (int i = 0; i < 2; i++) {
            robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.D).release(KeyCode.SHIFT, KeyCode.CONTROL);
            WaitForAsyncUtils.waitForFxEvents();
            assertTrue(brightness(table) < 0.4, "dark table " + table.getBackground());
            assertTrue(brightness(lineNo) < 0.4, "dark line numbers " + lineNo.getBackground());
            robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.D).release(KeyCode.SHIFT, KeyCode.CONTROL);
            WaitForAsyncUtils.waitForFxEvents();
            assertTrue(brightness(table) > 0.6, "light table " + table.getBackground());
            assertTrue(brightness(lineNo) > 0.6, "light line numbers " + lineNo.getBackground());
        }
    }

    @Test
    void darkThemeAndPresentationModeFromTheKeyboard(FxRobot robot) {
        var root = w.view.root();
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.D).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(root.getPseudoClassStates().contains(javafx.css.PseudoClass.getPseudoClass("dark")));
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(root.getPseudoClassStates().contains(javafx.css.PseudoClass.getPseudoClass("presentation")));
        assertFalse(robot.lookup(".menu-bar").queryAs(MenuBar.class).isVisible(), "presentation hides the menus");
        assertTrue(robot.lookup("#registerTable").tryQuery().isEmpty(), "and the inspector");
        double big = robot.lookup("#sourceArea").query().lookup(".text") == null ? 0
                : ((javafx.scene.text.Text) robot.lookup("#sourceArea").query().lookup(".text")).getFont().getSize();
        assertTrue(big >= 17, "source font " + big); // 17: what leaves 60 columns of code per pane at 1280x800 (PresentationLayoutTest)
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.D).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(root.getPseudoClassStates().contains(javafx.css.PseudoClass.getPseudoClass("dark")));
        assertTrue(robot.lookup(".menu-bar").queryAs(MenuBar.class).isVisible());
        assertTrue(robot.lookup("#registerTable").tryQuery().isPresent());
    }

    @Test
    void barrierColumnsExplainTheirTermsAndTheStatusBarTellsTheState(FxRobot robot) {
        w.open(robot, "block-reduce");
        Label phase = robot.lookup(".column-header .label").match(n -> "Phase".equals(((Label) n).getText())).queryAs(Label.class);
        String tip = phase.getTooltip().getText();
        assertTrue(tip.contains("phase: " + Glossary.PHASE.sentence() + " (PTX ISA 9.7.13.15.4)"), tip);
        assertTrue(tip.contains("generation: "), tip);
        StatusBar status = robot.lookup("#statusBar").queryAs(StatusBar.class);
        robot.type(KeyCode.F10);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(status.getText().contains("executed line"), status.getText());
        assertEquals("paused", robot.lookup("#outcomeLabel").queryAs(Label.class).getText());
        assertTrue(robot.lookup("#positionLabel").queryAs(Label.class).getText().startsWith("CTA (0,0,0) warp 0"));
        assertTrue(status.getLeftItems().contains(robot.lookup("#outcomeLabel").query()));
    }
}
