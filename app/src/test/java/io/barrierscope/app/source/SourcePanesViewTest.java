package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.debugger.TestWindow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.geometry.Point2D;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.fxmisc.richtext.CodeArea;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The PTX and CUDA panes side by side: the followed line in both, and clicks linking them. */
@ExtendWith(ApplicationExtension.class)
class SourcePanesViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    void theCudaPaneFollowsTheWarpAndClicksLinkThePanes(FxRobot robot) {
        w.open(robot, "block-reduce");
        CodeArea ptx = robot.lookup("#sourceArea").queryAs(CodeArea.class);
        CodeArea cuda = robot.lookup("#cudaArea").queryAs(CodeArea.class);
        assertTrue(cuda.getText().contains("__syncthreads"));
        robot.type(KeyCode.F10).type(KeyCode.F10);
        WaitForAsyncUtils.waitForFxEvents();
        int cudaLine = w.vm.cuda().currentLineProperty().get();
        assertEquals(List.of(cudaLine), TestWindow.linesWith(cuda, "current-line"));
        assertTrue(robot.lookup("#cudaFocusNote").queryAs(Label.class).getText().startsWith("followed warp: kernel.cu:"));

        // Click the PTX line of the followed warp: the CUDA line it came from lights up.
        int ptxLine = w.vm.source().getCurrentLine();
        robot.clickOn(lineCentre(ptx, ptxLine));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of(ptxLine), TestWindow.linesWith(ptx, "linked-line"));
        assertEquals(List.of(w.vm.cuda().linkedLinesProperty().get().iterator().next()),
                TestWindow.linesWith(cuda, "linked-line"));

        // Click the CUDA line a bar.sync came from (a __syncthreads()): that bar.sync lights up.
        int bar = w.vm.source().getLines().indexOf(w.vm.source().getLines().stream()
                .filter(l -> l.contains("bar.sync")).findFirst().orElseThrow()) + 1;
        robot.interact(() -> w.vm.source().clickLine(bar));
        int sync = w.vm.cuda().linkedLinesProperty().get().iterator().next();
        assertTrue(cuda.getParagraph(sync - 1).getText().contains("__syncthreads"));
        robot.interact(() -> w.vm.source().clickLine(1)); // unlink, so the next click is what links
        robot.interact(() -> cuda.showParagraphAtCenter(sync - 1));
        robot.clickOn(lineCentre(cuda, sync));
        WaitForAsyncUtils.waitForFxEvents();
        List<Integer> linked = TestWindow.linesWith(ptx, "linked-line");
        assertFalse(linked.isEmpty());
        assertTrue(linked.stream().anyMatch(l -> ptx.getParagraph(l - 1).getText().contains("bar.sync")), linked.toString());
    }

    @Test
    void aMissingCudaFileIsSaidInThePane(FxRobot robot, @TempDir Path dir) throws Exception {
        Path src = TestFiles.sample("block-reduce").getParent();
        Files.copy(src.resolve("kernel.ptx"), dir.resolve("kernel.ptx"));
        Files.copy(src.resolve("launch.json"), dir.resolve("launch.json"));
        robot.interact(() -> w.vm.open(dir.resolve("launch.json")));
        WaitForAsyncUtils.waitForFxEvents();
        Label message = robot.lookup("#cudaMessage").queryAs(Label.class);
        assertTrue(message.isVisible());
        assertTrue(message.getText().startsWith("kernel.cu is not available: not found"), message.getText());
        assertFalse(robot.lookup("#cudaArea").query().getParent().isVisible(), "no text where there is none");
    }

    private static Point2D lineCentre(CodeArea area, int line) { return TestWindow.lineText(area, line); }
}
