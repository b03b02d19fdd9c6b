package io.barrierscope.exec;

/** What a thread is doing, kept as a byte per thread in {@link Machine#status}. */
public final class ThreadStatus {
    private ThreadStatus() {}

    /** Can execute its next instruction. */
    public static final byte RUNNABLE = 0;
    /** Reached a CTA barrier; waiting for the rest of its warp to reach a barrier on the same id. */
    public static final byte BAR_GATHER = 1;
    /** Its warp arrived at a CTA barrier (.sync/.red); waiting for the barrier to complete. */
    public static final byte BAR_WAIT = 2;
    /** Executing a warp .sync instruction; waiting for the other members of its mask. */
    public static final byte WARP_SYNC = 3;
    /** Sleeping in nanosleep until {@link Machine#wakeTime}. */
    public static final byte SLEEPING = 4;
    /** Executed exit or returned from the entry. */
    public static final byte EXITED = 5;
    /** Stopped by trap or a fault. */
    public static final byte TRAPPED = 6;
    /** Suspended in mbarrier.try_wait until the phase completes or its time limit passes. */
    public static final byte MBAR_WAIT = 7;
    /** Re-polling an mbarrier that has not changed, with no side effect in between: not progress. */
    public static final byte PARKED = 8;
    /** Reached barrier.cluster; waiting for the rest of its warp to reach one too. */
    public static final byte CLUSTER_GATHER = 9;
    /** In barrier.cluster.wait: waiting for every non-exited thread of the cluster to arrive. */
    public static final byte CLUSTER_WAIT = 10;
    /** In cp.async.wait_group / cp.async.bulk.wait_group: waiting for its own copies to complete. */
    public static final byte ASYNC_WAIT = 11;

    public static String name(byte s) {
        return switch (s) {
            case RUNNABLE -> "runnable";
            case BAR_GATHER -> "at CTA barrier (waiting for its warp)";
            case BAR_WAIT -> "waiting at CTA barrier";
            case WARP_SYNC -> "waiting at warp sync";
            case SLEEPING -> "sleeping";
            case EXITED -> "exited";
            case TRAPPED -> "trapped";
            case MBAR_WAIT -> "suspended in mbarrier.try_wait";
            case PARKED -> "parked (polling an mbarrier that cannot change)";
            case CLUSTER_GATHER -> "at barrier.cluster (waiting for its warp)";
            case CLUSTER_WAIT -> "waiting at barrier.cluster.wait";
            case ASYNC_WAIT -> "waiting for its asynchronous copies";
            default -> "unknown";
        };
    }
}
