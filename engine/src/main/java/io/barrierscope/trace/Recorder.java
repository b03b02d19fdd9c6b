package io.barrierscope.trace;

import io.barrierscope.check.Diagnostic;
import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.StepLog;
import io.barrierscope.exec.SyncEvent;

/**
 * The listener that writes a run into a {@link Recording}. It records only what is new: while a
 * seek re-executes steps already recorded, their events (labelled below the recorded frontier)
 * are skipped, so travelling back and forth never duplicates or reorders the trace.
 */
public final class Recorder implements ExecutionListener {
    private final Interpreter x;
    private final Recording rec;

    /** Warp steps arrive in batches through the interpreter's step log, not one listener call per step. */
    private final StepLog log;

    /**
     * A recorder of {@code x}'s run; add it as a listener for every other event. It takes warp steps
     * from the interpreter's step log (cheaper recording); other events first drain the log, so the
     * order of the recording is the run's.
     */
    public Recorder(Interpreter x) {
        this.x = x;
        this.rec = new Recording(x.machine().warps);
        this.log = new StepLog(this::steps);
        x.logSteps(log);
    }

    private void steps(long first, int n, int[] warp, int[] pc, int[] group, int[] active) {
        if (rec.finished()) return;
        // Steps below the frontier are re-executions (a seek): recorded already.
        int skip = (int) Math.max(0, Math.min(n, rec.steps() - first));
        if (skip == 0) {
            rec.warpSteps(first, n, warp, pc, group, active);
            return;
        }
        for (int i = skip; i < n; i++) rec.warpStep(first + i, warp[i], pc[i], group[i], active[i]);
    }

    private void drain() { log.drain(); }

    public Recording recording() { return rec; }

    private boolean fresh(long step) { return step >= rec.steps() && !rec.finished(); }

    @Override
    public void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {
        drain();
        if (fresh(step)) rec.sync(step, kind.ordinal(), slot, object, a, b);
    }

    @Override
    public void statusChange(long step, int warp, int lanes, byte from, byte to) {
        drain();
        if (fresh(step)) rec.status(step, warp, lanes, from, to);
    }

    @Override
    public void timeJump(long step, long cycles) {
        drain();
        if (fresh(step)) rec.jump(step, cycles);
    }

    @Override
    public void diagnostic(Diagnostic d) {
        drain();
        if (fresh(d.step())) rec.diagnostic(d.step(), d);
    }

    @Override
    public void printf(long step, int slot, String text) {
        drain();
        if (fresh(step)) rec.printf(step, new PrintfLine(step, slot, x.machine().threadName(slot), text));
    }

    @Override
    public void finished(long step, Outcome outcome) {
        drain();
        // The end is announced after the last warp step's own event, with that step's label.
        if (!rec.finished()) rec.end(Math.max(step, rec.steps() - 1), outcome);
    }
}
