package io.barrierscope.explore;

import io.barrierscope.launch.MemoryEstimate;

/** The exploration's fixed budgets and intervals, in one place: results depend on them, never on the clock. */
final class ExploreTuning {
    private ExploreTuning() {}

    /** Replays the minimisation of one finding may take, whatever the clock says (so a result does not depend on it). */
    static final int MAX_MINIMIZE_REPLAYS = 2_000;
    /** Steps between two looks at the clock and at a cancel inside one schedule. */
    static final int LIMIT_CHECK_STEPS = 1_024;
    /** States up to this size are hashed at every decision (hash cost bounded by it). */
    static final long FULL_HASH_BYTES = 1L << 20;
    /** Above {@link #FULL_HASH_BYTES}, at most this many state bytes are hashed per warp step, on average. */
    static final long HASH_BYTES_PER_STEP = 16;
    /** Above this state size the checkpoint interval grows (one step per this many bytes), as checkpoints copy the state. */
    static final long CHECKPOINT_BYTES_PER_STEP = MemoryEstimate.EXPLORE_CHECKPOINT_BYTES_PER_STEP;
    /** Steps between the checkpoints of a run whose alternatives are enumerated. */
    static final int CHECKPOINT_INTERVAL = MemoryEstimate.EXPLORE_CHECKPOINT_INTERVAL;
    /** Decision boundaries after a fork at which the state is compared with explored ones. */
    static final int HASHES_AFTER_FORK = 3;
    /** Share of the budgets the systematic phase may use before random search takes over. */
    static final double SYSTEMATIC_SHARE = 0.7;
    /**
     * Share of the budgets the unbounded source-set search that tries to exhaust a small kernel may use
     * ({@link ExhaustionPass}), on top of the systematic share: it comes out of the random phase's.
     */
    static final double EXHAUST_SHARE = 0.2;
    /** Deepest bound that search goes to (a kernel not exhausted by then is not small). */
    static final int EXHAUST_MAX_BOUND = 64;
}
