package io.barrierscope.app.session;

import io.barrierscope.exec.Machine;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.Recording;
import io.barrierscope.trace.TimeTravel;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The moves through one recorded run and which warp the views follow after each. Forward moves
 * follow the warp that took the last step; backward moves follow the warp whose step was undone
 * (it is the one to execute next, so the highlighted line is the instruction taken back); warp
 * moves follow their warp; a breakpoint hit follows the warp that caused it. Engine thread only.
 */
final class Navigator {
    /** A warp step as the recording has it. */
    record WarpStep(int warp, int pc) {}

    final TimeTravel tt;
    private int follow;

    Navigator(TimeTravel tt) {
        this.tt = tt;
        this.threads = new ThreadCapture(tt.run());
        this.follow = settle(lastStep());
    }

    private BarrierEventIndex barrierEvents;
    /** The threads pane's capture, kept across moves so each move copies only what changed. */
    final ThreadCapture threads;
    /** The barrier pane's rows as last captured, so an unchanged list is handed on as the same object. */
    final LastRows rows = new LastRows();

    /**
     * The rows of the last capture: a list equal to the last one is replaced by it, so the panes
     * (which skip a list they already show) do no work for barriers a move did not touch.
     */
    static final class LastRows {
        private List<BarrierRow> barriers = List.of();
        private List<MbarrierRow> mbarriers = List.of();
        private List<ClusterBarrierRow> clusters = List.of();

        List<BarrierRow> barriers(List<BarrierRow> now) { return barriers = same(barriers, now); }
        List<MbarrierRow> mbarriers(List<MbarrierRow> now) { return mbarriers = same(mbarriers, now); }
        List<ClusterBarrierRow> clusterBarriers(List<ClusterBarrierRow> now) { return clusters = same(clusters, now); }

        private static <T> List<T> same(List<T> last, List<T> now) { return last.equals(now) ? last : now; }
    }

    /** The recording's barrier events by barrier, built as the recording grows. */
    BarrierEventIndex barrierEvents() {
        if (barrierEvents == null) barrierEvents = new BarrierEventIndex(tt.recording());
        return barrierEvents;
    }

    /** The warp the views follow, or -1 before anything moved. */
    int follow() { return follow; }

    /** During a run: follow whichever warp moved last (for progress snapshots). */
    void followLive() {
        if (tt.lastWarp() >= 0) follow = tt.lastWarp();
    }

    /** Makes {@code warp} the followed one (the user chose it); ignored if it does not exist. */
    void follow(int warp) {
        if (warp >= 0 && warp < tt.interpreter().machine().warps) follow = warp;
    }

    /** The warp moves act on: the given one, else the followed one, else the first live warp. */
    int focus(int chosen) {
        if (chosen >= 0) return chosen;
        if (follow >= 0) return follow;
        Machine m = tt.interpreter().machine();
        for (int w = 0; w < m.warps; w++) if (m.liveMask[w] != 0) return w;
        return 0;
    }

    TimeTravel.Stop move(Move move, int warp, BooleanSupplier cancel) {
        TimeTravel.Stop s = switch (move) {
            case STEP -> tt.step();
            case STEP_WARP -> tt.stepWarp(warp);
            case STEP_OVER -> tt.stepOver(warp);
            case CONTINUE -> tt.runForward(cancel);
            case STEP_BACK -> tt.stepBack();
            case STEP_BACK_WARP -> tt.stepBackWarp(warp);
            case STEP_BACK_OVER -> tt.stepBackOver(warp);
            case REVERSE_CONTINUE -> tt.reverseContinue();
        };
        if (s.hit() != null && s.hit().warp() >= 0) follow = s.hit().warp();
        else if (move.warpMove()) follow = warp;
        else follow = settle(move.forward ? lastStep() : nextStep());
        return s;
    }

    TimeTravel.Stop seek(long step) {
        TimeTravel.Stop s = tt.seek(step);
        follow = settle(nextStep());
        return s;
    }

    private int settle(WarpStep preferred) {
        if (preferred != null) return preferred.warp();
        WarpStep last = lastStep();
        return last != null ? last.warp() : follow;
    }

    /** The step that led to the current position, or null at the start. */
    WarpStep lastStep() { return stepAt(tt.now() - 1); }

    /** The step the recording says comes next, or null at the frontier. */
    WarpStep nextStep() { return tt.now() < tt.frontier() ? stepAt(tt.now()) : null; }

    private WarpStep stepAt(long step) {
        if (step < 0 || step >= tt.frontier()) return null;
        Recording r = tt.recording();
        EventCursor c = r.cursor(step);
        while (c.next() && c.step <= step) {
            if (c.type == EventCursor.Type.WARP_STEP && c.step == step) return new WarpStep(c.warp, c.pc);
        }
        return null;
    }
}
