package io.barrierscope.app.session;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a run posts over and over (progress snapshots, "the timeline grew"), handed to the UI
 * executor so that it never queues up: while the UI thread has not reached the last one posted,
 * a newer one replaces it. The UI thread then applies one whole snapshot per turn, the newest,
 * and never works through a backlog of stale ones.
 */
final class Coalescing {
    private final Executor ui;
    private final DebugSession.Listener listener;
    private final AtomicReference<Snapshot> progress = new AtomicReference<>();
    private final AtomicBoolean grew = new AtomicBoolean();

    Coalescing(Executor ui, DebugSession.Listener listener) {
        this.ui = ui;
        this.listener = listener;
    }

    /** A progress snapshot: shown unless a newer one (or a stop's) comes before the UI gets to it. */
    void progress(Snapshot s) {
        if (progress.getAndSet(s) != null) return; // the task queued for the older one shows this one
        ui.execute(() -> {
            Snapshot newest = progress.getAndSet(null);
            if (newest != null) listener.updated(newest);
        });
    }

    /** A stop's snapshot follows: any progress not yet shown is dropped. */
    void stopped() { progress.set(null); }

    /** The timeline grew: one call queued at a time. */
    void timelineGrew() {
        if (!grew.compareAndSet(false, true)) return;
        ui.execute(() -> {
            grew.set(false);
            listener.timelineGrew();
        });
    }
}
