package io.barrierscope.app.barriers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import io.barrierscope.app.session.ClusterBarrierRow;
import io.barrierscope.app.session.MbarrierRow;
import io.barrierscope.app.session.PanelRow;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import io.barrierscope.app.source.CodeList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** What the barrier table's rows show of cluster barriers, mbarrier bytes and missing warps, on real samples. */
@ExtendWith(ApplicationExtension.class)
class BarrierRowsViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @SuppressWarnings("unchecked")
    private static TableView<PanelRow> table(FxRobot robot) {
        return robot.lookup("#barrierTable").queryAs(TableView.class);
    }

    /** The table row (a node) showing {@code item}, scrolled into view (the pane is short in a 1280x800 window). */
    private static Node rowOf(FxRobot robot, PanelRow item) {
        robot.interact(() -> table(robot).scrollTo(item));
        WaitForAsyncUtils.waitForFxEvents();
        return robot.from(table(robot)).lookup(".table-row-cell").match(n -> ((TableRow<?>) n).getItem() == item).query();
    }

    /** Whether a node and all its ancestors are visible. */
    private static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) if (!p.isVisible()) return false;
        return true;
    }

    /** The texts a row shows: its plain cells' and the labels inside its gauge cells. */
    private static List<String> texts(FxRobot robot, Node row) {
        List<String> out = new java.util.ArrayList<>();
        robot.from(row).lookup(".table-cell").queryAllAs(TableCell.class).forEach(c -> {
            if (c.getText() != null) out.add(c.getText());
        });
        robot.from(row).lookup(".label").queryAllAs(Label.class).forEach(l -> {
            if (shown(l)) out.add(l.getText());
        });
        return out;
    }

    @Test
    @SuppressWarnings("unchecked")
    void deadlockedClusterRowIsRedAndSelectingItShowsItsRosterAndHighlightsItsWaiters(FxRobot robot) {
        w.open(robot, "cluster-barrier-one-partition");
        w.run(robot);
        ClusterBarrierRow cluster = (ClusterBarrierRow) table(robot).getItems().stream()
                .filter(r -> r instanceof ClusterBarrierRow).findFirst().orElseThrow();
        Node row = rowOf(robot, cluster);
        List<String> shown = texts(robot, row);
        assertTrue(shown.containsAll(List.of("cluster", "CTA (0,0,0)–(1,0,0)", "cluster (0,0,0)", "phase 0",
                "64/128 threads · 2/4 warps", "missing: CTA (0,0,0) w0 · CTA (1,0,0) w0")), shown.toString());
        ProgressBar gauge = robot.from(row).lookup(".barrier-gauge").match(n -> !n.getStyleClass().contains("tx-gauge"))
                .queryAs(ProgressBar.class);
        assertEquals(0.5, gauge.getProgress());
        assertTrue(gauge.getStyleClass().contains("stuck"), gauge.getStyleClass().toString());

        robot.interact(() -> table(robot).getSelectionModel().select(cluster));
        WaitForAsyncUtils.waitForFxEvents();
        String title = robot.lookup("#barrierDetailTitle").queryAs(Label.class).getText();
        assertTrue(title.startsWith("barrier.cluster of cluster (0,0,0), CTA (0,0,0)–(1,0,0) · phase 0"), title);
        assertEquals(List.of("CTA (0,0,0) w1 (t32–63)", "CTA (1,0,0) w1 (t32–63)"),
                robot.lookup("#barrierArrived").queryAs(ListView.class).getItems());
        assertEquals(List.of("CTA (0,0,0) w0 (t0–31)", "CTA (1,0,0) w0 (t0–31)"),
                robot.lookup("#barrierMissing").queryAs(ListView.class).getItems());
        // The consumers wait at barrier.cluster.wait: that line in the PTX, their lanes in the timeline.
        Set<Integer> lines = w.vm.barriers().waiterLinesProperty().get();
        assertEquals(1, lines.size());
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        assertEquals(List.copyOf(new TreeSet<>(lines)), TestWindow.onFx(() -> TestWindow.linesWith(ptx, "barrier-waiter-line")));
        assertTrue(ptx.lineText(lines.iterator().next()).contains("barrier.cluster.wait"));
        assertEquals(Set.of(1, 3), w.vm.timelineProperty().get().highlightedLanesProperty().get());
    }

    @Test
    void mbarrierRowShowsItsTransactionBytesAsAGauge(FxRobot robot) {
        w.open(robot, "expect-tx-too-high");
        w.run(robot);
        MbarrierRow full = (MbarrierRow) table(robot).getItems().stream()
                .filter(r -> r instanceof MbarrierRow).findFirst().orElseThrow();
        Node row = rowOf(robot, full);
        ProgressBar bytes = robot.from(row).lookup(".tx-gauge").queryAs(ProgressBar.class);
        assertTrue(shown(bytes));
        assertEquals(0.5, bytes.getProgress()); // 128 of 256 bytes came
        assertTrue(bytes.getStyleClass().contains("stuck")); // and the rest never will
        assertTrue(texts(robot, row).contains("tx +128 of 256 bytes"), texts(robot, row).toString());
        assertTrue(texts(robot, row).contains("0 of 1 pending"), texts(robot, row).toString()); // the arrivals above it
    }

    @Test
    void mbarrierRowWithoutTransactionsThisPhaseHasNoBytesGauge(FxRobot robot) {
        w.open(robot, "mbarrier-init-count-too-high");
        w.run(robot);
        MbarrierRow row = (MbarrierRow) table(robot).getItems().stream()
                .filter(r -> r instanceof MbarrierRow).findFirst().orElseThrow();
        ProgressBar bytes = robot.from(rowOf(robot, row)).lookup(".tx-gauge").queryAs(ProgressBar.class);
        assertFalse(shown(bytes));
        assertTrue(texts(robot, rowOf(robot, row)).contains("tx 0"));
    }

    @Test
    void ctaBarrierRowNamesItsMissingWarps(FxRobot robot) {
        w.open(robot, "cluster-barrier-one-partition");
        w.run(robot);
        PanelRow bar = table(robot).getItems().get(0);
        assertEquals("bar 1", bar.label());
        assertTrue(texts(robot, rowOf(robot, bar)).contains("missing: w1 · arrived: w0"), texts(robot, rowOf(robot, bar)).toString());
    }

    @Test
    void withNothingSelectedTheRosterListsGiveTheirRoomToTheRows(FxRobot robot) {
        w.open(robot, "cluster-barrier-one-partition");
        w.run(robot);
        TableView<PanelRow> table = table(robot);
        assertEquals(3, table.getItems().size()); // bar 1 of each CTA and the cluster's barrier
        Node arrived = robot.lookup("#barrierArrived").query();
        assertFalse(shown(arrived));
        long rowsShown = robot.from(table).lookup(".table-row-cell")
                .match(n -> ((TableRow<?>) n).getItem() != null && shown(n)).queryAll().size();
        assertEquals(3, rowsShown); // all of them, without scrolling, in a 1280x800 window

        robot.interact(() -> table.getSelectionModel().select(2));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(shown(arrived));
        robot.interact(() -> table.getSelectionModel().clearSelection());
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(shown(arrived));
    }
}
