package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.exec.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session's moves both ways, breakpoints, re-runs and trace files, on real samples, synchronously. */
class TimeTravelSessionTest {
    private static MbarrierRow mbarrier(Snapshot s, String name) {
        return s.mbarriers().stream().filter(m -> m.name().startsWith(name)).findFirst().orElseThrow();
    }

    @Test
    void stepBackRestoresTheEarlierStateExactly() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        Snapshot four = r.step(4);
        Snapshot five = r.step(1);
        assertEquals(5, five.steps());
        r.session.move(Move.STEP_BACK);
        Snapshot back = r.last();
        assertEquals(4, back.steps());
        assertEquals(four.cycles(), back.cycles());
        assertEquals(four.threads(), back.threads());
        assertEquals(four.warpsAtLine(), back.warpsAtLine());
        assertEquals(four.barriers(), back.barriers());
        assertEquals(5, back.travel().frontier());
        assertFalse(back.travel().complete());
        // The undone step's warp is followed: its line is the instruction taken back.
        assertEquals(five.lastAction().replace(" executed ", " executes "),
                back.travel().stop().substring(back.travel().stop().indexOf("next: ") + 6));
        assertTrue(back.travel().stop().startsWith("Back at step 4"), back.travel().stop());
    }

    @Test
    void anMbarrierBreakpointStopsAfterThePhaseCompletesAndReverseContinueGoesBack() {
        SessionRecorder r = SessionRecorder.open("mbarrier-parity-pipeline");
        r.session.addBreakpoint("mbarrier:full,phase=1");
        assertEquals(1, r.breakpoints.size());
        BreakpointRow row = r.breakpoints.get(0);
        assertEquals("mbarrier phase completes", row.kind());
        assertEquals("phase=1", row.conditions());
        Snapshot hit = r.runToEnd();
        assertEquals(Snapshot.Cause.RUN_END, hit.cause());
        assertEquals(311, hit.steps());
        assertEquals(Outcome.RUNNING, hit.outcome());
        assertEquals(row.id(), hit.travel().hitBreakpoint());
        assertTrue(hit.travel().stop().startsWith("Breakpoint mbarrier:full,phase=1 at step 311: mbarrier full"), hit.travel().stop());
        assertTrue(hit.travel().stop().contains("completed phase 1"), hit.travel().stop());
        assertEquals(2, mbarrier(hit, "full").phase(), "phase 1 completed: the barrier is in phase 2");
        assertEquals(1, r.breakpoints.get(0).hits());

        r.runToEnd();
        Snapshot second = r.last();
        assertEquals(416, second.steps());
        assertTrue(second.travel().stop().contains("full+8"), second.travel().stop());

        r.session.move(Move.REVERSE_CONTINUE);
        Snapshot back = r.last();
        assertEquals(311, back.steps());
        assertEquals(hit.mbarriers(), back.mbarriers());
        assertEquals(hit.threads(), back.threads());
        assertEquals(416, back.travel().frontier());
    }

    @Test
    void aBadSpecIsRefusedWithTheEnginesMessage() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        r.session.addBreakpoint("frobnicate");
        r.session.addBreakpoint("line:1");
        r.session.addBreakpoint("mbarrier:nosuch");
        assertEquals(3, r.refused.size());
        assertTrue(r.refused.get(0).contains("unknown kind 'frobnicate'"), r.refused.get(0));
        assertTrue(r.refused.get(1).contains("no instruction of the kernel is on PTX line 1"), r.refused.get(1));
        assertTrue(r.refused.get(2).contains("no shared variable 'nosuch'"), r.refused.get(2));
        assertTrue(r.breakpoints.isEmpty());
    }

    @Test
    void gutterTogglesSetAndRemoveLineBreakpointsAndALineBreakpointStopsBeforeItsLine() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        int bar = r.opened.ptxLines().indexOf(r.opened.ptxLines().stream().filter(l -> l.contains("bar.sync")).findFirst().orElseThrow()) + 1;
        r.session.toggleLineBreakpoint(bar);
        assertEquals(bar, r.breakpoints.get(0).ptxLine());
        r.session.toggleCudaBreakpoint("kernel.cu", r.opened.sourceMap().cudaOf(bar).line());
        assertEquals("CUDA line", r.breakpoints.get(1).kind());
        r.session.enableBreakpoint(r.breakpoints.get(1).id(), false);
        assertFalse(r.breakpoints.get(1).enabled());
        Snapshot s = r.runToEnd();
        assertEquals(bar, s.focusLine(), "stopped before the line");
        assertEquals(r.breakpoints.get(0).id(), s.travel().hitBreakpoint());
        r.session.toggleLineBreakpoint(bar);
        assertEquals(1, r.breakpoints.size());
        r.session.removeBreakpoint(r.breakpoints.get(0).id());
        assertTrue(r.breakpoints.isEmpty());
        assertEquals(Outcome.COMPLETED, r.runToEnd().outcome());
    }

    @Test
    void warpMovesFollowTheirWarpAndStepOverPassesTheBarrier() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        r.session.inspect(2 * 32); // a thread of warp 2: the focused warp
        r.session.move(Move.STEP_WARP);
        Snapshot s = r.last();
        assertEquals(2, s.focusWarp());
        assertTrue(s.lastAction().startsWith("CTA (0,0,0) warp 2 executed"), s.lastAction());
        int bar = r.opened.ptxLines().indexOf(r.opened.ptxLines().stream().filter(l -> l.contains("bar.sync")).findFirst().orElseThrow()) + 1;
        while (r.last().focusLine() != bar) r.session.move(Move.STEP_WARP);
        long before = r.last().steps();
        r.session.move(Move.STEP_OVER);
        Snapshot over = r.last();
        assertEquals(2, over.focusWarp());
        assertTrue(over.focusLine() > bar, "past the barrier: line " + over.focusLine());
        assertTrue(over.steps() > before + 1, "other warps had to arrive first");
        r.session.move(Move.STEP_BACK_OVER);
        assertEquals(bar, r.last().focusLine());
        assertEquals(2, r.last().focusWarp());
        assertTrue(r.last().steps() < over.steps());
    }

    @Test
    void seekGoesAnywhereAndResetReturnsToTheStart() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        Snapshot end = r.runToEnd();
        r.session.seek(100);
        assertEquals(100, r.last().steps());
        assertNull(r.last().report());
        r.session.seek(1_000_000);
        assertEquals(end.steps(), r.last().steps(), "clamped to the recorded end");
        assertEquals(Outcome.COMPLETED, r.last().outcome());
        r.session.reset();
        assertEquals(0, r.last().steps());
        assertEquals(end.steps(), r.last().travel().frontier());
    }

    @Test
    void reRunKeepsTheBreakpointsAndUsesTheNewPolicy() {
        SessionRecorder r = SessionRecorder.open("block-reduce");
        r.session.addBreakpoint("barrier,cta=1");
        r.session.rerun("random", 7);
        assertEquals("random", r.opened.policy());
        assertEquals(7, r.opened.seed());
        assertEquals(1, r.breakpoints.size());
        assertEquals("barrier,cta=1", r.breakpoints.get(0).spec());
        Snapshot s = r.runToEnd();
        assertTrue(s.travel().stop().contains("of CTA (1,0,0) completed generation 0"), s.travel().stop());
    }

    @Test
    void aSavedTraceReopensAtItsEndAndAChromeExportIsWritten(@TempDir Path tmp) throws Exception {
        SessionRecorder r = SessionRecorder.open("named-barrier-too-many");
        Snapshot end = r.runToEnd();
        Path trace = tmp.resolve("run.bstrace");
        r.session.saveTrace(trace);
        r.session.exportChrome(tmp.resolve("run.json"));
        assertEquals(2, r.saved.size());
        assertTrue(r.saved.get(0).startsWith("Saved the trace (" + end.steps() + " warp steps)"), r.saved.get(0));
        assertTrue(Files.readString(tmp.resolve("run.json")).contains("traceEvents"));

        SessionRecorder again = new SessionRecorder();
        again.session.open(trace);
        assertTrue(again.opened.trace());
        assertTrue(again.opened.note().startsWith("Opened trace run.bstrace: " + end.steps() + " warp steps recorded (deadlock)"),
                again.opened.note());
        Snapshot reopened = again.last();
        assertEquals(Outcome.DEADLOCK, reopened.outcome());
        assertEquals(end.steps(), reopened.steps());
        assertEquals(end.deadlock().text(), reopened.deadlock().text());
        again.session.move(Move.STEP_BACK);
        assertEquals(end.steps() - 1, again.last().steps());
        assertNull(again.last().deadlock());
    }

    @Test
    void aBarePtxRunsWithTheLaunchSettingsGiven(@TempDir Path tmp) throws Exception {
        Path ptx = TestFiles.spinPtx(tmp, 3);
        SessionRecorder r = new SessionRecorder();
        r.session.open(ptx, LaunchSettings.parse("2", "64", "", "adversarial", "5"));
        assertTrue(r.opened.note().contains("grid (2,1,1), block (64,1,1), adversarial, seed 5"), r.opened.note());
        assertEquals(4, r.last().threads().warps().size());
        assertEquals("adversarial", r.opened.policy());
        r.session.open(ptx);
        assertTrue(r.opened.note().contains("the command line's defaults"), r.opened.note());
        assertEquals(1, r.last().threads().warps().size());
    }

    @Test
    void diagnosticsAfterThePositionStayListedInTheRecording() {
        SessionRecorder r = SessionRecorder.open("double-bar-arrive");
        Snapshot end = r.runToEnd();
        assertEquals(1, end.diagnostics().size());
        long fired = end.diagnostics().get(0).step();
        r.session.seek(fired);
        Snapshot before = r.last();
        assertTrue(before.diagnostics().isEmpty());
        assertEquals(1, before.travel().recorded().size());
        r.session.seek(fired + 1);
        assertEquals(1, r.last().diagnostics().size());
        assertNotEquals(before.steps(), r.last().steps());
    }
}
