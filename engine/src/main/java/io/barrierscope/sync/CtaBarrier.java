package io.barrierscope.sync;

/**
 * One of a CTA's sixteen barriers (PTX ISA 9.7.13.1), as a small value with clear invariants:
 * {@code arrivedWarps} is the set of warps that arrived in the current generation, {@code count}
 * the thread count the generation was opened with, as the .u32 operand was written (its bits in
 * an int; -1, never a multiple of 32, for "all non-exited threads"), and the reduction
 * accumulators for {@code bar.red}. Completion resets it at once and bumps {@code generation}.
 */
public final class CtaBarrier {
    /** Which instruction forms the current generation has seen. */
    public enum Form { SYNC, ARRIVE, RED }

    public final int id;
    public long generation;
    public int arrivedWarps;
    /** Warps that arrived in some completed generation: an explanation never says they never arrived. */
    public int everArrivedWarps;
    public int count = -1;
    /** PC of the first arrival of each form this generation, or -1. */
    public final int[] firstPc = {-1, -1, -1};
    /** Whether the first arrival of each form used an aligned instruction. */
    public final boolean[] firstAligned = new boolean[3];
    public int redPopc;
    public boolean redAnd = true;
    public boolean redOr;

    public CtaBarrier(int id) { this.id = id; }

    public boolean active() { return arrivedWarps != 0; }

    /** Copies every field of {@code o} (same id) into this barrier: a checkpoint's take and restore. */
    public void copyFrom(CtaBarrier o) {
        if (o.id != id) throw new IllegalArgumentException("barrier " + o.id + " copied into barrier " + id);
        generation = o.generation;
        arrivedWarps = o.arrivedWarps;
        everArrivedWarps = o.everArrivedWarps;
        count = o.count;
        System.arraycopy(o.firstPc, 0, firstPc, 0, firstPc.length);
        System.arraycopy(o.firstAligned, 0, firstAligned, 0, firstAligned.length);
        redPopc = o.redPopc;
        redAnd = o.redAnd;
        redOr = o.redOr;
    }

    public int arrivedCount() { return Integer.bitCount(arrivedWarps); }

    /** Whether the open generation was opened with a thread count (rather than "all threads"). */
    public boolean hasCount() { return count != -1; }

    /** The open generation's thread count as written (0 .. 2^32-32, unsigned), or -1 without one. */
    public long writtenCount() { return hasCount() ? Integer.toUnsignedLong(count) : -1; }

    /**
     * How many warps the open generation needs (the one home of the fact, so the window and the
     * deadlock explanation agree): with a count, the warps that make up count threads (arrival
     * is per warp, rounded up as {@link #complete} counts them); without one, every warp with a
     * live thread ({@code liveWarps} is the CTA's mask of them).
     */
    public int warpsNeeded(int liveWarps) {
        return hasCount() ? (int) ((writtenCount() + 31) / 32) : Integer.bitCount(liveWarps);
    }

    /**
     * Whether the generation is complete: with a count, when count/32 warps arrived; without one,
     * when every warp that still has a live thread arrived.
     */
    public boolean complete(int liveWarps) {
        if (arrivedWarps == 0) return false;
        if (hasCount()) return arrivedCount() * 32L >= writtenCount();
        return (liveWarps & ~arrivedWarps) == 0;
    }

    /** Starts the next generation. */
    public void reset() {
        generation++;
        everArrivedWarps |= arrivedWarps;
        arrivedWarps = 0;
        count = -1;
        java.util.Arrays.fill(firstPc, -1);
        java.util.Arrays.fill(firstAligned, false);
        redPopc = 0;
        redAnd = true;
        redOr = false;
    }


    @Override
    public String toString() {
        return "barrier " + id + " gen " + generation + " arrived " + arrivedCount() + " warps"
                + (hasCount() ? " of " + (writtenCount() / 32) : " (all live warps)");
    }
}
