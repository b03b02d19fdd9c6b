package io.barrierscope.app.debugger;

import io.barrierscope.app.session.Snapshot;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * Where the run stands, as the status bar shows it and the commands ask it: running, pausing,
 * paused or ended; the position and the frontier; the progress of a Continue; the followed warp's
 * place and the diagnostics count. Every snapshot updates it, a run's progress snapshots included
 * (the heavy panes skip those: {@link DebuggerViewModel#updated}). FX thread only.
 */
final class RunStatus {
    final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
    final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper(false);
    final ReadOnlyBooleanWrapper atStart = new ReadOnlyBooleanWrapper(true);
    final ReadOnlyLongWrapper now = new ReadOnlyLongWrapper(0);
    final ReadOnlyLongWrapper frontier = new ReadOnlyLongWrapper(0);
    /** 0 when idle, -1 when the end is not known yet, else the share done. */
    final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    final ReadOnlyStringWrapper outcome = new ReadOnlyStringWrapper("no file");
    final ReadOnlyStringWrapper steps = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper position = new ReadOnlyStringWrapper("");
    final ReadOnlyStringWrapper diagnostics = new ReadOnlyStringWrapper("");
    /** Pause was asked during the run in progress (progress snapshots until its stop keep saying "pausing"). */
    private boolean pausing;

    /** A Continue (or a lesson's moment) began: its end is not known yet. */
    void started() {
        running.set(true);
        outcome.set("running");
        progress.set(-1);
    }

    /** Pause asked: the status says "pausing" at once, until the stop's snapshot says "paused". False when no run goes on. */
    boolean pause() {
        if (!running.get()) return false;
        pausing = true;
        outcome.set("pausing");
        return true;
    }

    /** No run goes on (a file opened, or the run failed). */
    void stopped() {
        running.set(false);
        progress.set(0);
    }

    /** Takes a snapshot's status; true when it is the run's end, reached just now. */
    boolean update(Snapshot s) {
        Snapshot.Travel t = s.travel();
        boolean wasFinished = finished.get();
        finished.set(s.finished());
        now.set(s.steps());
        frontier.set(t.frontier());
        atStart.set(s.steps() == 0);
        // Only a run's end (or a fresh open) ends "running": a step queued before Run may
        // report after Run was pressed.
        if (s.cause() == Snapshot.Cause.RUN_END || s.cause() == Snapshot.Cause.OPENED) running.set(false);
        pausing &= running.get();
        outcome.set(pausing ? "pausing" : StatusTexts.outcomeText(s, running.get()));
        steps.set(StatusTexts.stepsText(s));
        // Within a complete recording the way to the end is known; past the frontier it is not.
        progress.set(!running.get() ? 0 : t.complete() && t.frontier() > 0 ? (double) s.steps() / t.frontier() : -1);
        position.set(s.focusName().isEmpty() ? "" : s.focusName()
                + (s.focusLine() > 0 ? " · line " + s.focusLine() : ""));
        int n = s.diagnostics().size();
        diagnostics.set(n == 1 ? "1 diagnostic" : n + " diagnostics");
        return s.finished() && !wasFinished;
    }
}
