package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.welcome.SampleCatalog;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import io.barrierscope.app.source.CodeList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The real window, headless through Monocle, on the real engine with its worker thread. */
@ExtendWith(ApplicationExtension.class)
class DebuggerViewTest {
    private DebuggerViewModel vm;

    @Start
    void start(Stage stage) {
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(Platform::runLater, l));
        DebuggerView view = new DebuggerView(vm, SampleCatalog.read(List.of(TestFiles.sample("block-reduce"))));
        Scene scene = new Scene(view.root(), 1100, 700);
        view.installShortcuts(scene);
        stage.titleProperty().bind(vm.titleProperty());
        stage.setScene(scene);
        stage.show();
        vm.open(TestFiles.sample("block-reduce"));
    }

    @AfterEach
    void close() {
        vm.close();
    }

    private static String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    private static void waitUntil(BooleanSupplier condition) throws TimeoutException {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, condition::getAsBoolean);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void theTimelineExportsAreFileCommandsListedInTheHelp(FxRobot robot) throws TimeoutException {
        waitUntil(() -> vm.timelineProperty().get() != null);
        robot.type(KeyCode.F1);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("Export the timeline as PNG…").tryQuery().isPresent());
        assertTrue(robot.lookup("Export the timeline as SVG…").tryQuery().isPresent());
        robot.type(KeyCode.F1);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void opensTheSampleStepsAndRunsToCompletion(FxRobot robot) throws TimeoutException {
        waitUntil(() -> "ready".equals(text(robot, "#outcomeLabel")));
        CodeList code = robot.lookup("#sourceArea").queryAs(CodeList.class);
        assertTrue(code.text().contains("bar.sync"));
        assertEquals("block-reduce/launch.json — BarrierScope", ((Stage) robot.window(0)).getTitle());
        String lineBefore = text(robot, "#positionLabel");

        robot.clickOn("#stepButton");
        waitUntil(() -> text(robot, "#stepsLabel").startsWith("step 1 "));
        assertEquals("paused", text(robot, "#outcomeLabel"));
        assertNotEquals(lineBefore, text(robot, "#positionLabel"));
        int line = vm.source().getCurrentLine();
        assertTrue(TestWindow.styles(code, line).contains("current-line"));

        robot.clickOn("#runButton");
        waitUntil(() -> "completed".equals(text(robot, "#outcomeLabel")));
        assertEquals("0 diagnostics", text(robot, "#diagnosticsLabel"));
        assertTrue(robot.lookup("#reportText").queryAs(TextArea.class).getText().contains("completed"));
        assertEquals(4, robot.lookup("#barrierTable").queryAs(TableView.class).getItems().size());
        assertTrue(robot.lookup("#stepButton").query().isDisabled());
    }

    @Test
    void aTimelineClickSelectsItsWarpOnceTheWorkerHasGoneToItsStep(FxRobot robot) throws TimeoutException {
        waitUntil(() -> "ready".equals(text(robot, "#outcomeLabel")));
        robot.clickOn("#runButton");
        waitUntil(() -> "completed".equals(text(robot, "#outcomeLabel")));
        var t = vm.timelineProperty().get();
        int row = t.rowOfLane(t.model().laneOfWarp(5));
        long[] step = new long[1];
        robot.interact(() -> {
            double x = t.viewportWidthProperty().get() / 3;
            step[0] = t.hitAt(x, row).seekStep();
            t.click(x, row);
        });
        waitUntil(() -> vm.nowProperty().get() == step[0] && !vm.source().linkedLinesProperty().get().isEmpty());
        assertEquals("w5", vm.threads().selectedKeyProperty().get());
        var w5 = vm.threads().node("w5");
        assertEquals(java.util.Set.of(w5.ptxLine()), vm.source().linkedLinesProperty().get(), "its line at that step");
        assertEquals(5, t.selectedWarpProperty().get());
        assertTrue(vm.registers().titleProperty().get().startsWith("Registers of CTA (1,0,0) thread (32,"),
                vm.registers().titleProperty().get());
    }

    @Test
    void keyboardStepsRunsAndResets(FxRobot robot) throws TimeoutException {
        waitUntil(() -> "ready".equals(text(robot, "#outcomeLabel")));
        robot.type(KeyCode.F10);
        waitUntil(() -> text(robot, "#stepsLabel").startsWith("step 1 "));
        robot.type(KeyCode.F5);
        waitUntil(() -> "completed".equals(text(robot, "#outcomeLabel")));
        robot.press(KeyCode.CONTROL).type(KeyCode.R).release(KeyCode.CONTROL);
        waitUntil(() -> "ready".equals(text(robot, "#outcomeLabel")));
        assertEquals("step 0 of 1291 (end) · 0 cycles", text(robot, "#stepsLabel"));
        assertEquals("", robot.lookup("#reportText").queryAs(TextArea.class).getText(), "report cleared by reset");
    }
}
