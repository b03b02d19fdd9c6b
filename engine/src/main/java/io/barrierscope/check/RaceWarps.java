package io.barrierscope.check;

/**
 * The race detector's operations on the lanes of one warp at once (semantics.md section 8): a
 * release of several lanes into one clock (a CTA barrier's or an mbarrier phase's), a warp .sync
 * that orders memory, and an acquire of one clock by several lanes. Each means exactly its lanes'
 * {@link RaceDetector#release} / {@link RaceDetector#acquire} in lane order, lane clocks that
 * differ included (an mbarrier.init starts a new epoch of its thread only); they exist for speed:
 * one join per distinct base, one entry per warp whose lanes' clocks agree, one shared base set once.
 */
final class RaceWarps {
    private final RaceDetector d;
    private final VectorClock.Builder scratch;

    RaceWarps(RaceDetector d) {
        this.d = d;
        scratch = new VectorClock.Builder(d.chunkCount, d.chunkSize);
    }

    /** {@link RaceDetector#release} for several lanes of one warp at once: their ids share one chunk. */
    void release(int warp, int lanes, VectorClock.Builder b) {
        int[] clock = d.clock;
        int s0 = warp << 5;
        VectorClock shared = d.warpBase[warp];
        if (shared != null) {
            b.join(shared);
        } else {
            VectorClock prev = null;
            for (int l = lanes; l != 0; l &= l - 1) {
                // The lanes of a warp usually share one base: join each distinct one once.
                VectorClock v = d.base[s0 + Integer.numberOfTrailingZeros(l)];
                if (v != prev) {
                    b.join(v);
                    prev = v;
                }
            }
        }
        int c = s0 / d.chunkSize;
        if (lanes == -1) {
            // A converged warp whose lanes' clocks agree raises one entry (when the chunk is by warp).
            if (VectorClock.uniform(clock, s0)) b.raiseWarp(c, (s0 - c * d.chunkSize) >> 5, clock[s0]);
            else VectorClock.raiseLanes(b.chunkForWrite(c), s0 - c * d.chunkSize, clock, s0);
            for (int lane = 0; lane < 32; lane++) clock[s0 + lane]++;
            return;
        }
        int[] ch = b.chunkForWrite(c);
        int i0 = s0 - c * d.chunkSize;
        for (int l = lanes; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = s0 + lane;
            if (ch[i0 + lane] < clock[s]) ch[i0 + lane] = clock[s];
            clock[s]++;
        }
    }

    /** The members of a warp .sync instruction that orders memory meet: each is ordered after all the others' earlier work. */
    void sync(int warp, int members) {
        int b0 = warp << 5;
        VectorClock shared = d.warpBase[warp];
        if (members == -1 && shared != null) {
            // The usual case, a whole warp with one base: the new base is that base with the warp's
            // entries raised (what the release into an empty builder and its snapshot would make),
            // built directly: one chunk copied, no builder joins, snapshots or clears.
            int c = b0 / d.chunkSize;
            int[][] chunks = java.util.Arrays.copyOf(shared.chunks, Math.max(shared.chunks.length, c + 1));
            chunks[c] = VectorClock.withWarpRaised(chunks[c], b0 - c * d.chunkSize, d.clock, b0, d.chunkSize);
            for (int lane = 0; lane < 32; lane++) d.clock[b0 + lane]++;
            d.warpBase[warp] = new VectorClock(chunks);
            return;
        }
        release(warp, members, scratch);
        VectorClock v = scratch.snapshot();
        scratch.clear();
        // v joins every member's clock, so it is every member's new base as it is.
        if (members == -1) d.warpBase[warp] = v;
        else for (int l = members; l != 0; l &= l - 1) d.setBase(b0 + Integer.numberOfTrailingZeros(l), v);
    }

    /**
     * {@link RaceDetector#acquire} of {@code v} by each lane of {@code lanes} of warp {@code w}, in
     * lane order. When the lanes are the whole warp and share a base, that ends with the warp sharing
     * the one joined clock: set it once, instead of splitting the warp into 32 bases and joining it again.
     */
    void acquire(int w, int lanes, VectorClock v) {
        int s0 = w << 5;
        int n = Math.min(32, d.slots - s0);
        VectorClock a = d.warpBase[w];
        if (a == null || lanes != (n == 32 ? -1 : (1 << n) - 1) || d.shadow.stoppedByClocks) {
            for (int l = lanes; l != 0; l &= l - 1) d.acquire(s0 + Integer.numberOfTrailingZeros(l), v);
            return;
        }
        VectorClock r = d.joinCached(a, v);
        if (d.shadow.stoppedByClocks) {
            // The join stopped the clocks: the rest as the lanes one by one would do it.
            d.setBase(s0, r);
            for (int l = lanes & (lanes - 1); l != 0; l &= l - 1) d.acquire(s0 + Integer.numberOfTrailingZeros(l), v);
            return;
        }
        d.warpBase[w] = r;
    }
}
