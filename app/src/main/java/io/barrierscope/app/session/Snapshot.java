package io.barrierscope.app.session;

import io.barrierscope.check.Deadlock;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import java.util.List;
import java.util.Map;

/**
 * What the views show of a run at one moment, captured on the engine thread and handed to the
 * FX thread. Immutable: the engine keeps running while the FX thread reads it.
 *
 * @param focusWarp   the warp the views follow (the one that took the last step), -1 if none
 * @param focusName   its name and state, e.g. "CTA (0,0,0) warp 1 · runnable"
 * @param focusLine   1-based PTX line of its next instruction, 0 if none
 * @param focusLoc    the CUDA location of that instruction, or null
 * @param lastAction  what the last step did, e.g. "CTA (0,0,0) warp 1 executed line 40: bar.sync 0;"
 * @param warpsAtLine for each PTX line where live warps stand, how many
 * @param barriers    the CTA barriers in use, by CTA then barrier
 * @param mbarriers   the valid mbarrier objects, by CTA then shared offset
 * @param clusterBarriers the cluster barriers in use, one per cluster, by rank-0 CTA
 * @param deadlock    the wait-for explanation when the run ended in deadlock, else null
 * @param threads     every thread's state
 * @param inspection  the inspected thread's registers and its CTA's shared memory, or null
 * @param report      the end-of-run text (summary, deadlock explanation, diagnostics, output);
 *                    null while the run goes on
 * @param cause       which command produced it
 * @param travel      where the position stands in the recording and why the last move stopped
 */
public record Snapshot(Outcome outcome, long steps, long cycles, long maxSteps,
                       int focusWarp, String focusName, int focusLine, CudaLoc focusLoc, String lastAction,
                       Map<Integer, Integer> warpsAtLine, List<BarrierRow> barriers,
                       List<MbarrierRow> mbarriers, List<ClusterBarrierRow> clusterBarriers,
                       List<Diagnostic> diagnostics, Deadlock deadlock,
                       ThreadsState threads, Inspection inspection, String report, Cause cause, Travel travel) {

    /** What a snapshot follows: an open or reset, a move (either way), a refresh during a run, a run's end. */
    public enum Cause { OPENED, STEPPED, RUN_PROGRESS, RUN_END }

    /**
     * The position against the recording.
     *
     * @param frontier      the furthest step executed so far
     * @param complete      whether the recording reached the run's end (so the frontier is the last step)
     * @param stop          why the last move stopped, for people ("" when it simply moved)
     * @param hitBreakpoint the number of the breakpoint it stopped at, or -1
     * @param recorded      every diagnostic up to the frontier, also those after the position
     */
    public record Travel(long frontier, boolean complete, String stop, int hitBreakpoint, List<Diagnostic> recorded) {
        public static final Travel NONE = new Travel(0, false, "", -1, List.of());
    }

    /** A snapshot without time travel information (tests). */
    public Snapshot(Outcome outcome, long steps, long cycles, long maxSteps,
                    int focusWarp, String focusName, int focusLine, CudaLoc focusLoc, String lastAction,
                    Map<Integer, Integer> warpsAtLine, List<BarrierRow> barriers,
                    List<MbarrierRow> mbarriers, List<ClusterBarrierRow> clusterBarriers,
                    List<Diagnostic> diagnostics, Deadlock deadlock,
                    ThreadsState threads, Inspection inspection, String report, Cause cause) {
        this(outcome, steps, cycles, maxSteps, focusWarp, focusName, focusLine, focusLoc, lastAction, warpsAtLine, barriers,
                mbarriers, clusterBarriers, diagnostics, deadlock, threads, inspection, report, cause,
                new Travel(steps, outcome != Outcome.RUNNING, "", -1, diagnostics));
    }

    /** A snapshot without CUDA location, deadlock, threads or inspection (view model tests). */
    public Snapshot(Outcome outcome, long steps, long cycles, long maxSteps,
                    int focusWarp, String focusName, int focusLine, String lastAction,
                    Map<Integer, Integer> warpsAtLine, List<BarrierRow> barriers,
                    List<MbarrierRow> mbarriers, List<ClusterBarrierRow> clusterBarriers,
                    List<Diagnostic> diagnostics, String report, Cause cause) {
        this(outcome, steps, cycles, maxSteps, focusWarp, focusName, focusLine, null, lastAction, warpsAtLine,
                barriers, mbarriers, clusterBarriers, diagnostics, null, ThreadsState.EMPTY, null, report, cause);
    }

    /** A snapshot without mbarriers or cluster barriers either. */
    public Snapshot(Outcome outcome, long steps, long cycles, long maxSteps,
                    int focusWarp, String focusName, int focusLine, String lastAction,
                    Map<Integer, Integer> warpsAtLine, List<BarrierRow> barriers,
                    List<Diagnostic> diagnostics, String report, Cause cause) {
        this(outcome, steps, cycles, maxSteps, focusWarp, focusName, focusLine, lastAction, warpsAtLine,
                barriers, List.of(), List.of(), diagnostics, report, cause);
    }

    public boolean finished() { return outcome != Outcome.RUNNING; }
}
