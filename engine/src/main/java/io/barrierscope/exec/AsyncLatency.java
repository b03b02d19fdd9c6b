package io.barrierscope.exec;

/**
 * The latency model of asynchronous operations (cp.async, bulk and tensor copies, st.async):
 * virtual cycles from issue to completion, one warp step being one cycle. A launch file sets it
 * with {@code run.latency}; seeded policies draw each operation's latency uniformly from
 * [min, max], and round-robin, which draws nothing, takes the middle of the range.
 */
public record AsyncLatency(long min, long max) {
    /** The largest latency accepted (a billion cycles: far beyond any run's budget of steps). */
    public static final long LIMIT = 1_000_000_000L;
    /** Round-robin's latency when the launch sets none. */
    public static final AsyncLatency ROUND_ROBIN_DEFAULT = new AsyncLatency(100, 100);
    /** The seeded policies' range when the launch sets none. */
    public static final AsyncLatency SEEDED_DEFAULT = new AsyncLatency(20, 619);

    public AsyncLatency {
        if (min < 1 || max < min || max > LIMIT) {
            throw new IllegalArgumentException("an async latency range needs 1 <= min <= max <= " + LIMIT + ", not " + min + ".." + max);
        }
    }

    /** The latency of a policy that draws nothing. */
    public long middle() { return min + (max - min) / 2; }

    /**
     * One seeded draw from [min, max]. A fixed latency still takes a draw, so the policy's choices
     * that follow do not depend on the latency setting.
     */
    long draw(SplitMix64 rng) { return min + rng.nextInt((int) (max - min + 1)); }
}
