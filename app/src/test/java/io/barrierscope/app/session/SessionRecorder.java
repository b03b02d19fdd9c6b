package io.barrierscope.app.session;

import io.barrierscope.app.TestFiles;
import java.util.ArrayList;
import java.util.List;

/** A synchronous session (inline executors) on a bundled sample that keeps everything it reports. */
public final class SessionRecorder implements DebugSession.Listener {
    public final List<Snapshot> snapshots = new ArrayList<>();
    public final List<Inspection> inspections = new ArrayList<>();
    public OpenedFile opened;
    public List<BreakpointRow> breakpoints = List.of();
    public final List<String> refused = new ArrayList<>();
    public final List<String> saved = new ArrayList<>();
    public final List<BarrierDetail> details = new ArrayList<>();
    public final DebugSession session = new DebugSession(Runnable::run, Runnable::run, this);

    public static SessionRecorder open(String sample) {
        SessionRecorder r = new SessionRecorder();
        r.session.open(TestFiles.sample(sample));
        return r;
    }

    /** Runs to the end and returns the last snapshot. */
    public Snapshot runToEnd() {
        session.run();
        return last();
    }

    public Snapshot step(int n) {
        for (int i = 0; i < n; i++) session.step();
        return last();
    }

    public Snapshot last() { return snapshots.get(snapshots.size() - 1); }

    @Override public void opened(OpenedFile file) { opened = file; }
    @Override public void updated(Snapshot s) { snapshots.add(s); }
    @Override public void failed(String message) { throw new AssertionError(message); }
    @Override public void inspected(Inspection i) { inspections.add(i); }
    @Override public void breakpoints(List<BreakpointRow> rows) { breakpoints = rows; }
    @Override public void breakpointRefused(String message) { refused.add(message); }
    @Override public void saved(String message) { saved.add(message); }
    @Override public void barrierDetail(BarrierDetail d) { details.add(d); }
}
