package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The window harnesses' clock ({@link FrameProbe}) against actions of known cost, in a small
 * window: it must not measure less than an input's handler blocks the FX thread, must wait for the
 * pulse after a result that comes later, and must time a visible change to its rendered frame.
 * Lower bounds only: the machine's load may add any amount.
 */
@ExtendWith(ApplicationExtension.class)
class FrameProbeTest {
    private static final long BLOCK_MS = 80;
    private Label label; // made in start(): controls need the toolkit
    private FrameProbe probe;
    private int clicks; // FX thread only

    @Start
    void start(Stage stage) {
        label = new Label("before");
        StackPane root = new StackPane(label);
        Scene scene = new Scene(root, 300, 200);
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            switch (e.getCode()) {
                case F23 -> sleep(BLOCK_MS);
                case F1 -> label.setText(e.isShiftDown() ? "shift" : "after");
                case F2 -> new Thread(() -> {
                    sleep(BLOCK_MS);
                    Platform.runLater(() -> label.setText("later"));
                }).start();
                default -> { }
            }
        });
        root.addEventHandler(MouseEvent.MOUSE_CLICKED, e -> {
            if (e.isStillSincePress()) clicks++;
        });
        stage.setScene(scene);
        stage.show();
        probe = new FrameProbe(scene);
    }

    @AfterEach
    void stop(FxRobot robot) {
        robot.interact(probe::close);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void anInputWhoseHandlerBlocksTheFxThreadMeasuresAtLeastTheBlock() throws Exception {
        FrameProbe.Timing t = probe.measure(() -> probe.key(KeyCode.F23), () -> true, 60);
        assertTrue(t.pulseMs() >= BLOCK_MS, "result pulse " + t.pulseMs() + " ms after the input");
        assertTrue(t.paintedMs() >= BLOCK_MS, "painted " + t.paintedMs() + " ms after the input");
        assertTrue(t.longestGapMs() >= BLOCK_MS, "longest pulse gap " + t.longestGapMs() + " ms");
    }

    @Test
    void aResultThatComesLaterIsTakenAtAPulseAfterIt() throws Exception {
        FrameProbe.Timing t = probe.measure(() -> probe.key(KeyCode.F2), () -> label.getText().equals("later"), 60);
        assertTrue(t.pulseMs() >= BLOCK_MS, "result pulse " + t.pulseMs() + " ms after the input");
        assertTrue(t.repainted(), "the new text is painted");
    }

    @Test
    void aVisibleChangeIsTimedToTheRenderingOfItsFrame() throws Exception {
        FrameProbe.Timing t = probe.measure(() -> probe.key(KeyCode.F1, KeyCode.SHIFT), () -> label.getText().equals("shift"), 60);
        assertTrue(t.repainted(), "the new text makes a frame");
        assertTrue(t.queuedMs() >= 0 && t.pulseMs() >= 0, t.toString());
        assertTrue(t.pulseMs() <= t.laidOutMs() && t.laidOutMs() <= t.paintedMs(), t.toString());
        assertEquals(t.dispatchedAt() + Math.round(t.paintedMs() * 1e6), t.paintedAt(), 1.0);
    }

    @Test
    void anInputWithNothingToShowIsDoneAtThePulseThatFindsNothingToRepaint() throws Exception {
        probe.measure(() -> probe.key(KeyCode.F1), () -> label.getText().equals("after"), 60); // any earlier frame done
        FrameProbe.Timing t = probe.measure(() -> probe.key(KeyCode.F24), () -> true, 60);
        assertFalse(t.repainted(), "nothing changed: " + t);
        assertTrue(t.pulseMs() <= t.laidOutMs() && t.laidOutMs() <= t.paintedMs(), t.toString());
    }

    @Test
    void aClickIsDeliveredAsPressReleaseAndClickOnTheNode(FxRobot robot) throws Exception {
        StackPane root = FrameProbe.fx(() -> (StackPane) label.getParent());
        probe.measure(() -> probe.click(root, 10, 10), () -> clicks == 1, 60);
        assertEquals(1, FrameProbe.fx(() -> clicks));
    }
}
