package io.barrierscope.app.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import javafx.geometry.Point2D;
import javafx.geometry.VerticalDirection;
import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The timeline view in a real (headless) stage over a real recording. */
@ExtendWith(ApplicationExtension.class)
class TimelineViewTest {
    private TimelineView view;
    private TimelineViewModel vm;
    private final List<Long> seeks = new CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) {
        vm = new TimelineViewModel(new Recorded("bulk-copy-pipeline").model);
        vm.onSeekProperty().set(seeks::add);
        view = new TimelineView(vm);
        stage.setScene(new Scene(view, 1000, 420));
        stage.show();
    }

    private static <T> T fx(Supplier<T> s) {
        AtomicReference<T> out = new AtomicReference<>();
        WaitForAsyncUtils.asyncFx(() -> out.set(s.get()));
        WaitForAsyncUtils.waitForFxEvents();
        return out.get();
    }

    private Point2D screen(double laneX, int row) {
        return fx(() -> view.localToScreen(TimelineView.LABEL_W + laneX, view.rowY(row) + TimelineView.ROW_H / 2));
    }

    @Test
    void clickingALaneSeeksToTheStepUnderThePointer(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        int row = 1;
        // a pixel over a plain span of state (no event within the hit slop)
        double x = fx(() -> {
            for (double cand = 200.5; cand < 800; cand += 7) {
                TimelineHit h = vm.hitAt(cand, row);
                if (h != null && !h.event()) return cand;
            }
            return -1.0;
        });
        assertTrue(x > 0);
        // The robot lands on a whole screen pixel: the step under the pointer is the one where the click arrived.
        double[] clickedAt = {Double.NaN};
        robot.interact(() -> view.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_CLICKED,
                e -> clickedAt[0] = e.getX() - TimelineView.LABEL_W));
        robot.clickOn(screen(x, row));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(x, clickedAt[0], 1.0, "the click arrived where it was aimed");
        long expected = fx(() -> vm.stepAt(clickedAt[0]));
        assertEquals(List.of(expected), seeks);
        assertEquals(expected, fx(() -> vm.selectedProperty().get().seekStep()));
        assertEquals(row, fx(() -> vm.rowOfLane(vm.selectedProperty().get().lane())));
    }

    @Test
    void ctrlWheelZoomsAroundThePointerAndDoubleClickFits(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        double span = fx(() -> vm.getEnd() - vm.getStart());
        double x = 300;
        double pivot = fx(() -> vm.axisAt(x));
        robot.moveTo(screen(x, 2));
        // TestFX's glass robot under Monocle reports DOWN as a positive deltaY, the "wheel away from you" of a desktop
        robot.press(KeyCode.CONTROL);
        robot.scroll(3, VerticalDirection.DOWN);
        robot.release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        double zoomed = fx(() -> vm.getEnd() - vm.getStart());
        assertTrue(zoomed < span / 1.5, "range shrank from " + span + " to " + zoomed);
        assertEquals(pivot, fx(() -> vm.axisAt(x)), 1e-6);
        // keys: Home goes to the start keeping the zoom, + zooms further, double-click shows everything
        robot.clickOn(screen(x, 0)).type(KeyCode.HOME);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(0, fx(vm::getStart));
        robot.type(KeyCode.EQUALS);
        assertTrue(fx(() -> vm.getEnd() - vm.getStart()) < zoomed);
        robot.doubleClickOn(screen(x, 0));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(span, fx(() -> vm.getEnd() - vm.getStart()), 1e-9);
    }

    @Test
    void draggingPansAndTheScrubberSeeks(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            vm.zoom(4);
            vm.goToStep((long) (vm.extent() / 2));
            return null;
        });
        double start = fx(vm::getStart);
        robot.drag(screen(400, 1)).moveBy(100, 0).release(javafx.scene.input.MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(fx(vm::getStart) < start, "dragging right shows earlier steps");
        seeks.clear();
        Point2D scrub = fx(() -> view.localToScreen(TimelineView.LABEL_W + vm.viewportWidthProperty().get() / 2,
                TimelineView.RULER_H + TimelineView.SCRUB_H / 2));
        robot.clickOn(scrub);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(!seeks.isEmpty());
        assertEquals(fx(() -> vm.extent()) / 2, seeks.get(0), fx(() -> vm.extent()) / 50);
    }
    @Test
    void thePlainWheelScrollsTheLanesWithoutZooming(FxRobot robot) {
        // 16 warps in one CTA: more lanes than the view shows
        // A short window of its own (TestFX hands every test the same primary stage: resizing it would last).
        Stage small = fx(Stage::new);
        robot.interact(() -> {
            vm = new TimelineViewModel(new Recorded("syncthreads-partial-block").model);
            view = new TimelineView(vm);
            small.setScene(new Scene(view, 1000, 160));
            small.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        double span = fx(() -> vm.getEnd() - vm.getStart());
        assertTrue(fx(() -> vm.rowsProperty().get().size() > view.visibleRows()),
                "some lanes are hidden: " + fx(() -> vm.rowsProperty().get().size() + " rows, " + view.visibleRows() + " shown"));
        robot.moveTo(screen(300, 0));
        robot.scroll(1, VerticalDirection.UP); // towards you: further down the lanes
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(fx(() -> vm.firstRowProperty().get()) > 0, "the lanes scrolled");
        assertEquals(span, fx(() -> vm.getEnd() - vm.getStart()), 1e-9, "and did not zoom");
        robot.interact(small::close);
    }

    @Test
    void wsadZoomAndPanAndFitAllShowsEverything(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        double span = fx(() -> vm.getEnd() - vm.getStart());
        robot.clickOn(screen(300, 0));
        robot.type(KeyCode.W);
        double zoomed = fx(() -> vm.getEnd() - vm.getStart());
        assertEquals(span / 1.5, zoomed, 1e-6);
        robot.type(KeyCode.D);
        double start = fx(vm::getStart);
        assertTrue(start > 0, "D pans right");
        robot.type(KeyCode.A);
        assertTrue(fx(vm::getStart) < start, "A pans left");
        robot.type(KeyCode.S);
        assertEquals(span, fx(() -> vm.getEnd() - vm.getStart()), 1e-6, "S zooms out");
        robot.type(KeyCode.W).type(KeyCode.W);
        robot.clickOn("#timelineFitAll");
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(span, fx(() -> vm.getEnd() - vm.getStart()), 1e-9);
    }

    @Test
    void theHoverFollowsAZoomUnderAStillPointer(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        double x = 420;
        int row = 1;
        robot.moveTo(screen(x, row));
        WaitForAsyncUtils.waitForFxEvents();
        long stepBefore = fx(() -> vm.hitAt(x, row)).step();
        fx(() -> {
            vm.zoomAt(0, 8); // around the lanes' left edge: the pointer's step moves
            return null;
        });
        TimelineHit now = fx(() -> vm.hoveredProperty().get());
        assertEquals(fx(() -> vm.hitAt(x, row)), now, "the hover is what is under the pointer after the zoom");
        assertTrue(now != null && now.step() != stepBefore, "zooming brought another step under the pointer: " + now);
        if (now != null) assertEquals(now.description(), fx(() -> view.tooltip().getText()));
    }
}
