package io.barrierscope.app.barriers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import io.barrierscope.app.session.BarrierDetail;
import io.barrierscope.app.session.MbarrierRow;
import io.barrierscope.app.session.PanelRow;
import java.util.List;
import java.util.TreeSet;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import io.barrierscope.app.source.CodeList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.matcher.control.LabeledMatchers;
import org.testfx.util.WaitForAsyncUtils;

/** The roster and history of a selected mbarrier in mbarrier-parity-pipeline, and seeking to a completion. */
@ExtendWith(ApplicationExtension.class)
class BarrierRosterViewTest {
    private TestWindow w;

    @Start
    void start(Stage stage) {
        w = new TestWindow(stage);
    }

    /** An mbarrier past its first phases with some but not all arrivals of the current one, or null. */
    private MbarrierRow phaseInProgress() {
        for (PanelRow r : w.vm.barriers().rows()) {
            if (r instanceof MbarrierRow m && m.phase() >= 2 && m.pending() > 0 && m.pending() < m.expected()) return m;
        }
        return null;
    }

    @Test
    @SuppressWarnings("unchecked")
    void rosterHistoryAndSeekingToACompletion(FxRobot robot) {
        w.open(robot, "mbarrier-parity-pipeline");
        // The session runs inline in the test window: step on the FX thread until a phase is in progress.
        MbarrierRow row = TestWindow.onFx(() -> {
            MbarrierRow found = null;
            for (int i = 0; i < 3000 && found == null; i++) {
                w.vm.step();
                found = phaseInProgress();
            }
            return found;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertNotNull(row, "no step with an mbarrier phase in progress");
        TableView<PanelRow> table = robot.lookup("#barrierTable").queryAs(TableView.class);
        MbarrierRow chosen = row;
        robot.interact(() -> table.getSelectionModel().select(chosen));
        WaitForAsyncUtils.waitForFxEvents();

        String title = robot.lookup("#barrierDetailTitle").queryAs(Label.class).getText();
        assertTrue(title.startsWith(chosen.name() + " of CTA (0,0,0) · phase " + chosen.phase()), title);
        assertTrue(robot.lookup("#barrierDetailSummary").queryAs(Label.class).getText()
                .startsWith(chosen.pending() + " of " + chosen.expected() + " arrivals still pending"));
        ListView<String> arrived = robot.lookup("#barrierArrived").queryAs(ListView.class);
        List<String> arrivals = arrived.getItems().stream().filter(s -> s.startsWith("t")).toList();
        assertEquals(chosen.expected() - chosen.pending(), arrivals.size(), arrived.getItems().toString());
        assertTrue(arrivals.get(0).matches("t\\d+ · count 1 at step \\d+ \\(\\d+ pending after\\)"), arrivals.get(0));
        ListView<String> missing = robot.lookup("#barrierMissing").queryAs(ListView.class);
        assertFalse(missing.getItems().isEmpty());
        assertTrue(missing.getItems().get(0).matches("t\\d+(–\\d+)?"), missing.getItems().get(0));
        // The arrived thread is not among the missing.
        String firstArrived = arrivals.get(0).substring(0, arrivals.get(0).indexOf(' '));
        assertFalse(missing.getItems().contains(firstArrived));

        ListView<BarrierDetail.Completion> history = robot.lookup("#barrierHistory").queryAs(ListView.class);
        assertEquals(chosen.phase(), history.getItems().size());
        for (int p = 0; p < history.getItems().size(); p++) {
            BarrierDetail.Completion c = history.getItems().get(p);
            assertEquals(p, c.number());
            assertTrue(c.step() > 0 && c.step() <= w.vm.nowProperty().get());
            assertEquals("phase " + p + " completed at step " + c.step(), c.text());
        }

        // The waiters' lines carry the style in the PTX source.
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        assertEquals(List.copyOf(new TreeSet<>(w.vm.barriers().waiterLinesProperty().get())),
                TestWindow.onFx(() -> TestWindow.linesWith(ptx, "barrier-waiter-line")));

        // And their lanes in the timeline.
        assertEquals(w.vm.barriers().waiterWarpsProperty().get(), w.vm.timelineProperty().get().highlightedLanesProperty().get());

        // Click the first completion: the session goes to the step right after it; the barrier stays selected.
        BarrierDetail.Completion first = history.getItems().get(0);
        robot.clickOn(robot.from(history).lookup(".list-cell").match(LabeledMatchers.hasText(first.text())).queryLabeled());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(first.step(), w.vm.nowProperty().get());
        assertEquals(chosen.offset(), ((MbarrierRow) table.getSelectionModel().getSelectedItem()).offset());
        assertTrue(robot.lookup("#barrierDetailTitle").queryAs(Label.class).getText().endsWith("· phase 1"));
        assertEquals(1, history.getItems().size());
    }

    @Test
    @SuppressWarnings("unchecked")
    void clickingAnArrivedWarpSelectsItEverywhere(FxRobot robot) {
        w.open(robot, "named-barrier-too-many");
        w.run(robot);
        robot.interact(() -> w.vm.selection().selectBarrier(
                new io.barrierscope.app.session.BarrierKey(io.barrierscope.app.session.BarrierKey.Kind.CTA_BARRIER, 0, 1)));
        WaitForAsyncUtils.waitForFxEvents();
        ListView<String> arrived = robot.lookup("#barrierArrived").queryAs(ListView.class);
        robot.clickOn(robot.from(arrived).lookup(".list-cell").match(LabeledMatchers.hasText("w1 (t32–63)")).queryLabeled());
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(1, w.vm.timelineProperty().get().selectedWarpProperty().get());
        assertEquals("w1", w.vm.threads().selectedKeyProperty().get());
        assertTrue(robot.lookup("#barrierDetailTitle").queryAs(Label.class).getText().startsWith("bar 1 of CTA (0,0,0)"));
    }
}
