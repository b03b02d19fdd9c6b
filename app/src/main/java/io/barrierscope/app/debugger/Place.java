package io.barrierscope.app.debugger;

import io.barrierscope.app.deadlock.WaitGraph;
import io.barrierscope.app.diagnostics.DiagnosticsViewModel;
import io.barrierscope.app.session.BarrierDetail;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.session.ConsoleLine;
import io.barrierscope.app.session.ThreadsState;
import io.barrierscope.check.Deadlock;
import io.barrierscope.app.threads.ThreadNode;

/**
 * A place in the program that something points at (a thread row, a diagnostic, a timeline event,
 * a console line, a deadlock box, a barrier): what {@link Selection} selects everywhere. Every
 * part is optional; a part left unknown is taken from the thread at the place's step.
 *
 * @param slot    the thread, -1 for none (then the warp's first live thread is inspected)
 * @param warp    the global warp, -1 for none
 * @param row     the threads tree row to select, null for the thread's (else the warp's)
 * @param ptxLine the PTX line to show, 0: the thread's line there
 * @param barrier the barrier to select, null: the one the thread waits on there, if any
 * @param step    the position to go to, -1 to stay
 */
public record Place(int slot, int warp, String row, int ptxLine, BarrierKey barrier, long step) {

    /** A row of the threads tree, as it is now. */
    public static Place of(ThreadNode n) {
        boolean inWarp = n.level() != ThreadNode.Level.CTA && n.level() != ThreadNode.Level.CLUSTER;
        return new Place(n.slot(), inWarp ? n.warp() : -1, n.key(), n.ptxLine(), n.barrier(), -1);
    }

    /** A diagnostic: its first thread, line and barrier, right after the step where it fired. */
    public static Place of(DiagnosticsViewModel.Row r) {
        return new Place(r.slot(), r.slot() >= 0 ? r.slot() >> 5 : -1, null, r.ptxLine(), r.barrier(), r.stopStep());
    }

    /** A printf line: its thread and call, right after the step that printed it. */
    public static Place of(ConsoleLine l) {
        return new Place(l.slot(), l.warp(), null, l.ptxLine(), null, l.stopStep());
    }

    /** A warp's lane at a step (a timeline click). */
    public static Place warpAt(int warp, long step) {
        return new Place(-1, warp, null, 0, null, step);
    }

    /** A line only. */
    public static Place line(int ptxLine) {
        return new Place(-1, -1, null, ptxLine, null, -1);
    }

    /**
     * A box of the deadlock's wait-for graph in a launch shaped as {@code t}: a group's warp
     * (even an exited one, which has no line), a barrier box's barrier, and the box's line.
     */
    public static Place of(WaitGraph.Node n, ThreadsState t) {
        BarrierKey key = BarrierKey.of(n.barrier(), t.grid());
        return new Place(-1, warpOf(n.group(), t), null, n.ptxLine(), key, -1);
    }

    /**
     * A roster entry of the selected barrier (a warp or a thread that arrived or has not): its
     * thread or warp, with that barrier kept selected so the roster stays in view.
     */
    public static Place of(BarrierDetail.Who who, BarrierKey barrier) {
        return new Place(who.slot(), who.warp(), null, 0, barrier, -1);
    }

    /** The global warp of an engine thread group, -1 if none or not in this launch. */
    static int warpOf(Deadlock.Group g, ThreadsState t) {
        if (g == null || g.cta() == null) return -1;
        int cta = g.cta().x() + g.cta().y() * t.grid().x() + g.cta().z() * t.grid().x() * t.grid().y();
        for (ThreadsState.Warp w : t.warps()) if (w.cta() == cta && w.warpInCta() == g.warp()) return w.warp();
        return -1;
    }

    /** Whether it names a thread or a warp. */
    public boolean hasThread() { return slot >= 0 || warp >= 0; }

    /** The threads tree row to select. */
    public String rowKey() {
        if (row != null) return row;
        return slot >= 0 ? ThreadNode.threadKey(slot) : ThreadNode.warpKey(warp);
    }
}
