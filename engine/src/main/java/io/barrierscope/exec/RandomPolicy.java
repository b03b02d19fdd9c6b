package io.barrierscope.exec;

/** A seeded random runnable warp, and a seeded random convergence group within it, with bounded delays ({@link Fairness}). */
public final class RandomPolicy extends FairPolicy {
    public RandomPolicy(long seed) { this(seed, null); }

    /** With the launch's latency model, or the default range when null. */
    public RandomPolicy(long seed, AsyncLatency latency) { super(seed, latency); }

    @Override
    protected int chooseWarp(Interpreter x) {
        Machine m = x.machine();
        int[] scratch = scratch(m.warps);
        int n = 0;
        for (int w = 0; w < m.warps; w++) if (m.runMask[w] != 0) scratch[n++] = w;
        return n == 0 ? -1 : scratch[rng.nextInt(n)];
    }

    @Override
    protected int chooseGroup(Interpreter x, int warp) {
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
    public String name() { return "random"; }
}
