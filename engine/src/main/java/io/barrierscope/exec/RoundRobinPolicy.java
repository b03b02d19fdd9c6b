package io.barrierscope.exec;

/**
 * Warps take turns, one step each. Within a warp the lowest-PC group runs, so divergent paths
 * reconverge; every 16th step of a divergent warp the highest-PC group runs instead, so a group
 * spinning on a flag cannot starve its warp-mates (independent thread scheduling guarantees
 * their progress); and a group still waiting after {@link Fairness#GROUP_BOUND} steps of its warp
 * runs next, so with three or more groups the middle ones are not starved either.
 */
public final class RoundRobinPolicy implements Policy {
    private int last = -1;
    private int streak;
    private final Fairness fairness = new Fairness();
    private final long latency;

    public RoundRobinPolicy() { this(null); }

    /** With the launch's latency model (the middle of its range), or the default when null. */
    public RoundRobinPolicy(AsyncLatency latency) {
        this.latency = (latency != null ? latency : AsyncLatency.ROUND_ROBIN_DEFAULT).middle();
    }

    @Override
    public long asyncLatency() { return latency; }

    @Override
    public int pickWarp(Interpreter x) {
        Machine m = x.machine();
        int n = m.warps;
        int w = last;
        for (int i = 1; i <= n; i++) {
            if (++w >= n) w = 0; // a compare, not a division, on every step
            if (m.runMask[w] != 0) {
                last = w;
                return w;
            }
        }
        return -1;
    }

    @Override
    public int pickGroup(Interpreter x, int warp) {
        Machine m = x.machine();
        int run = m.runMask[warp];
        int low = Policy.lowestPcGroup(m, warp, run);
        if (low == run) return run; // converged
        int g = fairness.overdueGroup(m, warp);
        if (g == 0) g = ++streak % 16 == 0 ? Policy.highestPcGroup(m, warp, run) : low;
        fairness.groupPicked(m, warp, g);
        return g;
    }

    @Override
    public long[] saveState() { return fairness.save(last, streak); }

    @Override
    public void restoreState(long[] state) {
        if (state.length < 3) throw new IllegalArgumentException("not a round-robin policy state");
        last = (int) state[0];
        streak = (int) state[1];
        fairness.restore(state, 2);
    }

    @Override
    public String name() { return "round-robin"; }
}
