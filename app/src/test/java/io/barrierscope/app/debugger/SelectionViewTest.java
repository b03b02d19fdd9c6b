package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.diagnostics.DiagnosticsViewModel;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.session.PanelRow;
import io.barrierscope.app.threads.ThreadNode;
import io.barrierscope.app.timeline.TimelineView;
import javafx.geometry.Point2D;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableView;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.matcher.control.LabeledMatchers;
import org.testfx.util.WaitForAsyncUtils;

/** The one selection shown by the real panes (headless): the threads tree, the barriers table, the timeline. */
@ExtendWith(ApplicationExtension.class)
class SelectionViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDiagnosticOpensTheThreadsTreeToItsThreadAndSelectsItsBarriersRow(FxRobot robot) {
        w.open(robot, "double-bar-arrive");
        w.run(robot);
        TableView<DiagnosticsViewModel.Row> diagnostics = robot.lookup("#diagnosticTable").queryAs(TableView.class);
        DiagnosticsViewModel.Row r = diagnostics.getItems().get(0);
        robot.doubleClickOn(robot.lookup("#diagnosticTable .table-cell").match(LabeledMatchers.hasText(r.code())).<javafx.scene.Node>query());
        WaitForAsyncUtils.waitForFxEvents();
        TreeTableView<ThreadNode> tree = threadTree(robot);
        assertEquals(ThreadNode.threadKey(r.slot()), tree.getSelectionModel().getSelectedItem().getValue().key());
        TableView<PanelRow> barriers = robot.lookup("#barrierTable").queryAs(TableView.class);
        assertEquals(r.barrier(), BarrierKey.of(barriers.getSelectionModel().getSelectedItem()));
    }

    @Test
    @SuppressWarnings("unchecked")
    void clickingAThreadRowLeavesTheTreeWhereItIs(FxRobot robot) {
        w.open(robot, "block-reduce");
        robot.interact(w.vm::step);
        robot.interact(() -> w.vm.showPanel(Panel.THREADS));
        TreeTableView<ThreadNode> tree = threadTree(robot);
        robot.interact(() -> tree.scrollTo(9));
        WaitForAsyncUtils.waitForFxEvents();
        var flow = (javafx.scene.control.skin.VirtualFlow<?>) tree.lookup(".virtual-flow");
        int first = flow.getFirstVisibleCell().getIndex();
        int target = first + 2;
        String name = tree.getTreeItem(target).getValue().name();
        robot.clickOn(TestWindow.onFx(() -> flow.getCell(target).localToScreen(110, flow.getCell(target).getHeight() / 2)));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(name, tree.getSelectionModel().getSelectedItem().getValue().name());
        assertEquals(first, flow.getFirstVisibleCell().getIndex(), "the tree did not jump");
    }

    @Test
    @SuppressWarnings("unchecked")
    void clickingATimelineLaneSelectsItsWarpInTheTreeAndMarksTheLane(FxRobot robot) {
        w.open(robot, "named-barrier-too-many");
        w.run(robot);
        TimelineView view = w.view.timelineView();
        var t = view.viewModel();
        int row = t.rowOfLane(t.model().laneOfWarp(1));
        Point2D at = TestWindow.onFx(() -> view.localToScreen(view.getWidth() - 3, view.rowY(row) + view.rowHeight() / 2));
        robot.clickOn(at);
        WaitForAsyncUtils.waitForFxEvents();
        TreeTableView<ThreadNode> tree = threadTree(robot);
        assertEquals("w1", tree.getSelectionModel().getSelectedItem().getValue().key());
        TableView<PanelRow> barriers = robot.lookup("#barrierTable").queryAs(TableView.class);
        assertEquals(new BarrierKey(BarrierKey.Kind.CTA_BARRIER, 0, 1), BarrierKey.of(barriers.getSelectionModel().getSelectedItem()));
        WritableImage shot = TestWindow.onFx(() -> view.snapshot(null, null));
        Color label = shot.getPixelReader().getColor((int) view.labelWidth() - 2, (int) (view.rowY(row) + view.rowHeight() / 2));
        assertEquals(Color.web("#90caf9"), label, "the selected warp's label is marked");
    }

    @Test
    void hiddenLanesGetAScrollbarAndSelectingAWarpScrollsItsLaneIntoView(FxRobot robot) {
        w.open(robot, "block-reduce");
        w.run(robot);
        TimelineView view = w.view.timelineView();
        var t = view.viewModel();
        javafx.scene.control.ScrollBar bar = robot.lookup("#timelineRowsBar").queryAs(javafx.scene.control.ScrollBar.class);
        int shown = t.viewportRowsProperty().get();
        assertTrue(shown < t.rowsProperty().get().size(), "the 1280x800 window hides some of the 16 lanes: " + shown);
        assertTrue(bar.isVisible(), "a scrollbar says some lanes are hidden");
        double lanesEnd = view.labelWidth() + t.viewportWidthProperty().get();
        assertTrue(lanesEnd <= bar.getLayoutX() + 0.5, "the end of the run is not under the scrollbar: lanes end at " + lanesEnd
                + ", the bar starts at " + bar.getLayoutX());
        assertEquals(0, t.firstRowProperty().get());
        robot.interact(() -> w.vm.threads().select(w.vm.threads().node("w13")));
        WaitForAsyncUtils.waitForFxEvents();
        int row = t.rowOfLane(t.model().laneOfWarp(13));
        int first = t.firstRowProperty().get();
        assertTrue(row >= first && row < first + shown, "warp 13's lane scrolled into view");
        assertEquals(first, (int) bar.getValue(), "the scrollbar shows where the lanes are");
        robot.interact(() -> bar.setValue(0));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(0, t.firstRowProperty().get(), "the scrollbar scrolls the lanes");
    }

    @Test
    void theToolbarsFocusChooserFollowsTheSelectionAndPicksAWarp(FxRobot robot) {
        w.open(robot, "block-reduce");
        robot.interact(w.vm::step);
        javafx.scene.control.MenuButton focus = robot.lookup("#focusChooser").queryAs(javafx.scene.control.MenuButton.class);
        robot.interact(() -> w.vm.threads().select(w.vm.threads().node("w13")));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("focus: CTA 3 / warp 1", focus.getText());
        javafx.scene.control.Menu cta1 = (javafx.scene.control.Menu) focus.getItems().get(1);
        assertEquals("CTA (1,0,0)", cta1.getText());
        robot.interact(() -> cta1.getItems().get(2).fire());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("focus: CTA 1 / warp 2", focus.getText());
        TreeTableView<ThreadNode> tree = threadTree(robot);
        assertEquals("w6", tree.getSelectionModel().getSelectedItem().getValue().key());
    }

    /** The threads tree, its tab brought forward first: only the chosen tab's content is in the window. */
    @SuppressWarnings("unchecked")
    private TreeTableView<ThreadNode> threadTree(FxRobot robot) {
        robot.interact(() -> w.vm.showPanel(Panel.THREADS));
        return robot.lookup("#threadTree").queryAs(TreeTableView.class);
    }
}
