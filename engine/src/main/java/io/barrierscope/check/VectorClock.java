package io.barrierscope.check;

/**
 * An immutable vector clock over the race detector's ids (threads and their async agents), split
 * into chunks of one CTA's ids each. A missing chunk is all zeros, and chunks are shared between
 * clocks by reference, so a CTA barrier touches one chunk and a clock of a launch with many CTAs
 * costs only the chunks that ever synchronized: "compact" vector clocks.
 *
 * <p>A chunk is either full ({@code chunkSize} ints, one per id) or <em>by warp</em>
 * ({@code chunkSize / 32} ints, one per warp: every lane of warp {@code w} has entry {@code ch[w]}).
 * Converged warps whose lanes' clocks are equal release into chunks by warp, so a barrier arrival
 * raises one entry instead of 32 and a generation copies a chunk 32 times smaller; a chunk is
 * expanded into a full one (a copy) as soon as one lane's entry must differ. Both forms mean the
 * same entries: {@link #hashInto} and every lookup see the per-id values.
 */
public final class VectorClock implements io.barrierscope.exec.MemoryModelHook.Release {
    static final VectorClock EMPTY = new VectorClock(new int[0][]);

    /** Never mutated once the clock is built; shared with other clocks and builders. */
    final int[][] chunks;

    VectorClock(int[][] chunks) { this.chunks = chunks; }

    /** Heap bytes of this clock with its chunks, as if it shared none (computed once: clocks are immutable). */
    private long bytes = -1;

    long bytes() {
        if (bytes < 0) {
            long b = 16 + 16 + 8L * chunks.length;
            for (int[] ch : chunks) if (ch != null) b += 16 + 4L * ch.length;
            bytes = b;
        }
        return bytes;
    }

    /** The entry of {@code id} where a chunk holds {@code chunkSize} ids. */
    int get(int id, int chunkSize) {
        int c = id / chunkSize;
        if (c >= chunks.length) return 0;
        int[] ch = chunks[c];
        return ch == null ? 0 : entry(ch, id - c * chunkSize, chunkSize);
    }

    /** Entry {@code i} (an index within the chunk) of a full chunk or one by warp. */
    static int entry(int[] ch, int i, int chunkSize) { return ch[ch.length == chunkSize ? i : i >> 5]; }

    /** A full chunk with the entries of {@code ch}: {@code ch} itself when full, else a new array. */
    static int[] expand(int[] ch, int chunkSize) {
        if (ch.length == chunkSize) return ch;
        int[] r = new int[chunkSize];
        for (int i = 0; i < chunkSize; i++) r[i] = ch[i >> 5];
        return r;
    }

    /** The element-wise maximum; returns this or o itself when one already covers the other. */
    VectorClock join(VectorClock o) {
        if (o == this || o == null || o.chunks.length == 0) return this;
        if (chunks.length == 0) return o;
        int n = Math.max(chunks.length, o.chunks.length);
        int[][] out = null;
        for (int c = 0; c < n; c++) {
            int[] a = c < chunks.length ? chunks[c] : null;
            int[] b = c < o.chunks.length ? o.chunks[c] : null;
            int[] r = joinChunk(a, b);
            if (r != a && out == null) {
                out = new int[n][];
                System.arraycopy(chunks, 0, out, 0, Math.min(c, chunks.length));
            }
            if (out != null) out[c] = r;
        }
        return out == null ? this : new VectorClock(out);
    }

    /** a joined with b: a itself when a covers b, b itself when b covers a, else a new chunk. */
    static int[] joinChunk(int[] a, int[] b) {
        if (b == null || a == b) return a;
        if (a == null) return b;
        if (a.length != b.length) return joinMixed(a, b);
        boolean aCovers = true;
        boolean bCovers = true;
        for (int i = 0; i < a.length; i++) {
            if (a[i] < b[i]) aCovers = false;
            else if (a[i] > b[i]) bCovers = false;
        }
        if (aCovers) return a;
        if (bCovers) return b;
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) r[i] = Math.max(a[i], b[i]);
        return r;
    }

    /** Whether the 32 clocks from {@code clk[s0]} (a warp's lanes) are one value. */
    static boolean uniform(int[] clk, int s0) {
        int v = clk[s0];
        for (int lane = 1; lane < 32; lane++) if (clk[s0 + lane] != v) return false;
        return true;
    }

    /** Raises the 32 entries of the full chunk {@code ch} from {@code i0} to the lanes' clocks {@code clk[s0..s0+31]}. */
    static void raiseLanes(int[] ch, int i0, int[] clk, int s0) {
        for (int lane = 0; lane < 32; lane++) ch[i0 + lane] = Math.max(ch[i0 + lane], clk[s0 + lane]);
    }

    /**
     * A new chunk: {@code old} (full, by warp, or null for zeros) with the warp's 32 entries from
     * {@code i0} raised to its lanes' clocks {@code clk[s0..]}. By warp (one entry raised) when
     * {@code old} is not full and the lanes' clocks agree; full otherwise.
     */
    static int[] withWarpRaised(int[] old, int i0, int[] clk, int s0, int chunkSize) {
        if ((old == null || old.length != chunkSize) && uniform(clk, s0)) {
            int[] ch = old == null ? new int[chunkSize >> 5] : old.clone();
            ch[i0 >> 5] = Math.max(ch[i0 >> 5], clk[s0]);
            return ch;
        }
        int[] ch = old == null ? new int[chunkSize] : old.length == chunkSize ? old.clone() : expand(old, chunkSize);
        raiseLanes(ch, i0, clk, s0);
        return ch;
    }

    /** {@link #joinChunk} of a full chunk and one by warp (the result, when new, is full). */
    private static int[] joinMixed(int[] a, int[] b) {
        int n = Math.max(a.length, b.length);
        boolean aCovers = true;
        boolean bCovers = true;
        for (int i = 0; i < n; i++) {
            int x = entry(a, i, n);
            int y = entry(b, i, n);
            if (x < y) aCovers = false;
            else if (x > y) bCovers = false;
        }
        if (aCovers) return a;
        if (bCovers) return b;
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = Math.max(entry(a, i, n), entry(b, i, n));
        return r;
    }

    /** This clock with {@code id} raised to at least {@code v}. */
    VectorClock with(int id, int v, int chunkSize, int chunkCount) {
        if (get(id, chunkSize) >= v) return this;
        int c = id / chunkSize;
        int[][] out = java.util.Arrays.copyOf(chunks, Math.max(chunks.length, chunkCount));
        int[] ch = out[c] == null ? new int[chunkSize] : out[c].length == chunkSize ? out[c].clone() : expand(out[c], chunkSize);
        ch[id - c * chunkSize] = v;
        out[c] = ch;
        return new VectorClock(out);
    }

    /** The digest of the entries, once computed (the clock never changes); {@link #digested} publishes it. */
    private long digest;
    private volatile boolean digested;

    /**
     * Feeds every non-zero entry, in id order, to a hash (see {@link io.barrierscope.trace.StateHash}),
     * a chunk by warp each lane's entry, as its full form would; to a {@link io.barrierscope.exec.MemoryModelHook.ClockDigests} hash, one digest of them instead.
     */
    void hashInto(java.util.function.LongConsumer h, int chunkSize) {
        if (h instanceof io.barrierscope.exec.MemoryModelHook.ClockDigests) {
            h.accept(digest(chunkSize));
            return;
        }
        entriesInto(h, chunkSize);
    }

    /**
     * A 64-bit digest of the entries as {@link #hashInto} feeds them (computed once per clock:
     * clocks are immutable and shared, so an unchanged clock costs one read).
     */
    long digest(int chunkSize) {
        if (digested) return digest;
        long[] acc = {0x243F6A8885A308D3L};
        entriesInto(v -> acc[0] = RaceDigests.mix(acc[0], v), chunkSize);
        digest = RaceDigests.fmix(acc[0]);
        digested = true;
        return digest;
    }

    private void entriesInto(java.util.function.LongConsumer h, int chunkSize) {
        for (int c = 0; c < chunks.length; c++) {
            int[] ch = chunks[c];
            if (ch == null) continue;
            for (int i = 0; i < chunkSize; i++) {
                int e = entry(ch, i, chunkSize);
                if (e != 0) h.accept(((long) c << 48) ^ ((long) i << 32) ^ e);
            }
        }
        h.accept(-7);
    }

    /**
     * A mutable clock under construction (a barrier generation's or an mbarrier phase's releases).
     * Copy-on-write: chunks taken from joined clocks are shared until first written.
     */
    static final class Builder {
        private int[][] chunks;
        private boolean[] owned;
        private final int chunkSize;
        private boolean empty = true;
        /** The clock joined last: the lanes of a warp or a CTA usually share one base, joined once. */
        private VectorClock lastJoined;

        Builder(int chunkCount, int chunkSize) {
            this.chunks = new int[chunkCount][];
            this.owned = new boolean[chunkCount];
            this.chunkSize = chunkSize;
        }

        boolean isEmpty() { return empty; }

        /** The chunks as they stand (for counting what the builder holds: RaceClockBudget). */
        int[][] chunks() { return chunks; }

        /** The entry of {@code id}. */
        int get(int id) {
            int c = id / chunkSize;
            int[] a = chunks[c];
            return a == null ? 0 : entry(a, id - c * chunkSize, chunkSize);
        }

        void join(VectorClock v) {
            if (v == null || v == lastJoined) return;
            lastJoined = v;
            for (int c = 0; c < v.chunks.length; c++) {
                int[] b = v.chunks[c];
                int[] a = chunks[c];
                if (b == null || a == b) continue;
                empty = false;
                if (a == null) {
                    chunks[c] = b;
                    owned[c] = false;
                    continue;
                }
                if (owned[c]) {
                    // Ours alone: join in place (a barrier's arrivals with different bases would
                    // otherwise allocate a chunk each).
                    if (a.length == b.length) {
                        for (int i = 0; i < a.length; i++) a[i] = Math.max(a[i], b[i]);
                    } else {
                        if (a.length != chunkSize) chunks[c] = a = expand(a, chunkSize);
                        for (int i = 0; i < a.length; i++) a[i] = Math.max(a[i], entry(b, i, chunkSize));
                    }
                    continue;
                }
                int[] r = joinChunk(a, b);
                if (r == a) continue;
                if (r == b) {
                    chunks[c] = b;
                    owned[c] = false;
                } else {
                    chunks[c] = r;
                    owned[c] = true;
                }
            }
        }

        void raise(int id, int v) {
            int c = id / chunkSize;
            int[] a = chunks[c];
            int i = id - c * chunkSize;
            if (a != null && entry(a, i, chunkSize) >= v) return;
            a = chunkForWrite(c);
            a[i] = v;
        }

        /** Chunk {@code c} in full form, owned by this builder (cloned, expanded or created first), for direct raises. */
        int[] chunkForWrite(int c) {
            int[] a = chunks[c];
            empty = false;
            if (a == null) {
                chunks[c] = a = new int[chunkSize];
                owned[c] = true;
            } else if (a.length != chunkSize) {
                chunks[c] = a = expand(a, chunkSize);
                owned[c] = true;
            } else if (!owned[c]) {
                chunks[c] = a = a.clone();
                owned[c] = true;
            }
            return a;
        }

        /**
         * Raises the entries of all 32 lanes of warp {@code w} of chunk {@code c} (counted within
         * the chunk) to {@code v}: one entry when the chunk is by warp (a missing chunk becomes one).
         */
        void raiseWarp(int c, int w, int v) {
            int[] a = chunks[c];
            empty = false;
            if (a == null) {
                chunks[c] = a = new int[chunkSize >> 5];
                owned[c] = true;
            } else if (!owned[c]) {
                chunks[c] = a = a.clone();
                owned[c] = true;
            }
            if (a.length != chunkSize) {
                if (a[w] < v) a[w] = v;
                return;
            }
            int i0 = w << 5;
            for (int i = i0; i < i0 + 32; i++) if (a[i] < v) a[i] = v;
        }

        /** Heap bytes of the chunks this builder made itself since it was last cleared or snapshotted (RaceClockBudget charges them). */
        long ownedBytes() {
            long b = 0;
            for (int c = 0; c < chunks.length; c++) if (owned[c] && chunks[c] != null) b += 16 + 4L * chunks[c].length;
            return b;
        }

        /** The clock built so far; the builder goes on from the same contents (its chunks now shared). */
        VectorClock snapshot() {
            java.util.Arrays.fill(owned, false);
            return new VectorClock(chunks.clone());
        }

        /** Empties the builder for the next generation or phase. */
        void clear() {
            java.util.Arrays.fill(chunks, null);
            java.util.Arrays.fill(owned, false);
            empty = true;
            lastJoined = null;
        }

        /** Puts back a snapshot (for a checkpoint restore). */
        void restore(VectorClock v) {
            clear();
            if (v == null) return;
            System.arraycopy(v.chunks, 0, chunks, 0, Math.min(v.chunks.length, chunks.length));
            for (int[] ch : v.chunks) if (ch != null) empty = false;
        }
    }
}
