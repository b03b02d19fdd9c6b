package io.barrierscope.exec;

/**
 * Delays barrier completion to expose schedule bugs: a warp whose next instruction is a
 * synchronizing one (a barrier, a warp .sync op) runs only when no other warp can run; among
 * the others, and among groups, the choice is seeded random. Delays are bounded ({@link Fairness}):
 * a warp passed over too long runs next, so a warp spinning on a flag cannot starve one at a barrier.
 */
public final class AdversarialPolicy extends FairPolicy {
    public AdversarialPolicy(long seed) { this(seed, null); }

    /** With the launch's latency model, or the default range when null. */
    public AdversarialPolicy(long seed, AsyncLatency latency) { super(seed, latency); }

    @Override
    protected int chooseWarp(Interpreter x) {
        Machine m = x.machine();
        int[] scratch = scratch(m.warps);
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

    @Override
    protected int chooseGroup(Interpreter x, int warp) {
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
    public String name() { return "adversarial"; }
}
