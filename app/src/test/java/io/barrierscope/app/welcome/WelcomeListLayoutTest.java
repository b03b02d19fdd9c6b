package io.barrierscope.app.welcome;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import java.util.List;
import javafx.scene.control.ListCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The welcome list at the window's usual size shows many samples, one short row each: a cell laid
 * out before it had a width once wrapped its description at a negative width and grew so tall
 * that only two samples showed.
 */
@ExtendWith(ApplicationExtension.class)
class WelcomeListLayoutTest {
    private static final String[] SAMPLES = {"block-reduce", "bulk-copy-pipeline", "cluster-2d-fanout", "cluster-barrier-one-partition",
        "cluster-dsmem-exchange", "cluster-remote-arrive", "cp-async-mbarrier", "cuda-barrier-loop", "double-bar-arrive",
        "expect-tx-too-high", "expect-tx-too-low", "fa3-pingpong", "mbarrier-parity-pipeline", "tma-pipeline"};

    @Start
    void start(Stage stage) {
        TestWindow w = new TestWindow(stage, SAMPLES);
        w.vm.welcome().show();
    }

    @Test
    void theListShowsManySamplesOneShortRowEach(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        List<javafx.scene.Node> filled = robot.lookup(".list-cell").queryAll().stream()
                .filter(n -> n instanceof ListCell<?> c && c.getItem() != null && c.isVisible()).toList();
        assertTrue(filled.size() >= 10, "only " + filled.size() + " samples drawn");
        for (javafx.scene.Node n : filled) {
            ListCell<?> c = (ListCell<?>) n;
            assertTrue(c.getHeight() < 80, c.getItem() + " is " + c.getHeight() + " px tall");
        }
    }
}
