package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.explore.ExploreViewModel;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Move;
import org.junit.jupiter.api.Test;

/** Explore inside the window's view model, on a synchronous session and an inline explorer. */
class ExploreInDebuggerTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));

    @Test
    void aFindingOpensAtItsFailingStepWithTimeTravel() {
        vm.open(TestFiles.exploreKernel("peer-exit-race"));
        vm.run();
        assertEquals("completed", vm.outcomeProperty().get(), "the default schedule misses the bug");

        ExploreViewModel ex = vm.explore();
        ex.schedulesProperty().set("100");
        ex.start();
        assertEquals(ExploreViewModel.State.DONE, ex.stateProperty().get());
        ExploreViewModel.Row r = ex.findings().get(0);
        assertEquals("dsmem-after-exit", r.code());

        ex.openInDebugger(r);
        assertEquals(r.replayLanding(), vm.nowProperty().get(), "the minimal schedule, where it fails");
        assertEquals(r.outcome(), vm.outcomeProperty().get());
        assertTrue(vm.timelineProperty().get().model().hasDeviations(), "the timeline marks the decisions off the default");
        assertEquals(r.minimal().size(), vm.timelineProperty().get().model().deviationSteps().length);
        assertTrue(vm.diagnosticsList().rows().stream().anyMatch(d -> d.code().equals("dsmem-after-exit")));
        assertEquals(Panel.DIAGNOSTICS, vm.panelProperty().get().panel());
        assertEquals(1, ex.findings().size(), "the findings stay: the same launch");
        assertEquals("round-robin", vm.policyProperty().get(), "Re-run keeps a policy it knows");

        assertTrue(vm.diagnosticsList().rows().stream().anyMatch(d -> d.code().equals("dsmem-after-exit") && d.step() == r.replayStep()),
                "the Diagnostics panel numbers the step as the Explore card does");
        assertTrue(vm.diagnosticsList().rows().stream().noneMatch(d -> d.later()), "the finding that stopped the run has fired");
        vm.move(Move.STEP_BACK);
        assertEquals(r.replayLanding() - 1, vm.nowProperty().get());
        vm.run();
        assertEquals(r.outcome(), vm.outcomeProperty().get(), "the replay is exact: running on fails again");
    }
    @Test
    void aDeadlockFindingOpensOnTheDeadlockWithoutRunningAgain() {
        vm.open(TestFiles.exploreKernel("flag-check-deadlock"));
        ExploreViewModel ex = vm.explore();
        ex.schedulesProperty().set("100");
        ex.start();
        ExploreViewModel.Row r = ex.findings().stream().filter(f -> f.code().equals("deadlock")).findFirst().orElseThrow();

        ex.openInDebugger(r);
        assertEquals("deadlock", vm.outcomeProperty().get(), "the status names the deadlock without F5");
        assertEquals(Panel.DEADLOCK, vm.panelProperty().get().panel());
        assertEquals(r.replayStep(), vm.nowProperty().get());
        assertTrue(vm.timelineProperty().get().model().complete(), "the timeline reaches the end");
        assertTrue(vm.deadlock().deadlockedProperty().get(), "the Deadlock tab explains it");
    }
}
