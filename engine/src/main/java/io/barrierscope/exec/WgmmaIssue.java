package io.barrierscope.exec;

import java.util.IdentityHashMap;

/** One wgmma.mma_async of one warpgroup, as {@link WgmmaGroups} tracks it from issue to landing. */
final class WgmmaIssue {
    final WgmmaOp op;
    final int first;
    final int seq;
    WgmmaGroups.Part[] parts = new WgmmaGroups.Part[4];
    int joined;
    /**
     * Per warp, the accumulator registers' 32 bits once formed (register-major); null while
     * {@link #sums} holds them unrounded (see {@link #materialize}).
     */
    int[][] result;
    /**
     * An f32 operation's unrounded 64 x N sums ({@link WgmmaOp#compute}), kept instead of
     * {@link #result} until something needs the bits: the next operation of a chain over K rounds
     * them itself, and a result every warp lands under a later one of the same registers is never
     * encoded at all.
     */
    double[] sums;
    /** Warps (bits 0..3 of the warpgroup) that have landed it. */
    int landed;
    WgmmaGroups.Reads reads;
    boolean checked;
    /** Per warp of the warpgroup: the group it was committed to, or -1 while open. */
    long[] group = {-1, -1, -1, -1};
    /**
     * Per warp, per accumulator register: the earlier operation of the warp still in flight
     * when it issued this one that writes the register (its result is this one's input), or null.
     */
    WgmmaIssue[][] from = new WgmmaIssue[4][];
    int[][] fromIdx = new int[4][];
    /**
     * Per warp, its accumulator registers read at issue (register-major; those in {@link #from} are 0),
     * or null when scale-d is false in every lane or {@link #from} feeds every register.
     */
    int[][] dIn = new int[4][];

    WgmmaIssue(WgmmaOp op, int first, int seq) {
        this.op = op;
        this.first = first;
        this.seq = seq;
    }

    boolean formed() { return result != null || sums != null; }

    /** Makes {@link #result} from {@link #sums} if it is not made yet. */
    void materialize() {
        if (result != null || sums == null) return;
        result = op.encode(sums);
        WgmmaOp.Scratch.MINE.get().release(sums);
        sums = null;
    }

    WgmmaIssue copy() {
        materialize(); // checkpoints share results, never sums
        WgmmaIssue c = new WgmmaIssue(op, first, seq);
        c.parts = parts.clone();
        c.joined = joined;
        c.result = result;
        c.reads = reads;
        c.checked = checked;
        c.landed = landed;
        c.group = group.clone();
        c.from = from.clone();
        for (int r = 0; r < 4; r++) if (from[r] != null) c.from[r] = from[r].clone();
        c.fromIdx = fromIdx.clone();
        c.dIn = dIn.clone();
        return c;
    }

    /** Points {@link #from} at the copies made in the same checkpoint (landed ones keep their result). */
    void remap(IdentityHashMap<WgmmaIssue, WgmmaIssue> copies) {
        for (WgmmaIssue[] f : from) {
            if (f == null) continue;
            for (int i = 0; i < f.length; i++) if (f[i] != null && copies.containsKey(f[i])) f[i] = copies.get(f[i]);
        }
    }
}
