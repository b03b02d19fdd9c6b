package io.barrierscope.trace;

import io.barrierscope.exec.ThreadStatus;

/**
 * What a warp is doing, derived from the statuses of its lanes: the one rule shared by the
 * Chrome export's warp tracks ({@link WarpStateTracker}) and the window's timeline.
 *
 * <p>The rule: a warp is <em>running</em> while any of its live lanes is runnable; <em>exited</em>
 * (or <em>trapped</em>, if a lane trapped) once none is live; otherwise it is in the state of its
 * most blocked live lane, in this order, most blocked first: waiting at barrier.cluster.wait,
 * waiting at a CTA barrier, suspended in mbarrier.try_wait, parked (re-polling an unchanged
 * mbarrier), waiting for its asynchronous copies, sleeping, then the warp-level gathers (lanes at
 * barrier.cluster or a CTA barrier waiting only for the rest of their own warp, which count as that
 * barrier's wait) and last warp syncs (a warp sync waits only for lanes of the same warp, which are
 * themselves held by one of the reasons above).
 *
 * <p>Ordinals are used as compact codes (a byte per span) by the timeline: append only.
 */
public enum WarpState {
    RUNNING("running"),
    CLUSTER_BARRIER("waiting at cluster barrier"),
    CTA_BARRIER("waiting at CTA barrier"),
    MBARRIER("waiting on mbarrier"),
    PARKED("parked"),
    ASYNC("waiting for async copies"),
    SLEEPING("sleeping"),
    WARP_SYNC("waiting at warp sync"),
    BLOCKED("blocked"),
    EXITED("exited"),
    TRAPPED("trapped");

    private static final WarpState[] VALUES = values();

    private final String label;

    WarpState(String label) { this.label = label; }

    /** How the state is named to a user (and in the Chrome export's slices). */
    public String label() { return label; }

    public static WarpState of(int ordinal) { return VALUES[ordinal]; }

    /**
     * The state of the warp whose lanes' statuses start at {@code status[base]}, given the lanes
     * that exist ({@code existMask}); see the class comment.
     */
    public static WarpState of(byte[] status, int base, int existMask) {
        int bestRank = -1;
        byte best = ThreadStatus.RUNNABLE;
        boolean trapped = false;
        for (int l = existMask; l != 0; l &= l - 1) {
            byte s = status[base + Integer.numberOfTrailingZeros(l)];
            if (s == ThreadStatus.RUNNABLE) return RUNNING;
            if (s == ThreadStatus.EXITED) continue;
            if (s == ThreadStatus.TRAPPED) {
                trapped = true;
                continue;
            }
            int r = rank(s);
            if (r > bestRank) {
                bestRank = r;
                best = s;
            }
        }
        if (bestRank < 0) return trapped ? TRAPPED : EXITED;
        return ofStatus(best);
    }

    /** How blocked a waiting lane is (higher: more); see the class comment. */
    public static int rank(byte s) {
        return switch (s) {
            case ThreadStatus.CLUSTER_WAIT -> 9;
            case ThreadStatus.BAR_WAIT -> 8;
            case ThreadStatus.MBAR_WAIT -> 7;
            case ThreadStatus.PARKED -> 6;
            case ThreadStatus.ASYNC_WAIT -> 5;
            case ThreadStatus.SLEEPING -> 4;
            case ThreadStatus.CLUSTER_GATHER -> 3;
            case ThreadStatus.BAR_GATHER -> 2;
            case ThreadStatus.WARP_SYNC -> 1;
            default -> 0;
        };
    }

    /** The warp state a single lane's status stands for. */
    public static WarpState ofStatus(byte s) {
        return switch (s) {
            case ThreadStatus.RUNNABLE -> RUNNING;
            case ThreadStatus.CLUSTER_WAIT, ThreadStatus.CLUSTER_GATHER -> CLUSTER_BARRIER;
            case ThreadStatus.BAR_WAIT, ThreadStatus.BAR_GATHER -> CTA_BARRIER;
            case ThreadStatus.MBAR_WAIT -> MBARRIER;
            case ThreadStatus.PARKED -> PARKED;
            case ThreadStatus.ASYNC_WAIT -> ASYNC;
            case ThreadStatus.SLEEPING -> SLEEPING;
            case ThreadStatus.WARP_SYNC -> WARP_SYNC;
            case ThreadStatus.EXITED -> EXITED;
            case ThreadStatus.TRAPPED -> TRAPPED;
            default -> BLOCKED;
        };
    }
}
