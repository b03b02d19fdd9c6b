package io.barrierscope.exec;

/**
 * The kinds of synchronization event the interpreter reports through
 * {@link ExecutionListener#syncEvent}. Each says what its {@code object}, {@code a} and {@code b}
 * mean; {@code slot} is the acting thread (for asynchronous operations the issuing thread; -1 for
 * completions, which no thread performs).
 * CTA barriers are named {@code cta << 32 | id}, mbarriers by {@code cta << 32 | shared offset}
 * ({@link io.barrierscope.sync.MbarrierUnit#key}), cluster barriers by their first CTA.
 * Ordinals are stored in trace files: append only, never reorder.
 */
public enum SyncEvent {
    /** A warp arrived on a CTA barrier; slot = its lowest arriving lane, a = generation, b = arriving lanes. */
    BAR_ARRIVE,
    /** A CTA barrier generation completed; a = the generation completed, b = warps released (mask). */
    BAR_COMPLETE,
    /** mbarrier.init; a = expected count. */
    MBAR_INIT,
    /** An arrive-on; a = count, b = pending arrivals after it. */
    MBAR_ARRIVE,
    /** expect-tx; a = bytes, b = tx-count after it. */
    MBAR_EXPECT_TX,
    /** complete-tx (a copy landing or an explicit complete_tx); a = bytes, b = tx-count after it. */
    MBAR_COMPLETE_TX,
    /** A phase completed; a = the phase number completed, b = threads released from suspended waits. */
    MBAR_PHASE_COMPLETE,
    /** test_wait/try_wait returned false; a = the phase (or parity) waited for, b = 1 for a parity wait. */
    MBAR_WAIT_FALSE,
    /** An asynchronous operation was issued; object = its id, a = bytes, b = the mbarrier it signals or -1. */
    ASYNC_ISSUE,
    /** An asynchronous operation completed; object = its id, a = bytes, b = the mbarrier it signals or -1. */
    ASYNC_LAND,
    /** A thread arrived on barrier.cluster; a = the phase. */
    CLUSTER_ARRIVE,
    /** The cluster barrier completed; a = the phase completed. */
    CLUSTER_COMPLETE,
    /** mbarrier.inval; a = the phase it was in. */
    MBAR_INVAL,
    /**
     * A warp issued a wgmma.mma_async (its share of the warpgroup's operation); slot = the warp's
     * lane 0, object = the warp's issue number (0, 1, ...), a = the instruction's PC, b = the first
     * warp of the warpgroup. New in trace format 3.
     */
    WGMMA_ISSUE,
    /** wgmma.commit_group by a warp; slot = its lane 0, object = the group's number (0, 1, ...), a = operations committed to it. */
    WGMMA_COMMIT,
    /**
     * A wgmma.wait_group retired one of the warp's operations (its result landed in the
     * accumulators); slot = the warp's lane 0, object = the operation's issue number, a = its group.
     */
    WGMMA_RETIRE;

    private static final SyncEvent[] VALUES = values();

    public static SyncEvent of(int ordinal) { return VALUES[ordinal]; }
}
