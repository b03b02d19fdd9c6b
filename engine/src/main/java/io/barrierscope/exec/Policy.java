package io.barrierscope.exec;

/**
 * A deterministic scheduling policy: which runnable warp takes the next step and which of its
 * convergence groups executes. Same seed, same choices.
 */
public interface Policy {
    /** A warp with at least one runnable lane, or -1 if there is none. */
    int pickWarp(Interpreter x);

    /** The lanes (a subset of the runnable lanes, all at one PC) that execute the next step. */
    int pickGroup(Interpreter x, int warp);

    String name();

    /**
     * The policy's mutable state (random generator, turn counters) for a checkpoint; scratch
     * arrays are not state. Same state, same choices from here on.
     */
    long[] saveState();

    /** Puts back a state from {@link #saveState} of a policy of the same class. */
    void restoreState(long[] state);

    /**
     * Cycles until an asynchronous operation issued now completes. Seeded policies vary it, so
     * schedules that reorder copies are reproducible from the seed.
     */
    default long asyncLatency() { return 100; }

    /**
     * The launch's latency model (launch file run.latency), for a policy object made before the
     * launch was read (the explorer's): it takes it as its default. Named policies get it when made.
     */
    default void useLatency(AsyncLatency latency) {}

    /**
     * Whether a try_wait on an incomplete phase returns false at once instead of suspending (the
     * ISA allows it; correct kernels loop). Seeded policies sometimes do, to exercise those loops.
     */
    default boolean tryWaitReturnsEarly() { return false; }

    /** The policies a launch file, the command line and the window can name, default first. */
    java.util.List<String> NAMES = java.util.List.of("round-robin", "random", "adversarial");

    static Policy byName(String name, long seed) { return byName(name, seed, null); }

    /** The named policy with the launch's latency model ({@code null}: the policy's default). */
    static Policy byName(String name, long seed, AsyncLatency latency) {
        return switch (name) {
            case "round-robin" -> new RoundRobinPolicy(latency);
            case "random" -> new RandomPolicy(seed, latency);
            case "adversarial" -> new AdversarialPolicy(seed, latency);
            default -> throw new IllegalArgumentException("unknown policy '" + name
                    + "' (expected round-robin, random or adversarial)");
        };
    }

    /** The lanes of {@code runnable} whose PC equals that of lane {@code lane}. */
    static int sameLanes(Machine m, int warp, int runnable, int lane) {
        int base = warp << 5;
        int pc = m.pc[base + lane];
        if (runnable == m.existMask[warp]) {
            // The common case, a converged warp with every lane runnable.
            if (m.uniform[warp]) return runnable;
            int[] pcs = m.pc;
            boolean same = true;
            for (int r = runnable; r != 0; r &= r - 1) same &= pcs[base + Integer.numberOfTrailingZeros(r)] == pc;
            if (same) {
                m.uniform[warp] = true;
                return runnable;
            }
        }
        int group = 0;
        for (int r = runnable; r != 0; r &= r - 1) {
            int l = Integer.numberOfTrailingZeros(r);
            if (m.pc[base + l] == pc) group |= 1 << l;
        }
        return group;
    }

    /** The group with the highest PC (lets a group spinning behind a divergent branch make progress). */
    static int highestPcGroup(Machine m, int warp, int runnable) {
        int base = warp << 5;
        int best = -1;
        int bestLane = 0;
        for (int r = runnable; r != 0; r &= r - 1) {
            int l = Integer.numberOfTrailingZeros(r);
            if (m.pc[base + l] > best) {
                best = m.pc[base + l];
                bestLane = l;
            }
        }
        return sameLanes(m, warp, runnable, bestLane);
    }

    /** The group with the lowest PC (reconverges divergent paths at their join, as a SIMT stack would). */
    static int lowestPcGroup(Machine m, int warp, int runnable) {
        if (runnable == m.existMask[warp] && m.uniform[warp]) return runnable;
        // One pass: the lowest PC and the lanes at it together.
        int base = warp << 5;
        int[] pcs = m.pc;
        int best = Integer.MAX_VALUE;
        int group = 0;
        for (int r = runnable; r != 0; r &= r - 1) {
            int l = Integer.numberOfTrailingZeros(r);
            int p = pcs[base + l];
            if (p < best) {
                best = p;
                group = 1 << l;
            } else if (p == best) {
                group |= 1 << l;
            }
        }
        if (group == runnable && runnable == m.existMask[warp]) m.uniform[warp] = true;
        return group;
    }
}
