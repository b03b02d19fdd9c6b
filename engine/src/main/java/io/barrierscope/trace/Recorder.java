package io.barrierscope.trace;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.StepLog;
import io.barrierscope.exec.SyncEvent;

/**
 * The listener that writes a run into a {@link Recording}. It records only what is new: while a
 * seek re-executes steps already recorded, their events (labelled below the recorded frontier)
 * are skipped, so travelling back and forth never duplicates or reorders the trace. Warp steps do
 * not come through here: the interpreter logs them straight into the recording's {@link StepLog}.
 */
public final class Recorder implements ExecutionListener {
    private final Interpreter x;
    private final Recording rec;
    private final StepLog log;
    /** The recording has its end (nothing after it is recorded). */
    private boolean ended;
    /** Drops the wgmma events (replaying a trace of format 2 or older, which has none). */
    private boolean withoutTensorCoreEvents;

    /** A recorder of {@code x}'s run; add it as a listener for every event other than warp steps. */
    public Recorder(Interpreter x) {
        this.x = x;
        this.rec = new Recording(x.machine().warps, x.machine().program.code.length);
        this.log = rec.stepLog();
        x.logSteps(log);
    }

    @Override
    public boolean takesWarpSteps() { return false; }

    public Recording recording() { return rec; }

    /**
     * Records no wgmma issue, commit or retire events from now on: a trace written before trace
     * format 3 has none, and its replay must record exactly the events it holds.
     */
    public void omitTensorCoreEvents() { withoutTensorCoreEvents = true; }

    /** Whether an event is new: not of a step below the frontier (a seek re-executing it), nor after the end. */
    private boolean fresh(long step) { return step >= log.size() && !ended; }

    @Override
    public void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {
        if (withoutTensorCoreEvents && kind.ordinal() >= SyncEvent.WGMMA_ISSUE.ordinal()) return;
        if (fresh(step)) rec.sync(step, kind.ordinal(), slot, object, a, b);
    }

    @Override
    public void statusChange(long step, int warp, int lanes, byte from, byte to) {
        if (fresh(step)) rec.status(step, warp, lanes, from, to);
    }

    @Override
    public void barrierArriveWait(long step, int warp, int lanes, long object, long generation) {
        if (fresh(step)) rec.arriveWait(step, warp, lanes, object, generation);
    }

    @Override
    public void barrierCompleteRelease(long step, int firstWarp, long released, long object, long generation) {
        if (fresh(step)) rec.completeRelease(step, firstWarp, released, object, generation);
    }

    @Override
    public void timeJump(long step, long cycles) {
        if (fresh(step)) rec.jump(step, cycles);
    }

    @Override
    public void diagnostic(Diagnostic d) {
        if (fresh(d.step())) rec.diagnostic(d.step(), d);
    }

    @Override
    public void printf(long step, int slot, String text) {
        if (fresh(step)) rec.printf(step, new PrintfLine(step, slot, x.machine().threadName(slot), text));
    }

    @Override
    public void finished(long step, Outcome outcome) {
        // The end is announced after the last warp step's own event, with that step's label.
        if (!ended) rec.end(Math.max(step, rec.steps() - 1), outcome);
        ended = true;
    }
}
