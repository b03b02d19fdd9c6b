package io.barrierscope.app.debugger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.app.session.Snapshots;
import io.barrierscope.exec.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole window's logic on a real sample, synchronously: inline executors, no toolkit. */
class DebuggerViewModelTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));

    @Test
    void beforeOpeningNothingCanRun() {
        assertFalse(vm.canStepProperty().get());
        assertEquals("BarrierScope", vm.titleProperty().get());
        assertEquals("no file", vm.outcomeProperty().get());
    }

    @Test
    void openingTheSampleShowsItsPtxAndTheEntryLine() {
        vm.open(TestFiles.sample("block-reduce"));
        assertTrue(vm.loadedProperty().get());
        assertEquals("block-reduce/launch.json — BarrierScope", vm.titleProperty().get());
        assertTrue(vm.source().getLines().stream().anyMatch(l -> l.contains("bar.sync")));
        assertEquals("ready", vm.outcomeProperty().get());
        assertEquals("step 0 of 0 (frontier) · 0 cycles", vm.stepsProperty().get());
        int line = vm.source().getCurrentLine();
        assertTrue(vm.source().getLines().get(line - 1).contains("ld.param"), "entry line: " + line);
        assertTrue(vm.canStepProperty().get());
        assertFalse(vm.reportVisibleProperty().get());
    }

    @Test
    void stepExecutesOneWarpStep() {
        vm.open(TestFiles.sample("block-reduce"));
        int before = vm.source().getCurrentLine();
        vm.step();
        assertEquals("paused", vm.outcomeProperty().get());
        assertTrue(vm.stepsProperty().get().startsWith("step 1 "));
        assertNotEquals(before, vm.source().getCurrentLine());
        assertTrue(vm.messageProperty().get().contains("executed line " + before), vm.messageProperty().get());
        assertTrue(vm.positionProperty().get().contains("warp 0"), vm.positionProperty().get());
    }

    @Test
    void runCompletesAndShowsTheReport() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.step();
        vm.run();
        assertEquals("completed", vm.outcomeProperty().get());
        assertFalse(vm.runningProperty().get());
        assertTrue(vm.finishedProperty().get());
        assertFalse(vm.canStepProperty().get());
        assertEquals("0 diagnostics", vm.diagnosticsProperty().get());
        assertTrue(vm.reportVisibleProperty().get());
        assertTrue(vm.reportProperty().get().contains("completed"), vm.reportProperty().get());
        assertTrue(vm.reportProperty().get().contains("all met"), vm.reportProperty().get());
        // Four CTAs, each used barrier 0 and has no warp waiting at the end.
        assertEquals(4, vm.barriers().rows().size());
        assertTrue(vm.barriers().rows().stream().map(BarrierRow.class::cast).noneMatch(r -> r.waiting()));
        assertTrue(vm.barriers().rows().stream().map(BarrierRow.class::cast).allMatch(r -> r.generation() > 0));
    }

    @Test
    void resetStartsAgain() {
        vm.open(TestFiles.sample("block-reduce"));
        vm.run();
        vm.reset(); // back to step 0 of the recording, whose end is known now
        assertEquals("ready", vm.outcomeProperty().get());
        assertEquals("step 0 of 1291 (end) · 0 cycles", vm.stepsProperty().get());
        assertFalse(vm.canStepBackProperty().get());
        assertTrue(vm.canStepProperty().get());
        assertFalse(vm.reportVisibleProperty().get());
        assertEquals(0, vm.barriers().rows().size());
    }

    @Test
    void deadlockIsExplained() {
        vm.open(TestFiles.sample("named-barrier-too-many"));
        vm.run();
        assertEquals("deadlock", vm.outcomeProperty().get());
        assertTrue(vm.reportProperty().get().toLowerCase().contains("deadlock"), vm.reportProperty().get());
        assertTrue(vm.barriers().rows().stream()
                .anyMatch(r -> r instanceof BarrierRow b && b.waiting() && b.stuck()));
    }

    @Test
    void diagnosticsAreCountedAndTheirLinesMarked() {
        vm.open(TestFiles.sample("syncthreads-divergent"));
        vm.run();
        assertEquals("diagnosed", vm.outcomeProperty().get());
        assertEquals("1 diagnostic", vm.diagnosticsProperty().get());
        assertTrue(vm.reportProperty().get().contains("barrier-divergence"), vm.reportProperty().get());
        assertFalse(vm.source().diagnosticLinesProperty().get().isEmpty());
    }

    @Test
    void badInputIsShownAndKeepsTheOpenFile(@TempDir Path tmp) throws Exception {
        vm.open(TestFiles.sample("block-reduce"));
        Path bad = Files.writeString(tmp.resolve("bad.json"), "{ \"ptx\": ");
        vm.open(bad);
        // The open session is left as it was: the failure is told in the status and a notification.
        assertTrue(vm.messageProperty().get().startsWith("Could not open: "), vm.messageProperty().get());
        assertTrue(vm.messageProperty().get().endsWith("(still showing block-reduce/launch.json)"), vm.messageProperty().get());
        assertTrue(vm.notificationProperty().get().contains("bad.json:1:10"), vm.notificationProperty().get());
        assertEquals("block-reduce/launch.json — BarrierScope", vm.titleProperty().get());
        assertTrue(vm.canStepProperty().get());
        vm.dismissNotification();
        assertEquals("", vm.notificationProperty().get());
    }

    @Test
    void aBrokenFileOpenedOverASessionLeavesItAsItWasAndSaysWhere(@TempDir Path tmp) throws Exception {
        vm.open(TestFiles.sample("block-reduce"));
        vm.step();
        vm.step();
        java.util.List<String> source = vm.source().linesProperty().get();
        String outcome = vm.outcomeProperty().get();
        Path ptx = Files.writeString(tmp.resolve("broken.ptx"),
                ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n");
        vm.open(ptx);
        assertTrue(vm.loadedProperty().get());
        assertEquals(2, vm.nowProperty().get(), "the old session's position");
        assertEquals(source, vm.source().linesProperty().get(), "the old session's source");
        assertEquals(outcome, vm.outcomeProperty().get());
        assertEquals("block-reduce/launch.json — BarrierScope", vm.titleProperty().get());
        assertTrue(vm.messageProperty().get().contains("broken.ptx:6:3"), vm.messageProperty().get());
        assertTrue(vm.notificationProperty().get().contains("broken.ptx:6:3"), vm.notificationProperty().get());
        vm.step();
        assertEquals(3, vm.nowProperty().get(), "and goes on working");
    }

    @Test
    void brokenPtxIsALocatedMessage(@TempDir Path tmp) throws Exception {
        Path ptx = Files.writeString(tmp.resolve("broken.ptx"),
                ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n");
        vm.open(ptx);
        assertFalse(vm.loadedProperty().get());
        assertTrue(vm.messageProperty().get().contains("broken.ptx"), vm.messageProperty().get());
    }

    @Test
    void onlyTheRunsEndStopsRunningNotAStepQueuedBeforeIt() {
        // A session whose worker drops commands: the test plays the session's results by hand.
        DebuggerViewModel manual = new DebuggerViewModel(l -> new DebugSession(task -> {}, Runnable::run, l));
        manual.opened(new OpenedFile(Path.of("/x/k.ptx"), "k.ptx", List.of("exit;")));
        manual.updated(Snapshots.at(Outcome.RUNNING, 0, 1, Map.of(), List.of(), List.of()));
        manual.run();
        assertTrue(manual.runningProperty().get());
        assertFalse(manual.canStepProperty().get());
        manual.updated(Snapshots.at(Outcome.RUNNING, 1, 1, Map.of(), List.of(), List.of())); // the step's
        assertTrue(manual.runningProperty().get());
        assertEquals("running", manual.outcomeProperty().get());
        Snapshot end = Snapshots.at(Outcome.COMPLETED, 9, 1, Map.of(), List.of(), List.of());
        manual.updated(new Snapshot(end.outcome(), end.steps(), end.cycles(), end.maxSteps(), end.focusWarp(),
                end.focusName(), end.focusLine(), end.lastAction(), end.warpsAtLine(), end.barriers(),
                end.diagnostics(), end.report(), Snapshot.Cause.RUN_END));
        assertFalse(manual.runningProperty().get());
        assertEquals("completed", manual.outcomeProperty().get());
    }

    @Test
    void whileRunningOnlyTheStatusMovesAndThePanesTakeTheStopsSnapshot() {
        DebuggerViewModel manual = new DebuggerViewModel(l -> new DebugSession(task -> {}, Runnable::run, l));
        manual.opened(new OpenedFile(Path.of("/x/k.ptx"), "k.ptx", List.of("nop;", "nop;", "nop;", "exit;")));
        manual.updated(Snapshots.at(Outcome.RUNNING, 0, 1, Map.of(), List.of(), List.of()));
        manual.run();
        manual.updated(as(Snapshots.at(Outcome.RUNNING, 7, 3, Map.of(3, 1), List.of(), List.of()), Snapshot.Cause.RUN_PROGRESS));
        assertTrue(manual.stepsProperty().get().startsWith("step 7 "), manual.stepsProperty().get());
        assertEquals(7, manual.nowProperty().get());
        assertEquals("running", manual.outcomeProperty().get());
        assertEquals(1, manual.source().getCurrentLine(), "the PTX pane keeps the moment it showed");
        assertEquals(Map.of(), manual.source().warpsAtLineProperty().get());
        manual.updated(as(Snapshots.at(Outcome.RUNNING, 9, 4, Map.of(4, 1), List.of(), List.of()), Snapshot.Cause.RUN_END));
        assertEquals(4, manual.source().getCurrentLine(), "the stop's snapshot reaches the panes");
        assertEquals(Map.of(4, 1), manual.source().warpsAtLineProperty().get());
        assertTrue(manual.stepsProperty().get().startsWith("step 9 "), manual.stepsProperty().get());
    }

    @Test
    void pauseSaysPausingAtOnceAndPausedWhenTheRunStops() {
        DebuggerViewModel manual = new DebuggerViewModel(l -> new DebugSession(task -> {}, Runnable::run, l));
        manual.opened(new OpenedFile(Path.of("/x/k.ptx"), "k.ptx", List.of("nop;", "nop;", "nop;", "exit;")));
        manual.updated(Snapshots.at(Outcome.RUNNING, 0, 1, Map.of(), List.of(), List.of()));
        manual.run();
        manual.pause();
        assertEquals("pausing", manual.outcomeProperty().get(), "before the engine's next check");
        manual.updated(as(Snapshots.at(Outcome.RUNNING, 7, 3, Map.of(3, 1), List.of(), List.of()), Snapshot.Cause.RUN_PROGRESS));
        assertEquals("pausing", manual.outcomeProperty().get(), "a progress snapshot still on its way does not undo it");
        manual.updated(as(Snapshots.at(Outcome.RUNNING, 9, 4, Map.of(4, 1), List.of(), List.of()), Snapshot.Cause.RUN_END));
        assertEquals("paused", manual.outcomeProperty().get());
        manual.run();
        assertEquals("running", manual.outcomeProperty().get(), "the next run starts afresh");
    }

    private static Snapshot as(Snapshot s, Snapshot.Cause cause) {
        return new Snapshot(s.outcome(), s.steps(), s.cycles(), s.maxSteps(), s.focusWarp(), s.focusName(), s.focusLine(),
                s.lastAction(), s.warpsAtLine(), s.barriers(), s.diagnostics(), s.report(), cause);
    }

    @Test
    void theStatusSaysThePolicyAndSeedOfTheOpenRun() {
        assertEquals("", vm.runPolicyProperty().get());
        vm.open(TestFiles.sample("block-reduce"));
        assertEquals("policy round-robin", vm.runPolicyProperty().get());
        vm.policyProperty().set("random");
        vm.seedProperty().set("7");
        assertEquals("policy round-robin", vm.runPolicyProperty().get(), "chosen for the next re-run, not yet running");
        vm.rerun();
        assertEquals("policy random · seed 7", vm.runPolicyProperty().get());
    }

    @Test
    void missingFileBeforeAnyOpenLeavesNoFile(@TempDir Path tmp) {
        vm.open(tmp.resolve("missing.json"));
        assertFalse(vm.loadedProperty().get());
        assertEquals("no file", vm.outcomeProperty().get());
        assertTrue(vm.reportVisibleProperty().get());
    }
}
