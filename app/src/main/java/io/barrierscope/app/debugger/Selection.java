package io.barrierscope.app.debugger;

import io.barrierscope.app.barriers.BarriersViewModel;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.source.CudaSourceViewModel;
import io.barrierscope.app.source.SourceViewModel;
import io.barrierscope.app.threads.ThreadNode;
import io.barrierscope.app.threads.ThreadsViewModel;
import io.barrierscope.app.timeline.TimelineViewModel;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The window's one selection (whatever points at a place in the program selects it
 * everywhere). A {@link Place} comes in from any pane and is shown in all of them: its row in the
 * threads tree (whose thread the inspector shows), its warp's lane in the timeline, its barrier in
 * the barriers pane (whose waiters the source and timeline then mark), its line in both source
 * panes, and its step as the position. The panes are told without their callbacks firing, so
 * nothing echoes back. A place whose step is elsewhere is finished when the session's snapshot of
 * that step arrives ({@link #updated}): the line and barrier it left open are then its thread's.
 *
 * <p>Facets a place does not name stay as they were: selecting a thread that waits on nothing
 * keeps the barrier the user chose, so the two can be compared.
 */
public final class Selection {
    /** What the session does for a selection. */
    interface Session {
        /** The thread whose registers and shared memory are shown (and whose warp the warp moves act on). */
        void inspect(int slot);

        /** The barrier whose roster, history and waiters follow every snapshot (null: none). */
        void selectBarrier(BarrierKey key);

        void seek(long step);
    }

    private final ThreadsViewModel threads;
    private final BarriersViewModel barriers;
    private final SourceViewModel source;
    private final CudaSourceViewModel cuda;
    private final Supplier<TimelineViewModel> timeline;
    private final LongSupplier now;
    private final BooleanSupplier idle;
    private final Session session;
    private final ReadOnlyObjectWrapper<Place> place = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<BarrierKey> barrier = new ReadOnlyObjectWrapper<>();
    /** A place waiting for the snapshot of its step, or null. */
    private Place pending;

    Selection(ThreadsViewModel threads, BarriersViewModel barriers, SourceViewModel source, CudaSourceViewModel cuda,
              Supplier<TimelineViewModel> timeline, LongSupplier now, BooleanSupplier idle, Session session) {
        this.threads = threads;
        this.barriers = barriers;
        this.source = source;
        this.cuda = cuda;
        this.timeline = timeline;
        this.now = now;
        this.idle = idle;
        this.session = session;
    }

    /** Selects a place everywhere. */
    public void select(Place p) {
        // A newer choice wins over a place still waiting for its step's snapshot.
        pending = null;
        place.set(p);
        if (p.hasThread()) showThread(p);
        if (p.barrier() != null) selectBarrier(p.barrier());
        if (p.ptxLine() > 0) showLine(p.ptxLine());
        if (p.step() >= 0 && p.step() != now.getAsLong() && idle.getAsBoolean()) {
            pending = p;
            session.seek(p.step()); // inline sessions answer at once: pending is set before
        } else {
            complete(p);
        }
    }

    /** Selects a barrier (null: none), from the barriers pane or as part of a place. */
    public void selectBarrier(BarrierKey key) {
        barrier.set(key);
        barriers.show(key);
        session.selectBarrier(key);
    }

    /** A snapshot arrived: a place that went to its step takes what its thread is doing there. */
    public void updated() {
        Place p = pending;
        pending = null;
        if (p != null) complete(p);
    }

    /**
     * A breakpoint hit: the session follows the hit's warp, so no thread stays chosen (tree
     * row and lane); the barrier and lines stay.
     */
    public void dropThread() {
        pending = null;
        place.set(null);
        threads.select(null);
        TimelineViewModel t = timeline.get();
        if (t != null) t.selectWarp(-1);
    }

    /** A new file: nothing of the old run is selected. */
    public void clear() {
        pending = null;
        place.set(null);
        barrier.set(null);
        TimelineViewModel t = timeline.get();
        if (t != null) t.selectWarp(-1);
    }

    /** A new timeline (a new run): it marks the warp selected before. */
    void timelineChanged(TimelineViewModel t) {
        Place p = place.get();
        t.selectWarp(p == null ? -1 : warpOf(p));
    }

    private void showThread(Place p) {
        threads.reveal(p.rowKey());
        int slot = p.slot();
        if (slot < 0) { // a warp: its first live thread, as its row inspects
            ThreadNode n = threads.node(p.rowKey());
            slot = n == null ? -1 : n.slot();
        }
        if (slot >= 0) session.inspect(slot);
        TimelineViewModel t = timeline.get();
        if (t != null) t.selectWarp(warpOf(p));
    }

    private static int warpOf(Place p) { return p.warp() >= 0 ? p.warp() : -1; }

    /** The parts a place left open, from its thread's row as it is now. */
    private void complete(Place p) {
        if (!p.hasThread()) return;
        threads.reveal(p.rowKey()); // the rows above it may have changed (a warp diverged)
        ThreadNode n = threads.node(p.rowKey());
        if (n == null) return;
        if (p.ptxLine() <= 0 && n.ptxLine() > 0) showLine(n.ptxLine());
        if (p.barrier() == null && n.barrier() != null) selectBarrier(n.barrier());
    }

    private void showLine(int ptxLine) {
        source.reveal(ptxLine);
        cuda.showPtxLine(ptxLine);
    }

    /** The place last selected, or null. */
    public ReadOnlyObjectProperty<Place> placeProperty() { return place.getReadOnlyProperty(); }

    /** The barrier selected, or null. */
    public ReadOnlyObjectProperty<BarrierKey> barrierProperty() { return barrier.getReadOnlyProperty(); }
}
