package io.barrierscope.app.compare;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.timeline.TimelineView;
import io.barrierscope.app.timeline.TimelineViewModel;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javafx.application.Platform;
import javafx.geometry.Orientation;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.ToggleButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The two runs left and right, stacked on a toggle, their timelines zoomed and panned together (headless). */
@ExtendWith(ApplicationExtension.class)
class CompareSideBySideTest {
    private CompareViewModel vm;

    @Start
    void start(Stage stage) {
        vm = new CompareViewModel(task -> {
            Thread t = new Thread(task, "compare-test");
            t.setDaemon(true);
            t.start();
        }, Platform::runLater);
        CompareView view = new CompareView(vm);
        stage.setScene(new Scene((javafx.scene.Parent) view.root(), 1200, 700));
        stage.show();
        Path bug = TestFiles.sample("cluster-barrier-one-partition");
        vm.load(new CompareViewModel.Side("bug", () -> LaunchValidation.validate(bug).start()),
                new CompareViewModel.Side("fix", () -> LaunchValidation.validate(FixedTwin.of(bug).orElseThrow()).start()));
    }

    @BeforeEach
    void loaded() throws TimeoutException {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> vm.timelineBProperty().get() != null);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void theRunsAreSideBySideAndToggleToStacked(FxRobot robot) {
        SplitPane runs = robot.lookup("#compareRuns").queryAs(SplitPane.class);
        assertEquals(Orientation.HORIZONTAL, runs.getOrientation(), "left and right at first");
        assertTrue(runs.getItems().get(0).lookup("#compareATimeline") != null);
        assertTrue(runs.getItems().get(1).lookup("#compareBTimeline") != null);
        robot.clickOn(robot.lookup("#compareLayout").queryAs(ToggleButton.class));
        assertEquals(CompareViewModel.Layout.STACKED, vm.layoutProperty().get());
        assertEquals(Orientation.VERTICAL, runs.getOrientation());
        robot.clickOn(robot.lookup("#compareLayout").queryAs(ToggleButton.class));
        assertEquals(Orientation.HORIZONTAL, runs.getOrientation());
        assertTrue(robot.lookup("#compareATimeline").queryAs(javafx.scene.layout.StackPane.class).getChildren().get(0) instanceof TimelineView,
                "the timelines survive the toggle");
    }

    @Test
    void eachSideShowsThePtxLineAtItsCursor(FxRobot robot) {
        String a = robot.lookup("#compareAPosition").queryAs(Label.class).getText();
        String b = robot.lookup("#compareBPosition").queryAs(Label.class).getText();
        assertTrue(a.matches("warp \\d+ · PTX line \\d+: .+"), a);
        assertTrue(b.matches("warp \\d+ · PTX line \\d+: .+"), b);
        int warp = vm.result().divergence().a().warp();
        assertTrue(a.startsWith("warp " + warp + " · PTX line " + vm.result().divergence().a().line() + ": "),
                "at the divergence A is where the engine says it parts: " + a);
    }

    @Test
    void zoomingOrPanningOneTimelineShowsTheMatchingStretchOfTheOther(FxRobot robot) {
        TimelineViewModel ta = vm.timelineAProperty().get();
        TimelineViewModel tb = vm.timelineBProperty().get();
        RunAlignment al = vm.alignment();
        robot.interact(() -> {
            ta.fitAll();
            ta.zoom(4);
        });
        assertTrue(ta.getEnd() - ta.getStart() < ta.extent() / 2, "zoomed in");
        assertEquals(al.toB(ta.getStart()), tb.getStart(), 1e-6);
        assertEquals(al.toB(ta.getEnd()), tb.getEnd(), 1e-6);
        robot.interact(() -> ta.panBy(0.3));
        assertEquals(al.toB(ta.getStart()), tb.getStart(), 1e-6);
        assertEquals(al.toB(ta.getEnd()), tb.getEnd(), 1e-6);
        robot.interact(() -> tb.zoom(2));
        assertEquals(al.toA(tb.getStart()), ta.getStart(), 1e-6, "B leads A the same way");
        assertEquals(al.toA(tb.getEnd()), ta.getEnd(), 1e-6);
    }
}
