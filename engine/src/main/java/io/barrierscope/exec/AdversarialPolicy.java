package io.barrierscope.exec;

/**
 * Delays barrier completion to expose schedule bugs: a warp whose next instruction is a
 * synchronizing one (a barrier, a warp .sync op) runs only when no other warp can run; among
 * the others, and among groups, the choice is seeded random. Delays are bounded ({@link Fairness}):
 * a warp passed over too long runs next, so a warp spinning on a flag cannot starve one at a barrier.
 */
public final class AdversarialPolicy implements Policy {
    private final SplitMix64 rng;
    private int[] scratch = new int[0];
    private final Fairness fairness = new Fairness();

    private final AsyncLatency latency;

    public AdversarialPolicy(long seed) { this(seed, null); }

    /** With the launch's latency model, or the default range when null. */
    public AdversarialPolicy(long seed, AsyncLatency latency) {
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
        int calm = 0;
        int syncing = 0;
        for (int w = 0; w < m.warps; w++) {
            int run = m.runMask[w];
            if (run == 0) continue;
            boolean sync = x.op(m.pc[(w << 5) + Integer.numberOfTrailingZeros(run)]).isSynchronizing();
            if (sync) scratch[m.warps - 1 - syncing++] = w;
            else scratch[calm++] = w;
        }
        if (calm > 0) return scratch[rng.nextInt(calm)];
        if (syncing > 0) return scratch[m.warps - 1 - rng.nextInt(syncing)];
        return -1;
    }

    private int chooseGroup(Interpreter x, int warp) {
        Machine m = x.machine();
        int run = m.runMask[warp];
        int calm = 0;
        int all = 0;
        for (int r = run; r != 0; ) {
            int l = Integer.numberOfTrailingZeros(r);
            int g = Policy.sameLanes(m, warp, r, l);
            r &= ~g;
            all++;
            if (!x.op(m.pc[(warp << 5) + l]).isSynchronizing()) calm++;
        }
        boolean preferCalm = calm > 0;
        int k = rng.nextInt(preferCalm ? calm : all);
        for (int r = run; r != 0; ) {
            int l = Integer.numberOfTrailingZeros(r);
            int g = Policy.sameLanes(m, warp, r, l);
            r &= ~g;
            if (preferCalm && x.op(m.pc[(warp << 5) + l]).isSynchronizing()) continue;
            if (k-- == 0) return g;
        }
        return Policy.lowestPcGroup(m, warp, run);
    }

    @Override
    public boolean tryWaitReturnsEarly() { return rng.nextInt(2) == 0; }

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
    public String name() { return "adversarial"; }
}
