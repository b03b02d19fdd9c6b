package io.barrierscope.app.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.matcher.control.LabeledMatchers;
import org.testfx.util.WaitForAsyncUtils;

/** The threads tree with its filter, and the registers and shared memory of the chosen thread. */
@ExtendWith(ApplicationExtension.class)
class ThreadsViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    @Test
    @SuppressWarnings("unchecked")
    void filterChooseAThreadAndSeeItsRegistersAndItsMbarrier(FxRobot robot) {
        w.open(robot, "mbarrier-init-count-too-high");
        robot.type(KeyCode.F5);
        robot.press(KeyCode.CONTROL).type(KeyCode.DIGIT1).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("threadsTab", robot.lookup("#panelTabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem().getId());
        TreeTableView<ThreadNode> tree = robot.lookup("#threadTree").queryAs(TreeTableView.class);
        TreeItem<ThreadNode> cta = tree.getRoot().getChildren().get(0);
        assertEquals("CTA (0,0,0)", cta.getValue().name());
        assertTrue(cta.isExpanded());
        assertEquals(4, cta.getChildren().size());
        assertEquals("parked", cta.getChildren().get(0).getValue().state());
        assertTrue(cta.getChildren().get(0).getValue().waitsOn().startsWith("mbarrier bar (shared 0x0) · phase 0"));
        assertTrue(robot.lookup("#threadSummary").queryAs(Label.class).getText().startsWith("128 threads: 128 parked"));

        // Ctrl+F, a filter: only warp 2 is left, and it is chosen with a click.
        robot.press(KeyCode.CONTROL).type(KeyCode.F).release(KeyCode.CONTROL);
        robot.write("warp 2");
        WaitForAsyncUtils.waitForFxEvents();
        cta = tree.getRoot().getChildren().get(0);
        assertEquals(1, cta.getChildren().size());
        TreeItem<ThreadNode> warp2 = cta.getChildren().get(0);
        assertEquals("warp 2", warp2.getValue().name());
        javafx.scene.Node cell = robot.lookup(".tree-table-cell").match(LabeledMatchers.hasText("warp 2")).query();
        robot.clickOn(cell);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("Registers of CTA (0,0,0) thread (64,0,0) in neighbour_sum",
                robot.lookup("#registersTitle").queryAs(Label.class).getText());
        TableView<RegistersViewModel.Row> regs = robot.lookup("#registerTable").queryAs(TableView.class);
        RegistersViewModel.Row r1 = regs.getItems().stream().filter(r -> r.name().equals("%r1")).findFirst().orElseThrow();
        assertEquals("64", r1.decimal());

        // Open the warp: its threads appear; choose thread 70.
        robot.interact(() -> warp2.setExpanded(true));
        assertEquals(32, warp2.getChildren().size());
        robot.interact(() -> tree.getSelectionModel().select(warp2.getChildren().get(6)));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(robot.lookup("#registersTitle").queryAs(Label.class).getText().contains("thread (70,0,0)"));

        // Its CTA's shared memory: the mbarrier word decoded.
        robot.clickOn("Shared memory");
        TableView<Integer> shared = robot.lookup("#sharedTable").queryAs(TableView.class);
        assertEquals(0, shared.getItems().get(0));
        assertEquals("phase 0 (parity 0) · pending 1 of 129 · tx 0", w.vm.shared().row(0).mbarrier());
        assertTrue(robot.lookup("phase 0 (parity 0) · pending 1 of 129 · tx 0").tryQuery().isPresent());

        // Stepping keeps the choice; clearing the filter keeps the row chosen.
        robot.interact(() -> w.vm.threads().filterProperty().set(""));
        assertEquals("t70", w.vm.threads().selectedKeyProperty().get());
        assertEquals("t70", tree.getSelectionModel().getSelectedItem().getValue().key());
    }

    /**
     * A step shows every row in view with its new state within the step's own FX event, before the
     * pulse: done in the pulse's layout instead, a row's new state style leaves CSS pending above it
     * and the next frame is painted whole (docs/performance.md, "A step's whole-window frame").
     */
    @Test
    @SuppressWarnings("unchecked")
    void aStepShowsTheRowsInViewInItsOwnEvent(FxRobot robot) {
        w.open(robot, "block-reduce");
        robot.press(KeyCode.CONTROL).type(KeyCode.DIGIT1).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        TreeTableView<ThreadNode> tree = robot.lookup("#threadTree").queryAs(TreeTableView.class);
        robot.interact(() -> tree.getRoot().getChildren().get(0).setExpanded(true)); // the warps of CTA 0
        WaitForAsyncUtils.waitForFxEvents();
        int changed = stepInOneEvent(2000, () -> shownStates(tree),
                (row, text) -> assertEquals(tree.getTreeItem(row).getValue().state(), text, "row " + row + " shows its state at once"));
        assertTrue(changed > 0, "some step changed a state in view");
    }

    /** The same for the registers of the chosen thread: each row in view shows its value in the step's own event. */
    @Test
    @SuppressWarnings("unchecked")
    void aStepShowsTheRegistersInViewInItsOwnEvent(FxRobot robot) {
        w.open(robot, "block-reduce");
        robot.press(KeyCode.CONTROL).type(KeyCode.DIGIT1).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        TreeTableView<ThreadNode> tree = robot.lookup("#threadTree").queryAs(TreeTableView.class);
        robot.interact(() -> tree.getRoot().getChildren().get(0).setExpanded(true));
        robot.interact(() -> tree.getSelectionModel().select(tree.getRoot().getChildren().get(0).getChildren().get(0))); // warp 0
        WaitForAsyncUtils.waitForFxEvents();
        TableView<RegistersViewModel.Row> regs = robot.lookup("#registerTable").queryAs(TableView.class);
        // The first rows are predicates; bring the 32-bit registers into view.
        robot.interact(() -> regs.scrollTo(regs.getItems().stream().filter(r -> r.name().equals("%r1")).findFirst().orElseThrow()));
        WaitForAsyncUtils.waitForFxEvents();
        int changed = stepInOneEvent(400, () -> shownValues(regs),
                (row, text) -> assertEquals(regs.getItems().get(row).decimal(), text, "register row " + row + " shows its value at once"));
        assertTrue(changed > 0, "some step changed a register in view: " + regs.getItems().size() + " rows, "
                + TestWindow.onFx(() -> shownValues(regs)) + ", " + robot.lookup("#registersTitle").queryAs(Label.class).getText());
    }

    /**
     * Steps up to {@code steps} times one after another in a single FX event, so no pulse in between
     * lays anything out, and after each step checks every row in view ({@code shown}: its text by row
     * index) with {@code check}. Returns how many steps changed what is shown, stopping at 3.
     */
    private int stepInOneEvent(int steps, Supplier<Map<Integer, String>> shown, BiConsumer<Integer, String> check) {
        return TestWindow.onFx(() -> {
            int n = 0;
            for (int i = 0; i < steps && n < 3; i++) {
                Map<Integer, String> before = shown.get();
                w.vm.step();
                Map<Integer, String> after = shown.get();
                after.forEach(check);
                if (!before.equals(after)) n++;
            }
            return n;
        });
    }

    /** The decimal column's text of each registers row in view, by row index. */
    private static Map<Integer, String> shownValues(TableView<RegistersViewModel.Row> table) {
        Map<Integer, String> out = new TreeMap<>();
        for (javafx.scene.Node n : table.lookupAll(".table-row-cell")) {
            if (!(n instanceof javafx.scene.control.TableRow<?> row) || !row.isVisible() || row.getIndex() < 0
                    || row.getIndex() >= table.getItems().size() || row.getItem() == null) continue;
            for (javafx.scene.Node c : row.getChildrenUnmodifiable()) {
                if (c instanceof javafx.scene.control.TableCell<?, ?> cell && cell.getTableColumn() == table.getColumns().get(3)) {
                    out.put(row.getIndex(), cell.getText());
                }
            }
        }
        return out;
    }

    /** The state column's text of each row in view, by row index. */
    private static Map<Integer, String> shownStates(TreeTableView<ThreadNode> tree) {
        Map<Integer, String> out = new TreeMap<>();
        for (javafx.scene.Node n : tree.lookupAll(".tree-table-row-cell")) {
            if (!(n instanceof javafx.scene.control.TreeTableRow<?> row) || !row.isVisible() || row.getIndex() < 0
                    || row.getIndex() >= tree.getExpandedItemCount() || row.getItem() == null) continue;
            for (javafx.scene.Node c : row.getChildrenUnmodifiable()) {
                if (c instanceof javafx.scene.control.TreeTableCell<?, ?> cell && cell.getTableColumn() == tree.getColumns().get(1)) {
                    out.put(row.getIndex(), cell.getText());
                }
            }
        }
        return out;
    }
}
