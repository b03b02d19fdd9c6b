package io.barrierscope.exec;

/**
 * The seeded policies' common frame: a seeded generator, the launch's latency model and the
 * bounded-delay rule ({@link Fairness}) that runs a warp or group passed over too long before
 * the subclass gets to choose. Subclasses say only how they choose among the rest.
 */
abstract class FairPolicy implements Policy {
    protected final SplitMix64 rng;
    private int[] scratch = new int[0];
    private final Fairness fairness = new Fairness();
    private final AsyncLatency latency;

    /** With the launch's latency model, or the default range when null. */
    FairPolicy(long seed, AsyncLatency latency) {
        this.rng = new SplitMix64(seed);
        this.latency = latency != null ? latency : AsyncLatency.SEEDED_DEFAULT;
    }

    /** A runnable warp chosen by the subclass's rule, or -1 when none can run. */
    protected abstract int chooseWarp(Interpreter x);

    /** A convergence group (lane mask) of {@code warp} chosen by the subclass's rule. */
    protected abstract int chooseGroup(Interpreter x, int warp);

    @Override
    public final int pickWarp(Interpreter x) {
        Machine m = x.machine();
        int w = fairness.overdueWarp(m);
        if (w < 0) w = chooseWarp(x);
        if (w >= 0) fairness.warpPicked(m, w);
        return w;
    }

    @Override
    public final int pickGroup(Interpreter x, int warp) {
        Machine m = x.machine();
        int g = fairness.overdueGroup(m, warp);
        if (g == 0) g = chooseGroup(x, warp);
        fairness.groupPicked(m, warp, g);
        return g;
    }

    /** Makes sure {@link #scratch} holds at least {@code n} entries. */
    protected final int[] scratch(int n) {
        if (scratch.length < n) scratch = new int[n];
        return scratch;
    }

    @Override
    public final long asyncLatency() { return latency.draw(rng); }

    @Override
    public final long[] saveState() { return fairness.save(rng.state()); }

    @Override
    public final void restoreState(long[] state) {
        if (state.length < 2) throw new IllegalArgumentException("not a " + name() + " policy state");
        rng.setState(state[0]);
        fairness.restore(state, 1);
    }
}
