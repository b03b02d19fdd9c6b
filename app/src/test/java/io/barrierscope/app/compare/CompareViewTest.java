package io.barrierscope.app.compare;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.timeline.TimelineView;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The compare window headless: a bug sample and its fix, the runs made on a thread of their own as in the app. */
@ExtendWith(ApplicationExtension.class)
class CompareViewTest {
    private CompareViewModel vm;

    @Start
    void start(Stage stage) {
        vm = new CompareViewModel(task -> {
            Thread t = new Thread(task, "compare-test");
            t.setDaemon(true);
            t.start();
        }, Platform::runLater);
        CompareView view = new CompareView(vm);
        stage.setScene(new Scene((javafx.scene.Parent) view.root(), 1000, 700));
        stage.show();
        Path bug = TestFiles.sample("cluster-barrier-one-partition");
        Path fix = FixedTwin.of(bug).orElseThrow();
        vm.load(new CompareViewModel.Side("bug", () -> LaunchValidation.validate(bug).start()), new CompareViewModel.Side("fix", () -> LaunchValidation.validate(fix).start()));
    }

    private static String text(FxRobot robot, String id) { return robot.lookup(id).queryAs(Label.class).getText(); }

    @Test
    void bothTimelinesTheDifferencesAndOneCursor(FxRobot robot) throws TimeoutException {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> vm.timelineBProperty().get() != null);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#compareATimeline").queryAs(StackPane.class).getChildren().get(0) instanceof TimelineView);
        assertTrue(robot.lookup("#compareBTimeline").queryAs(StackPane.class).getChildren().get(0) instanceof TimelineView);
        long div = vm.divergenceProperty().get();
        assertTrue(div >= 0);
        assertEquals("bug · step " + div, text(robot, "#compareALabel"), "the cursor starts where the runs part");
        assertTrue(text(robot, "#compareStatus").startsWith("The runs part at step " + div), text(robot, "#compareStatus"));
        ListView<?> diffs = robot.lookup("#compareDifferences").queryAs(ListView.class);
        assertTrue(diffs.getItems().get(0).toString().startsWith("First divergence at step " + div));

        // a seek in A's timeline (its scrubber, half way) moves B's cursor to the matching step
        robot.interact(() -> vm.timelineAProperty().get().scrub(vm.timelineAProperty().get().viewportWidthProperty().get() / 2));
        long a = vm.cursorAProperty().get();
        assertFalse(a == div && vm.alignment().toB(a) == div, "moved");
        assertEquals("fix · step " + vm.alignment().toB(a), text(robot, "#compareBLabel"));
        assertEquals(vm.alignment().toB(a), vm.timelineBProperty().get().positionProperty().get());

        robot.clickOn(robot.lookup("#compareGoToDivergence").queryAs(Button.class));
        assertEquals(div, vm.cursorAProperty().get());
        assertEquals(div, vm.cursorBProperty().get());
    }
}
