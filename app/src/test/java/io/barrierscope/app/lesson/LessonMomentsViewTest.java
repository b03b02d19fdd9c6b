package io.barrierscope.app.lesson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.debugger.TestWindow;
import io.barrierscope.app.session.BreakpointRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.TabPane;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A lesson's moments in the window: a click sets the breakpoint and stops the run at it, from wherever it is. */
@ExtendWith(ApplicationExtension.class)
class LessonMomentsViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage, "mbarrier-token-wait");
    }

    private static Hyperlink moment(FxRobot robot, String spec) {
        VBox list = robot.lookup("#lessonMoments").queryAs(VBox.class);
        return robot.from(list).lookup(".lesson-moment").queryAllAs(Hyperlink.class).stream()
                .filter(h -> spec.equals(h.getUserData())).findFirst().orElseThrow(() -> new AssertionError("no moment " + spec));
    }

    private List<String> specs() {
        return w.vm.breakpoints().rows().stream().map(BreakpointRow::spec).toList();
    }

    @Test
    void clickingAMomentStopsTheRunAtItsBreakpoint(FxRobot robot) {
        w.open(robot, "mbarrier-token-wait");
        assertEquals("lessonTab", robot.lookup("#panelTabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem().getId());
        VBox content = robot.lookup("#lessonContent").queryAs(VBox.class);
        assertEquals("lessonMoments", content.getChildren().get(1).getId(), "the moments come right under the title");
        assertEquals("▶ 1. A consumer is told \"not yet\"", moment(robot, "wait-false,warp=1").getText());

        // Phase 0 completing: the breakpoint is set and the run stops at its hit.
        robot.clickOn(moment(robot, "mbarrier:bar,phase=0"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of("mbarrier:bar,phase=0"), specs());
        long phase0 = w.vm.nowProperty().get();
        assertTrue(phase0 > 0);
        assertTrue(w.vm.messageProperty().get().startsWith("Breakpoint mbarrier:bar,phase=0 at step " + phase0 + ":"),
                w.vm.messageProperty().get());
        assertTrue(w.vm.messageProperty().get().contains("completed phase 0"));
        assertEquals(1, w.vm.breakpoints().hitProperty().get(), "the panel marks the breakpoint stopped at");
        assertEquals("paused", w.vm.outcomeProperty().get());

        // An earlier moment from here: back to the start, then forward to it (the other breakpoint held off).
        robot.clickOn(moment(robot, "wait-false,warp=1"));
        WaitForAsyncUtils.waitForFxEvents();
        long waitFalse = w.vm.nowProperty().get();
        assertTrue(waitFalse > 0 && waitFalse < phase0, waitFalse + " before " + phase0);
        assertTrue(w.vm.messageProperty().get().startsWith("Breakpoint wait-false,warp=1 at step " + waitFalse), w.vm.messageProperty().get());
        assertEquals(List.of("mbarrier:bar,phase=0", "wait-false,warp=1"), specs());

        // The same moment again: it happens only once here, so the run stays where it was and says so.
        robot.clickOn(moment(robot, "wait-false,warp=1"));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(waitFalse, w.vm.nowProperty().get());
        assertTrue(w.vm.messageProperty().get().startsWith("The moment wait-false,warp=1 does not happen again in this run"),
                w.vm.messageProperty().get());
        assertEquals(List.of("mbarrier:bar,phase=0", "wait-false,warp=1"), specs(), "a moment never sets its breakpoint twice");

        // A moment that recurs: from its hit, the same moment goes on to its next hit.
        robot.interact(() -> w.vm.showMoment("mbarrier:bar"));
        assertEquals(phase0, w.vm.nowProperty().get());
        robot.interact(() -> w.vm.showMoment("mbarrier:bar"));
        assertTrue(w.vm.nowProperty().get() > phase0);
        assertTrue(w.vm.messageProperty().get().contains("completed phase 1"), w.vm.messageProperty().get());

        // A moment link inside the text works the same; the first moment again is its first hit.
        Hyperlink inline = robot.from(content).lookup(".lesson-moment").queryAllAs(Hyperlink.class).stream()
                .filter(h -> "mbarrier:bar,phase=0".equals(h.getUserData()) && h.getParent() != null
                        && !"lessonMoments".equals(h.getParent().getParent().getId()))
                .findFirst().orElseThrow();
        robot.interact(inline::fire);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(phase0, w.vm.nowProperty().get());
    }

    @Test
    void aMomentTheKernelCannotHaveIsGreyedWithTheEnginesMessage(FxRobot robot, @TempDir Path dir) throws Exception {
        Path src = TestFiles.sample("mbarrier-token-wait").getParent();
        for (String f : List.of("kernel.cu", "kernel.ptx", "launch.json", "lesson.md")) Files.copy(src.resolve(f), dir.resolve(f));
        Files.writeString(dir.resolve("lesson.md"), "\n- [No such barrier](break:mbarrier:nosuch) `mbarrier:nosuch`\n",
                java.nio.file.StandardOpenOption.APPEND);
        robot.interact(() -> w.vm.open(dir.resolve("launch.json")));
        WaitForAsyncUtils.waitForFxEvents();

        Hyperlink bad = moment(robot, "mbarrier:nosuch");
        assertTrue(bad.getStyleClass().contains("lesson-moment-refused"));
        assertTrue(bad.getTooltip().getText().contains("the kernel has no shared variable 'nosuch'"), bad.getTooltip().getText());
        TextFlow row = (TextFlow) bad.getParent();
        String rowText = row.getChildren().stream().filter(n -> n instanceof Text).map(n -> ((Text) n).getText()).reduce("", String::concat);
        assertTrue(rowText.contains("not available here: breakpoint 'mbarrier:nosuch': the kernel has no shared variable"), rowText);
        assertTrue(!moment(robot, "mbarrier:bar,phase=0").getStyleClass().contains("lesson-moment-refused"));

        robot.clickOn(bad);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(0, w.vm.nowProperty().get(), "a refused moment does nothing");
        assertTrue(specs().isEmpty());
    }
}
