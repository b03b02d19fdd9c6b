package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Move;
import io.barrierscope.app.source.SourceViewModel.Marker;
import org.junit.jupiter.api.Test;

/** Moving both ways, breakpoints and re-runs through the window's view model, without a toolkit. */
class TimeTravelViewModelTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));

    private int lineOf(String text) {
        return vm.source().getLines().indexOf(vm.source().getLines().stream().filter(l -> l.contains(text)).findFirst().orElseThrow()) + 1;
    }

    @Test
    void stepsBackAndForthWithTheStatusBarSayingWhere() {
        vm.open(TestFiles.sample("block-reduce"));
        assertFalse(vm.canStepBackProperty().get());
        vm.step();
        vm.step();
        vm.step();
        int lineAt3 = vm.source().getCurrentLine();
        assertTrue(vm.canStepBackProperty().get());
        vm.move(Move.STEP_BACK);
        assertTrue(vm.stepsProperty().get().startsWith("step 2 of 3 (frontier) · "), vm.stepsProperty().get());
        assertTrue(vm.messageProperty().get().startsWith("Back at step 2 · next: "), vm.messageProperty().get());
        vm.step();
        assertEquals(lineAt3, vm.source().getCurrentLine());
        vm.run();
        assertTrue(vm.stepsProperty().get().startsWith("step 1291 of 1291 (end)"), vm.stepsProperty().get());
        assertFalse(vm.canStepProperty().get());
        vm.move(Move.REVERSE_CONTINUE); // no breakpoints: all the way back
        assertEquals(0, vm.nowProperty().get());
        assertEquals("ready", vm.outcomeProperty().get());
        assertEquals("", vm.reportProperty().get(), "the end's report goes with the end");
    }

    @Test
    void theTimelineFollowsTheRecordingAndItsScrubberSeeks() {
        vm.open(TestFiles.sample("block-reduce"));
        var timeline = vm.timelineProperty().get();
        assertEquals(0, timeline.model().knownSteps());
        vm.run();
        assertEquals(1291, timeline.model().knownSteps());
        assertTrue(timeline.model().complete());
        assertEquals(1291, timeline.positionProperty().get());
        timeline.onSeekProperty().get().accept(100); // what a click on the scrubber asks
        assertEquals(100, vm.nowProperty().get());
        assertEquals(100, timeline.positionProperty().get());
        vm.rerun();
        assertTrue(vm.timelineProperty().get() != timeline, "a new run, a new timeline");
    }

    @Test
    void aBarrierBreakpointStopsTheRunSaysWhyAndMarksItsRow() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.breakpoints().kindProperty().set("barrier");
        vm.breakpoints().textProperty().set("cta=0");
        vm.breakpoints().add();
        assertEquals("", vm.breakpoints().textProperty().get());
        assertEquals("barrier,cta=0", vm.breakpoints().rows().get(0).spec());
        vm.run();
        assertFalse(vm.runningProperty().get());
        assertEquals("paused", vm.outcomeProperty().get());
        assertTrue(vm.messageProperty().get().startsWith("Breakpoint barrier,cta=0 at step "), vm.messageProperty().get());
        assertTrue(vm.messageProperty().get().endsWith("barrier 0 of CTA (0,0,0) completed generation 0"), vm.messageProperty().get());
        assertEquals(vm.breakpoints().rows().get(0).id(), vm.breakpoints().hitProperty().get());
        BarrierRow bar0 = vm.barriers().rows().stream().filter(r -> r instanceof BarrierRow b && b.cta() == 0)
                .map(BarrierRow.class::cast).findFirst().orElseThrow();
        assertEquals(1, bar0.generation());
        assertFalse(bar0.waiting());
        vm.step();
        assertEquals(-1, vm.breakpoints().hitProperty().get());
    }

    @Test
    void gutterClicksMarkBothPanesAndDisabledBreakpointsAreHollow() {
        vm.open(TestFiles.sample("block-reduce"));
        int bar = lineOf("bar.sync");
        vm.source().toggleBreakpoint(bar);
        assertEquals(Marker.ENABLED, vm.source().breakpointMarker(bar));
        vm.breakpoints().setEnabled(vm.breakpoints().rows().get(0), false);
        assertEquals(Marker.DISABLED, vm.source().breakpointMarker(bar));
        vm.source().clickLine(bar);
        int cudaLine = vm.cuda().linkedLinesProperty().get().iterator().next();
        vm.cuda().toggleBreakpoint(cudaLine);
        assertEquals(Marker.ENABLED, vm.cuda().breakpointMarker(cudaLine));
        assertEquals("line:kernel.cu:" + cudaLine, vm.breakpoints().rows().get(1).spec());
        vm.run(); // the CUDA line breakpoint stops before the line's first instruction
        assertTrue(vm.messageProperty().get().startsWith("Breakpoint line:kernel.cu:" + cudaLine), vm.messageProperty().get());
        assertEquals(cudaLine, vm.cuda().currentLineProperty().get());
        vm.source().toggleBreakpoint(bar);
        assertEquals(Marker.NONE, vm.source().breakpointMarker(bar));
        vm.toggleBreakpointHere(); // F9: the line last clicked
        assertEquals(Marker.ENABLED, vm.source().breakpointMarker(bar));
    }

    @Test
    void aDiagnosticLaterInTheRecordingIsGreyedAndActivatingItGoesThere() {
        vm.open(TestFiles.sample("double-bar-arrive"));
        vm.run();
        vm.reset();
        var row = vm.diagnosticsList().rows().get(0);
        assertTrue(row.later());
        assertEquals("0 diagnostics", vm.diagnosticsProperty().get());
        vm.diagnosticsList().activate(row);
        assertEquals(row.step() + 1, vm.nowProperty().get());
        assertEquals("1 diagnostic", vm.diagnosticsProperty().get());
        assertFalse(vm.diagnosticsList().rows().get(0).later());
        assertEquals(row.ptxLine(), vm.source().revealProperty().get().line());
    }

    @Test
    void reRunTakesThePolicyAndSeedAndRefusesABadSeed() {
        vm.open(TestFiles.sample("block-reduce"));
        assertEquals("round-robin", vm.policyProperty().get());
        assertEquals(TestFiles.sample("block-reduce"), vm.recent().files().get(0));
        vm.breakpoints().textProperty().set("barrier");
        vm.breakpoints().add();
        vm.policyProperty().set("random");
        vm.seedProperty().set("x1");
        vm.rerun();
        assertTrue(vm.messageProperty().get().contains("whole number"), vm.messageProperty().get());
        vm.seedProperty().set("42");
        vm.rerun();
        assertEquals("Re-ran with policy random, seed 42", vm.messageProperty().get());
        assertEquals("random", vm.policyProperty().get());
        assertEquals("42", vm.seedProperty().get());
        assertEquals(1, vm.breakpoints().rows().size());
        assertEquals(0, vm.nowProperty().get());
    }

    @Test
    void goingBackFromADeadlockPutsTheExplanationAwayAndForwardBringsItBack() {
        vm.open(TestFiles.sample("named-barrier-too-many"));
        vm.run();
        assertTrue(vm.deadlock().deadlockedProperty().get());
        vm.move(Move.STEP_BACK_WARP);
        assertFalse(vm.deadlock().deadlockedProperty().get());
        assertEquals("paused", vm.outcomeProperty().get());
        vm.run();
        assertTrue(vm.deadlock().deadlockedProperty().get());
        assertEquals("deadlock", vm.outcomeProperty().get());
    }
}
