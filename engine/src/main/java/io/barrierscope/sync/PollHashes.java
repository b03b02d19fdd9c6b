package io.barrierscope.sync;

import io.barrierscope.exec.Machine;

/**
 * The register part of a poll's fixpoint state ({@link MbarrierWaitOp}), folded for every lane
 * of one execution of the poll at once: a poll's loop may be decided by some 40 registers, and
 * one lane's fold is a chain of dependent multiplies, so the lanes' chains go side by side (the
 * registers of the lanes of a warp are adjacent). The values are exactly the lane-by-lane ones;
 * they are kept only within the one execution that computed them (per run, never saved).
 */
final class PollHashes {
    static final long MIX = 0x9E3779B97F4A7C15L;

    /** Below this many registers a lane's own fold is as cheap as the batch. */
    static final int BATCH_MIN = 4;

    private final long[] hash = new long[32];
    /** Lanes of the current execution still to poll (set before its lanes go, in lane order). */
    private int pending;
    /** Lanes whose {@link #hash} belongs to the current execution, and the seed they were folded from. */
    private int ready;
    private long seed;

    /** A poll's execution begins with these lanes. */
    void begin(int active) {
        pending = active;
        ready = 0;
    }

    /** One lane's fold of {@code regs} (absolute indices) from {@code h}, as the lanes' batch computes it. */
    static long fold(Machine m, int slot, int[] regs, long h) {
        for (int r : regs) h = Long.rotateLeft(h ^ m.reg(slot, r), 27) * MIX;
        return h;
    }

    /**
     * The fold for {@code slot} from {@code h}: from the batch when it was made for this lane with
     * this seed in the current execution, else a new batch for this lane and the later lanes of
     * the execution (their registers cannot change before they poll: a lane writes only its own).
     */
    long of(Machine m, int slot, int[] regs, long h) {
        int lane = slot & 31;
        int bit = 1 << lane;
        if ((ready & bit) != 0 && seed == h) return hash[lane];
        int lanes = (pending & -bit) | bit;
        long[] file = m.regs;
        int warpBase = m.regIndex(slot & ~31, 0);
        long[] out = hash;
        if (lanes == -1) {
            java.util.Arrays.fill(out, h);
            for (int r : regs) {
                int at = warpBase + (r << 5);
                for (int l = 0; l < 32; l++) out[l] = Long.rotateLeft(out[l] ^ file[at + l], 27) * MIX;
            }
        } else {
            for (int g = lanes; g != 0; g &= g - 1) out[Integer.numberOfTrailingZeros(g)] = h;
            for (int r : regs) {
                int at = warpBase + (r << 5);
                for (int g = lanes; g != 0; g &= g - 1) {
                    int l = Integer.numberOfTrailingZeros(g);
                    out[l] = Long.rotateLeft(out[l] ^ file[at + l], 27) * MIX;
                }
            }
        }
        ready = lanes;
        seed = h;
        return out[lane];
    }
}
