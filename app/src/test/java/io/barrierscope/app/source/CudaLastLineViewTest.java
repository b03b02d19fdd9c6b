package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.control.ScrollBar;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A source pane brought to a line near the end of its file shows the file's last line whole,
 * above the pane's horizontal scroll bar (the CUDA pane's long lines need one) or its bottom edge.
 */
@ExtendWith(ApplicationExtension.class)
class CudaLastLineViewTest {
    private TestWindow w;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        w = new TestWindow(stage);
    }

    @Test
    void aLineRevealedNearTheEndLeavesTheLastLineWhollyAboveTheHorizontalScrollBar(FxRobot robot) {
        w.open(robot, "tma-pipeline");
        CodeList cuda = robot.lookup("#cudaArea").queryAs(CodeList.class);
        int n = cuda.lineCount();
        assertTrue(n > 40, "a file longer than the pane: " + n);
        List<String> cut = new ArrayList<>();
        for (boolean presentation : new boolean[] {false, true}) { // two row heights
            robot.interact(() -> w.vm.appearance().presentationProperty().set(presentation));
            WaitForAsyncUtils.waitForFxEvents();
            for (int line = n - 30; line <= n; line++) {
                int l = line;
                robot.interact(() -> cuda.showLineAtCenter(1));
                WaitForAsyncUtils.waitForFxEvents();
                robot.interact(() -> cuda.showLineAtCenter(l));
                WaitForAsyncUtils.waitForFxEvents();
                TestWindow.onFx(() -> {
                    assertTrue(cuda.firstVisibleLine() <= l && l <= cuda.lastVisibleLine(), "line " + l + " in view");
                    if (cuda.lastVisibleLine() < n) return null; // the end is not in view: nothing to cut
                    Bounds last = lastLine(cuda, n);
                    double limit = bottomLimit(cuda);
                    if (last.getMaxY() > limit + 0.5) {
                        cut.add((presentation ? "presentation, " : "") + "line " + l + ": the last line ends at " + last.getMaxY() + ", past " + limit);
                    }
                    return null;
                });
            }
        }
        assertTrue(cut.isEmpty(), String.join("; ", cut));
    }

    private static Bounds lastLine(CodeList pane, int n) {
        for (Node c : pane.lookupAll(".code-line")) {
            if (c instanceof ListCell<?> cell && cell.isVisible() && Integer.valueOf(n).equals(cell.getItem())) {
                return cell.localToScene(cell.getBoundsInLocal());
            }
        }
        throw new AssertionError("the last line has no cell in view");
    }

    /** The top of the visible horizontal scroll bar, else the pane's bottom edge (scene coordinates). */
    private static double bottomLimit(CodeList pane) {
        for (Node s : pane.lookupAll(".scroll-bar")) {
            if (s instanceof ScrollBar b && b.isVisible() && b.getOrientation() == Orientation.HORIZONTAL) {
                return b.localToScene(b.getBoundsInLocal()).getMinY();
            }
        }
        return pane.localToScene(pane.getBoundsInLocal()).getMaxY();
    }
}
