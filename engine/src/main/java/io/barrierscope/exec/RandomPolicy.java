package io.barrierscope.exec;

/** A seeded random runnable warp, and a seeded random convergence group within it, with bounded delays ({@link Fairness}). */
public final class RandomPolicy implements Policy {
    private final SplitMix64 rng;
    private int[] scratch = new int[0];
    private final Fairness fairness = new Fairness();

    private final AsyncLatency latency;

    public RandomPolicy(long seed) { this(seed, null); }

    /** With the launch's latency model, or the default range when null. */
    public RandomPolicy(long seed, AsyncLatency latency) {
        this.rng = new SplitMix64(seed);
        this.latency = latency != null ? latency : AsyncLatency.SEEDED_DEFAULT;
    }

    @Override
    public int pickWarp(Interpreter x) {
        Machine m = x.machine();
        int w = fairness.overdueWarp(m);
        if (w < 0) w = chooseWarp(x);
        if (w >= 0) fairness.warpPicked(m, w);
        return w;
    }

    @Override
    public int pickGroup(Interpreter x, int warp) {
        Machine m = x.machine();
        int g = fairness.overdueGroup(m, warp);
        if (g == 0) g = chooseGroup(x, warp);
        fairness.groupPicked(m, warp, g);
        return g;
    }

    private int chooseWarp(Interpreter x) {
        Machine m = x.machine();
        if (scratch.length < m.warps) scratch = new int[m.warps];
        int n = 0;
        for (int w = 0; w < m.warps; w++) if (m.runMask[w] != 0) scratch[n++] = w;
        return n == 0 ? -1 : scratch[rng.nextInt(n)];
    }

    private int chooseGroup(Interpreter x, int warp) {
        Machine m = x.machine();
        int run = m.runMask[warp];
        int k = rng.nextInt(Integer.bitCount(run));
        int r = run;
        for (int i = 0; i < k; i++) r &= r - 1;
        return Policy.sameLanes(m, warp, run, Integer.numberOfTrailingZeros(r));
    }

    @Override
    public boolean tryWaitReturnsEarly() { return rng.nextInt(4) == 0; }

    @Override
    public long asyncLatency() { return latency.draw(rng); }

    @Override
    public long[] saveState() { return fairness.save(rng.state()); }

    @Override
    public void restoreState(long[] state) {
        if (state.length < 2) throw new IllegalArgumentException("not a " + name() + " policy state");
        rng.setState(state[0]);
        fairness.restore(state, 1);
    }

    @Override
    public String name() { return "random"; }
}
