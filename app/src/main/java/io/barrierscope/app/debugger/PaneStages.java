package io.barrierscope.app.debugger;

import io.barrierscope.app.debugger.FrozenPanesViewModel.Pane;
import io.barrierscope.app.session.Inspection;
import io.barrierscope.app.session.Snapshot;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;

/**
 * Applies a run's stop to the panes a few at a time, one group per frame, instead of all in
 * the FX event that brings it: the stop's repaint of the whole window (every pane changes at
 * once after a Continue) becomes a few smaller frames, so the FX thread can take a key and
 * paint between them. Each group is whole panes, and a pane waiting for its turn keeps its
 * "as of step N" marker ({@link FrozenPanesViewModel}) until its group ran: no pane ever shows
 * two moments, and none passes off an old one as the present.
 * <p>
 * Without a frame scheduler (tests, or not asked for) every group runs at once. Anything new
 * (the next snapshot, a Continue) first runs the groups still waiting, in order.
 */
final class PaneStages {
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    /** Runs a task at the next frame (an animation timer's pulse); null: no spreading. */
    private Consumer<Runnable> nextFrame;
    /** Bumped when the waiting groups are run or replaced: a frame asked for before then does nothing. */
    private long generation;

    void setNextFrame(Consumer<Runnable> nextFrame) {
        finish();
        this.nextFrame = nextFrame;
    }

    /** Runs {@code groups} in order: the first now, the others one per frame when {@code spread}. */
    void run(List<Runnable> groups, boolean spread) {
        finish();
        if (!spread || nextFrame == null) {
            groups.forEach(Runnable::run);
            return;
        }
        pending.addAll(groups);
        runOne(generation);
    }

    private void runOne(long gen) {
        if (gen != generation) return;
        Runnable r = pending.poll();
        if (r != null) r.run();
        if (!pending.isEmpty()) nextFrame.accept(() -> runOne(gen));
    }

    /** Runs every group still waiting, now. */
    void finish() {
        generation++;
        for (Runnable r; (r = pending.poll()) != null; ) r.run();
    }

    /** Whether groups are still waiting for their frame. */
    boolean busy() { return !pending.isEmpty(); }

    /**
     * The window's panes brought to {@code s}, in groups of whole panes: the threads (with the
     * inspector) and the barriers first, since the inspection, the global memory and the barrier
     * detail that the session posts right after a stop belong with them; then the PTX source
     * (with the selected barrier's waiter lines, held back while it was marked), the CUDA source,
     * and the tabs that follow the step (diagnostics, console, deadlock). Each group drops its
     * panes' markers.
     */
    static List<Runnable> groups(DebuggerViewModel vm, Snapshot s) {
        Snapshot.Travel t = s.travel();
        FrozenPanesViewModel frozen = vm.frozen();
        return List.of(() -> {
            vm.barriers().update(s);
            if (t.hitBreakpoint() >= 0) vm.selection().dropThread(); // the session now follows the hit's warp
            vm.threads().update(s.threads());
            Inspection seen = s.inspection();
            vm.focus().update(s.threads(), seen != null && seen.slot() >= 0 ? seen.slot() >> 5 : s.focusWarp());
            vm.inspected(s.inspection());
            frozen.current(Pane.BARRIERS, Pane.THREADS);
        }, () -> {
            vm.source().update(s);
            frozen.current(Pane.PTX);
            vm.source().setWaiterLines(vm.barriers().waiterLinesProperty().get());
        }, () -> {
            vm.cuda().update(s.focusLoc(), s.focusLine());
            frozen.current(Pane.CUDA);
        }, () -> {
            // At the run's end every recorded diagnostic has fired, the deadlock found there included.
            vm.diagnosticsList().update(t.recorded(), s.finished() ? Long.MAX_VALUE : s.steps(), s.threads().grid());
            vm.console().update(s.steps());
            vm.deadlock().update(s.deadlock());
            frozen.current(Pane.DIAGNOSTICS, Pane.CONSOLE, Pane.DEADLOCK);
        });
    }
}
