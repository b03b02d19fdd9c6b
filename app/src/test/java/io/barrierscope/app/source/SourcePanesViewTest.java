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
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        CodeList cuda = robot.lookup("#cudaArea").queryAs(CodeList.class);
        assertTrue(cuda.text().contains("__syncthreads"));
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
        assertTrue(cuda.lineText(sync).contains("__syncthreads"));
        robot.interact(() -> w.vm.source().clickLine(1)); // unlink, so the next click is what links
        robot.interact(() -> cuda.showLineAtCenter(sync));
        robot.clickOn(lineCentre(cuda, sync));
        WaitForAsyncUtils.waitForFxEvents();
        List<Integer> linked = TestWindow.linesWith(ptx, "linked-line");
        assertFalse(linked.isEmpty());
        assertTrue(linked.stream().anyMatch(l -> ptx.lineText(l).contains("bar.sync")), linked.toString());
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
        assertFalse(robot.lookup("#cudaArea").query().isVisible(), "no text where there is none");
    }

    /**
     * Lines are made anew, or not, as the window moves (the pane scrolls only when the line nears
     * an edge): after each of many steps forward and back and jumps along the run, the current
     * line is the one highlighted line, it is in view, and its gutter shows its number and warps.
     */
    @Test
    void afterManyStepsAndJumpsTheCurrentLineIsTheOnlyHighlightedLineInViewWithItsNumberAndWarps(FxRobot robot) {
        w.open(robot, "block-reduce");
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        CodeList cuda = robot.lookup("#cudaArea").queryAs(CodeList.class);
        robot.type(KeyCode.F5); // to the end: the whole run is recorded, so jumps go anywhere in it
        WaitForAsyncUtils.waitForFxEvents();
        long end = w.vm.nowProperty().get();
        java.util.Set<Integer> seen = new java.util.TreeSet<>();
        for (int i = 0; i < 48; i++) {
            long to = end * ((i * 7) % 12) / 12;
            if (i % 4 == 0) robot.interact(() -> w.vm.seek(to));
            else if (i % 4 == 3) robot.press(KeyCode.SHIFT).type(KeyCode.F10).release(KeyCode.SHIFT);
            else robot.type(KeyCode.F10);
            WaitForAsyncUtils.waitForFxEvents();
            int line = w.vm.source().getCurrentLine();
            int cudaLine = w.vm.cuda().currentLineProperty().get();
            assertEquals(line > 0 ? List.of(line) : List.of(), TestWindow.linesWith(ptx, "current-line"), "step " + i);
            assertEquals(cudaLine > 0 ? List.of(cudaLine) : List.of(), TestWindow.linesWith(cuda, "current-line"), "step " + i);
            if (line <= 0) continue;
            seen.add(line);
            assertTrue(TestWindow.onFx(() -> ptx.firstVisibleLine() <= line
                    && line <= ptx.lastVisibleLine()), "line " + line + " in view at step " + i);
            javafx.scene.Node gutter = TestWindow.gutter(robot, ptx, line);
            assertEquals(Integer.toString(line), robot.from(gutter).lookup(".lineno-number")
                    .queryAs(javafx.scene.text.Text.class).getText().strip());
            assertEquals(w.vm.source().warpBadge(line), robot.from(gutter).lookup(".warp-badge")
                    .queryAs(Label.class).getText());
        }
        assertTrue(seen.size() > 5, "the moves went over several lines: " + seen);
    }

    private static Point2D lineCentre(CodeList area, int line) { return TestWindow.lineText(area, line); }
}
