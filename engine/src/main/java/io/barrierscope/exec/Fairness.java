package io.barrierscope.exec;

/**
 * Bounded delays for the policies (semantics.md section 12): however a policy prefers some warps
 * or groups, a runnable warp is passed over at most {@link #WARP_BOUND} picks in a row, and once
 * {@link #GROUP_BOUND} steps of a warp have gone by without every runnable lane having had a
 * turn, the next step goes to the group of a lane still waiting (the lowest one). So no warp and
 * no convergence group is starved forever: a correct kernel whose warps or lanes hand off through
 * memory (a flag spun on with an atomic) completes under every policy. Its counters are policy
 * state.
 */
final class Fairness {
    static final int WARP_BOUND = 256;
    static final int GROUP_BOUND = 64;

    /** Per warp: consecutive picks it was runnable and not chosen. */
    private int[] passed = new int[0];
    /** Per warp: lanes that ran since the warp's last full round (every runnable lane had a turn). */
    private int[] served = new int[0];
    /** Per warp: its steps since that last full round. */
    private int[] steps = new int[0];

    private void size(int warps) {
        if (passed.length < warps) {
            passed = java.util.Arrays.copyOf(passed, warps);
            served = java.util.Arrays.copyOf(served, warps);
            steps = java.util.Arrays.copyOf(steps, warps);
        }
    }

    /** The runnable warp passed over longest when that reached the bound (lowest index on ties), else -1. */
    int overdueWarp(Machine m) {
        size(m.warps);
        int best = -1;
        for (int w = 0; w < m.warps; w++) {
            if (m.runMask[w] != 0 && passed[w] >= WARP_BOUND && (best < 0 || passed[w] > passed[best])) best = w;
        }
        return best;
    }

    /** Counts the pick of {@code chosen}: every other runnable warp was passed over once more. */
    void warpPicked(Machine m, int chosen) {
        size(m.warps);
        for (int w = 0; w < m.warps; w++) passed[w] = m.runMask[w] != 0 && w != chosen ? passed[w] + 1 : 0;
    }

    /** The group of the lowest runnable lane of {@code warp} still waiting for a turn, once the bound is reached; else 0. */
    int overdueGroup(Machine m, int warp) {
        size(m.warps);
        int waiting = m.runMask[warp] & ~served[warp];
        if (steps[warp] < GROUP_BOUND || waiting == 0) return 0;
        return Policy.sameLanes(m, warp, m.runMask[warp], Integer.numberOfTrailingZeros(waiting));
    }

    /** Counts the step of {@code group}; a full round (no runnable lane left waiting) starts the count again. */
    void groupPicked(Machine m, int warp, int group) {
        size(m.warps);
        served[warp] |= group;
        if ((m.runMask[warp] & ~served[warp]) == 0) {
            served[warp] = 0;
            steps[warp] = 0;
        } else {
            steps[warp]++;
        }
    }

    /** The counters, after {@code head} leading values of the policy's own. */
    long[] save(long... head) {
        int n = passed.length;
        long[] s = java.util.Arrays.copyOf(head, head.length + 1 + 3 * n);
        s[head.length] = n;
        for (int i = 0; i < n; i++) {
            s[head.length + 1 + i] = passed[i];
            s[head.length + 1 + n + i] = served[i];
            s[head.length + 1 + 2 * n + i] = steps[i];
        }
        return s;
    }

    /** Puts back counters saved after {@code from} leading values. */
    void restore(long[] s, int from) {
        int n = (int) s[from];
        if (s.length != from + 1 + 3 * n) throw new IllegalArgumentException("not a fairness state");
        passed = new int[n];
        served = new int[n];
        steps = new int[n];
        for (int i = 0; i < n; i++) {
            passed[i] = (int) s[from + 1 + i];
            served[i] = (int) s[from + 1 + n + i];
            steps[i] = (int) s[from + 1 + 2 * n + i];
        }
    }
}
