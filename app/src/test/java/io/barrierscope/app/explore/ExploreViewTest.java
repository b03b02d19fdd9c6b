package io.barrierscope.app.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.debugger.DebuggerView;
import io.barrierscope.app.debugger.DebuggerViewModel;
import io.barrierscope.app.debugger.Panel;
import io.barrierscope.app.files.RecentFiles;
import io.barrierscope.app.session.DebugSession;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Explore panel in the real window, headless: the session on its worker thread and the
 * search on a thread of its own, as in the app, on a kernel whose bug only some schedules show.
 */
@ExtendWith(ApplicationExtension.class)
class ExploreViewTest {
    private DebuggerViewModel vm;

    @Start
    void start(Stage stage) {
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(Platform::runLater, l), RecentFiles.inMemory(),
                new ExploreRunner(Platform::runLater));
        DebuggerView view = new DebuggerView(vm, List.of());
        Scene scene = new Scene(view.root(), 1280, 800);
        view.installShortcuts(scene);
        stage.setScene(scene);
        stage.show();
        vm.open(TestFiles.exploreKernel("peer-exit-race"));
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
    void exploresListsTheMinimisedFindingAndOpensItsMinimalScheduleAtTheFailingStep(FxRobot robot) throws TimeoutException {
        waitUntil(() -> "ready".equals(text(robot, "#outcomeLabel")));
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.E).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        Tab selected = robot.lookup("#panelTabs").queryAs(TabPane.class).getSelectionModel().getSelectedItem();
        assertEquals("exploreTab", selected.getId());
        TextField budget = robot.lookup("#exploreSchedules").queryAs(TextField.class);
        assertEquals("1000", budget.getText(), "the command line's default");
        robot.interact(() -> budget.setText("200"));

        robot.clickOn("#exploreStart");
        waitUntil(() -> vm.explore().stateProperty().get() == ExploreViewModel.State.DONE);
        // The exhaustion pass after bound 1 (as explore's default) proves all interleavings of this kernel in 9 schedules, so
        // no random ones follow: explore --schedules 200 says the same (9 systematic, 0 random; stopped: exhausted).
        assertTrue(text(robot, "#exploreCoverage").startsWith("9 schedules (9 systematic, 0 random)"), text(robot, "#exploreCoverage"));
        assertTrue(text(robot, "#exploreCoverage").contains("deviation bound 3 complete up to equivalence"), text(robot, "#exploreCoverage"));
        assertTrue(text(robot, "#exploreCoverage").contains("stopped: all interleavings explored, up to equivalence"),
                text(robot, "#exploreCoverage"));
        ListView<?> list = robot.lookup("#exploreFindings").queryAs(ListView.class);
        assertFalse(list.getItems().isEmpty());
        ExploreViewModel.Row r = (ExploreViewModel.Row) list.getItems().get(0);
        assertEquals("dsmem-after-exit", r.code());
        assertTrue(robot.lookup("#exploreStatus").queryAs(Label.class).getText().contains("1 finding"));
        assertEquals("Explore (1)", selected.getText());
        assertEquals(r.minimalText(), robot.lookup(".explore-minimal").queryAs(Label.class).getText());
        assertTrue(robot.lookup(".explore-minimal").queryAs(Label.class).getText().startsWith("Minimal schedule: "));
        assertEquals(String.join("\n", r.decisiveText()), robot.lookup(".explore-decisive").queryAs(Label.class).getText());
        assertEquals(r.replaySchedule(), robot.lookup(".explore-schedule").queryAs(Label.class).getText(), "the card shows the schedule it replays");

        robot.clickOn(robot.lookup(".explore-open").queryButton());
        waitUntil(() -> r.outcome().equals(text(robot, "#outcomeLabel")));
        waitUntil(() -> text(robot, "#stepsLabel").startsWith("step " + r.replayLanding() + " of " + r.replayLanding() + " (end)"));
        assertEquals(r.replayLanding(), vm.nowProperty().get(), "the minimal schedule, where it fails");
        assertTrue(vm.canStepBackProperty().get(), "time travel: the steps before the failure are there");
        assertEquals("1 diagnostic", text(robot, "#diagnosticsLabel"));
    }

    @Test
    void proveTheBoundSitsBesideTheBoundSaysWhatItProvesAndCostsAndAFindingFreeSearchStatesTheProof(FxRobot robot)
            throws TimeoutException {
        waitUntil(() -> "ready".equals(text(robot, "#outcomeLabel")));
        robot.interact(() -> vm.open(TestFiles.sample("syncthreads-divergent-fixed")));
        waitUntil(() -> vm.explore().availableProperty().get() && vm.titleProperty().get().contains("syncthreads-divergent-fixed"));
        robot.interact(() -> vm.showPanel(Panel.EXPLORE));
        WaitForAsyncUtils.waitForFxEvents();
        CheckBox prove = robot.lookup("#exploreBoundedPor").queryAs(CheckBox.class);
        TextField bound = robot.lookup("#exploreDeviations").queryAs(TextField.class);
        assertSame(bound.getParent().getParent(), prove.getParent(), "in the settings row, with the deviation bound");
        assertTrue(prove.isSelected(), "on: the command line's default");
        String tip = prove.getTooltip().getText();
        assertTrue(tip.contains("--bounded-por") && tip.contains("every interleaving with at most K deviations, up to equivalence")
                && tip.contains("Costs:"), tip);

        // 10 schedules leave the exhaustion pass 2, too few for this kernel (it takes 3): the claim within the bound.
        robot.interact(() -> {
            vm.explore().schedulesProperty().set("10");
            bound.setText("1");
        });
        robot.clickOn("#exploreBoundedPor");
        assertFalse(vm.explore().boundedPartialOrderProperty().get(), "unticked: source sets");
        robot.clickOn("#exploreBoundedPor");
        assertTrue(vm.explore().boundedPartialOrderProperty().get());
        robot.clickOn("#exploreStart");
        waitUntil(() -> vm.explore().stateProperty().get() == ExploreViewModel.State.DONE);
        assertTrue(text(robot, "#exploreStatus").contains("no findings; covered: every interleaving with at most 1 deviation, up to equivalence"),
                text(robot, "#exploreStatus"));
        assertTrue(text(robot, "#exploreCoverage").contains("deviation bound 1 complete up to symmetric warps and up to equivalence"),
                text(robot, "#exploreCoverage"));
        assertTrue(prove.isSelected(), "the choice stays for the next search");

        // With a budget that lets the exhaustion pass finish, the card states the proof of every interleaving.
        robot.interact(() -> vm.explore().schedulesProperty().set("20"));
        robot.clickOn("#exploreStart");
        waitUntil(() -> vm.explore().stateProperty().get() == ExploreViewModel.State.DONE
                && text(robot, "#exploreStatus").startsWith("Explored 5 schedules"));
        assertTrue(text(robot, "#exploreStatus").contains("no findings; covered: all schedules")
                && text(robot, "#exploreStatus").contains("all interleavings, up to equivalence"), text(robot, "#exploreStatus"));
        assertTrue(text(robot, "#exploreCoverage").contains("stopped: all interleavings explored, up to equivalence"),
                text(robot, "#exploreCoverage"));
    }

    @Test
    void cancelStopsASearchAndSaysSo(FxRobot robot) throws TimeoutException {
        waitUntil(() -> "ready".equals(text(robot, "#outcomeLabel")));
        // A kernel whose search does not end on its own within the test: the little peer-exit-race
        // is exhausted in a few schedules now that reorderings of independent steps are skipped.
        robot.interact(() -> vm.open(TestFiles.sample("named-producer-consumer")));
        waitUntil(() -> vm.explore().availableProperty().get() && vm.titleProperty().get().contains("named-producer-consumer"));
        robot.interact(() -> {
            vm.showPanel(Panel.EXPLORE);
            vm.explore().schedulesProperty().set("100000000");
            vm.explore().timeLimitProperty().set("0");
            vm.explore().start();
        });
        assertTrue(vm.explore().runningProperty().get());
        waitUntil(() -> vm.explore().progressProperty().get() > 0);
        robot.clickOn("#exploreCancel");
        waitUntil(() -> vm.explore().stateProperty().get() == ExploreViewModel.State.CANCELLED);
        assertTrue(text(robot, "#exploreCoverage").contains("stopped: cancelled"), text(robot, "#exploreCoverage"));
        assertTrue(text(robot, "#exploreStatus").startsWith("Cancelled after"));
    }
}
