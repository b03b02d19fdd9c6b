package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.session.MbarrierRow;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Control;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableView;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The thread tree's and the barrier table's rows have one fixed height, their own, in both font sizes. */
@ExtendWith(ApplicationExtension.class)
class FixedRowsViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    /** A few pulses: a new row height is fixed after the layout that shows it, and laid out at the next. */
    private static void settle() {
        for (int i = 0; i < 4; i++) {
            WaitForAsyncUtils.sleep(40, java.util.concurrent.TimeUnit.MILLISECONDS);
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    /** The rows in view that show an item. */
    private static List<IndexedCell<?>> rows(Control table) {
        return TestWindow.onFx(() -> {
            VirtualFlow<?> flow = (VirtualFlow<?>) table.lookup(".virtual-flow");
            List<IndexedCell<?>> out = new java.util.ArrayList<>();
            if (flow.getFirstVisibleCell() == null) return out;
            for (int i = flow.getFirstVisibleCell().getIndex(); i <= flow.getLastVisibleCell().getIndex(); i++) {
                IndexedCell<?> r = flow.getVisibleCell(i);
                if (r != null && !r.isEmpty()) out.add(r);
            }
            return out;
        });
    }

    /** The tallest a row's cells ask to be. */
    private static double tallestCell(IndexedCell<?> row) {
        return TestWindow.onFx(() -> {
            double h = 0;
            for (Node n : row.getChildrenUnmodifiable()) if (n instanceof IndexedCell<?> c && c.isVisible()) h = Math.max(h, c.prefHeight(-1));
            return h;
        });
    }

    /** Opens {@code sample}, runs it to its end and shows the Threads panel, laid out. */
    private void runOnTheThreadsPanel(FxRobot robot, String sample) {
        w.open(robot, sample);
        w.run(robot);
        robot.interact(() -> w.vm.showPanel(Panel.THREADS));
        settle();
    }

    /** Every row in view is {@code fixed} high and no cell in it asks for more. */
    private static void rowsAre(Control table, double fixed) {
        List<IndexedCell<?>> rows = rows(table);
        assertFalse(rows.isEmpty());
        for (IndexedCell<?> r : rows) {
            assertEquals(fixed, r.getHeight(), 0.01, "row " + r.getIndex() + " of " + table.getId());
            assertTrue(tallestCell(r) <= fixed + 0.01, "row " + r.getIndex() + " of " + table.getId() + " cut: " + tallestCell(r) + " > " + fixed);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void threadAndBarrierRowsHaveOneFixedHeightThatFollowsPresentationMode(FxRobot robot) {
        runOnTheThreadsPanel(robot, "cluster-barrier-one-partition");
        TreeTableView<?> tree = robot.lookup("#threadTree").queryAs(TreeTableView.class);
        TableView<?> barriers = robot.lookup("#barrierTable").queryAs(TableView.class);
        double treeRow = tree.getFixedCellSize();
        double barrierRow = barriers.getFixedCellSize();
        assertTrue(treeRow > 0, "tree rows not fixed: " + treeRow);
        assertTrue(barrierRow > 0, "barrier rows not fixed: " + barrierRow + " " + barriers.getItems() + " "
                + rows(barriers).stream().map(r -> r.getHeight() + "/" + tallestCell(r)).toList());
        rowsAre(tree, treeRow);
        rowsAre(barriers, barrierRow);

        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        settle();
        assertTrue(tree.getFixedCellSize() > treeRow, "presentation mode's font, tree rows " + tree.getFixedCellSize());
        assertTrue(barriers.getFixedCellSize() > barrierRow, "presentation mode's gauges, barrier rows " + barriers.getFixedCellSize());
        rowsAre(tree, tree.getFixedCellSize());
        rowsAre(barriers, barriers.getFixedCellSize());

        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        settle();
        assertEquals(treeRow, tree.getFixedCellSize());
        assertEquals(barrierRow, barriers.getFixedCellSize());
        rowsAre(tree, treeRow);
    }

    /**
     * The pulse that gives the tables presentation mode's font ends with them laid out at their new
     * row height: a layout left to the next pulse restyles the table after that pulse's CSS pass,
     * and JavaFX paints one more whole-window frame for it (docs/performance.md, "The presentation
     * toggle's extra frames").
     */
    @Test
    void aTableWhoseFontChangesIsLaidOutAtItsNewRowHeightWithinThePulse(FxRobot robot) {
        runOnTheThreadsPanel(robot, "cluster-barrier-one-partition");
        TableView<?> barriers = robot.lookup("#barrierTable").queryAs(TableView.class);
        double before = barriers.getFixedCellSize();
        List<String> left = new java.util.ArrayList<>();
        // Added after the tables' own listeners: it runs after them, at the end of each pulse's layout.
        Runnable check = () -> {
            javafx.scene.Parent flow = (javafx.scene.Parent) barriers.lookup(".virtual-flow");
            if (barriers.isNeedsLayout() || flow.isNeedsLayout()) left.add("rows " + barriers.getFixedCellSize());
        };
        robot.interact(() -> w.scene.addPostLayoutPulseListener(check));
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        settle();
        robot.interact(() -> w.scene.removePostLayoutPulseListener(check));
        assertTrue(barriers.getFixedCellSize() > before, "presentation mode's rows " + barriers.getFixedCellSize());
        assertTrue(left.isEmpty(), "pulses that ended with the barrier table to lay out again: " + left);
    }

    @Test
    @SuppressWarnings("unchecked")
    void barrierRowsKeepTheirOwnHeightsWhileAnMbarrierGaugeHasItsBytesLine(FxRobot robot) {
        w.open(robot, "expect-tx-too-high");
        w.run(robot);
        settle();
        TableView<?> barriers = robot.lookup("#barrierTable").queryAs(TableView.class);
        assertTrue(barriers.getItems().stream().anyMatch(r -> r instanceof MbarrierRow m && m.hasTx()));
        assertTrue(barriers.getFixedCellSize() <= 0, "fixed at " + barriers.getFixedCellSize());
        for (IndexedCell<?> r : rows(barriers)) {
            assertTrue(r.getHeight() + 0.01 >= tallestCell(r), "row " + r.getIndex() + " cut: " + r.getHeight() + " < " + tallestCell(r));
        }
    }

    @Test
    void anIdleWindowStopsPulsingOnceItsRowHeightsAreFixed(FxRobot robot) {
        runOnTheThreadsPanel(robot, "expect-tx-too-high");
        settle();
        int[] pulses = {0};
        Runnable count = () -> pulses[0]++;
        robot.interact(() -> w.scene.addPostLayoutPulseListener(count));
        WaitForAsyncUtils.sleep(600, java.util.concurrent.TimeUnit.MILLISECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> w.scene.removePostLayoutPulseListener(count));
        // 60 pulses a second while something keeps asking for layout; a settled window asks for none.
        assertTrue(pulses[0] <= 3, pulses[0] + " pulses in 600 ms of idle");
    }

    @Test
    @SuppressWarnings("unchecked")
    void barrierRowsAreFixedAgainWhenNoMbarrierShowsItsBytesLine(FxRobot robot) {
        w.open(robot, "expect-tx-too-high");
        w.run(robot);
        settle();
        TableView<?> barriers = robot.lookup("#barrierTable").queryAs(TableView.class);
        assertTrue(barriers.getFixedCellSize() <= 0, "fixed at " + barriers.getFixedCellSize());
        // Back to the first step whose barrier rows have no bytes line.
        long step = 0;
        for (; step < 400; step++) {
            long s = step;
            robot.interact(() -> w.vm.seek(s));
            if (!barriers.getItems().isEmpty() && barriers.getItems().stream().noneMatch(r -> r instanceof MbarrierRow m && m.hasTx())) break;
        }
        assertTrue(step < 400, "no step with barrier rows and no bytes line");
        settle();
        assertTrue(barriers.getFixedCellSize() > 0, "not fixed again at step " + step + ": " + barriers.getFixedCellSize());
        rowsAre(barriers, barriers.getFixedCellSize());
        w.run(robot);
        settle();
        assertTrue(barriers.getFixedCellSize() <= 0, "fixed again at " + barriers.getFixedCellSize());
        for (IndexedCell<?> r : rows(barriers)) {
            assertTrue(r.getHeight() + 0.01 >= tallestCell(r), "row " + r.getIndex() + " cut: " + r.getHeight() + " < " + tallestCell(r));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void threadRowsFollowTheDarkTheme(FxRobot robot) {
        runOnTheThreadsPanel(robot, "cluster-barrier-one-partition");
        TreeTableView<?> tree = robot.lookup("#threadTree").queryAs(TreeTableView.class);
        robot.interact(() -> w.vm.appearance().darkProperty().set(!w.vm.appearance().darkProperty().get()));
        settle();
        rowsAre(tree, tree.getFixedCellSize());
        robot.interact(() -> w.vm.appearance().darkProperty().set(!w.vm.appearance().darkProperty().get()));
        settle();
        rowsAre(tree, tree.getFixedCellSize());
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void anEmptyBarrierRowIsNotAsTallAsTheBytesLineItOnceShowed(FxRobot robot) {
        w.open(robot, "expect-tx-too-high");
        w.run(robot);
        settle();
        TableView barriers = robot.lookup("#barrierTable").queryAs(TableView.class);
        List<Object> all = new java.util.ArrayList<>(barriers.getItems());
        Object tx = all.stream().filter(r -> r instanceof MbarrierRow m && m.hasTx()).findFirst().orElseThrow();
        // Every row shows a bytes line, then all but the first are emptied: their cells keep the gauge as graphic.
        robot.interact(() -> barriers.setItems(javafx.collections.FXCollections.observableArrayList(java.util.Collections.nCopies(4, tx))));
        settle();
        double twoLines = rows(barriers).get(0).getHeight();
        robot.interact(() -> barriers.setItems(javafx.collections.FXCollections.observableArrayList(tx)));
        settle();
        List<Double> empty = TestWindow.onFx(() -> barriers.lookupAll(".table-row-cell").stream()
                .filter(n -> n instanceof IndexedCell<?> c && c.isVisible() && c.isEmpty())
                .map(n -> ((IndexedCell<?>) n).getHeight()).toList());
        assertFalse(empty.isEmpty(), "no empty rows in view");
        for (double h : empty) assertTrue(h < twoLines - 0.01, "empty row " + h + " high, as the bytes line's " + twoLines);
    }

    /** Every row in view is at least as high as each of its children asks, the disclosure arrow too. */
    private static void noChildCut(Control table) {
        for (IndexedCell<?> r : rows(table)) {
            double tallest = TestWindow.onFx(() -> r.getChildrenUnmodifiable().stream()
                    .filter(Node::isVisible).mapToDouble(n -> n.prefHeight(-1)).max().orElse(0));
            assertTrue(r.getHeight() + 0.01 >= tallest, "row " + r.getIndex() + " cut: " + r.getHeight() + " < " + tallest);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void threadRowsAreAsHighAsTheirDisclosureArrowInBothFontSizes(FxRobot robot) {
        runOnTheThreadsPanel(robot, "cluster-barrier-one-partition");
        TreeTableView<?> tree = robot.lookup("#threadTree").queryAs(TreeTableView.class);
        noChildCut(tree);
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
        settle();
        noChildCut(tree);
    }
}
