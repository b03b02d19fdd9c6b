package io.barrierscope.check;

/**
 * An immutable vector clock over the race detector's ids (threads and their async agents), split
 * into chunks of one CTA's ids each. A missing chunk is all zeros, and chunks are shared between
 * clocks by reference, so a CTA barrier touches one chunk and a clock of a launch with many CTAs
 * costs only the chunks that ever synchronized: "compact" vector clocks.
 */
public final class VectorClock implements io.barrierscope.exec.MemoryModelHook.Release {
    static final VectorClock EMPTY = new VectorClock(new int[0][]);

    /** Never mutated once the clock is built; shared with other clocks and builders. */
    final int[][] chunks;

    VectorClock(int[][] chunks) { this.chunks = chunks; }

    /** The entry of {@code id} where a chunk holds {@code chunkSize} ids. */
    int get(int id, int chunkSize) {
        int c = id / chunkSize;
        if (c >= chunks.length) return 0;
        int[] ch = chunks[c];
        return ch == null ? 0 : ch[id - c * chunkSize];
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

    /** This clock with {@code id} raised to at least {@code v}. */
    VectorClock with(int id, int v, int chunkSize, int chunkCount) {
        if (get(id, chunkSize) >= v) return this;
        int c = id / chunkSize;
        int[][] out = java.util.Arrays.copyOf(chunks, Math.max(chunks.length, chunkCount));
        int[] ch = out[c] == null ? new int[chunkSize] : out[c].clone();
        ch[id - c * chunkSize] = v;
        out[c] = ch;
        return new VectorClock(out);
    }

    /** The digest of the entries, once computed (the clock never changes); {@link #digested} publishes it. */
    private long digest;
    private volatile boolean digested;

    /**
     * Feeds every non-zero entry, in id order, to a hash (see {@link io.barrierscope.trace.StateHash});
     * to a {@link io.barrierscope.exec.MemoryModelHook.ClockDigests} hash, one digest of them instead.
     */
    void hashInto(java.util.function.LongConsumer h) {
        if (h instanceof io.barrierscope.exec.MemoryModelHook.ClockDigests) {
            h.accept(digest());
            return;
        }
        entriesInto(h);
    }

    /**
     * A 64-bit digest of the entries as {@link #hashInto} feeds them (computed once per clock:
     * clocks are immutable and shared, so an unchanged clock costs one read).
     */
    long digest() {
        if (digested) return digest;
        long[] acc = {0x243F6A8885A308D3L};
        entriesInto(v -> {
            long z = (acc[0] ^ v) * 0x9E3779B97F4A7C15L;
            acc[0] = z ^ (z >>> 29);
        });
        long k = acc[0];
        k ^= k >>> 33;
        k *= 0xFF51AFD7ED558CCDL;
        k ^= k >>> 33;
        k *= 0xC4CEB93FE53A874DL;
        digest = k ^ (k >>> 33);
        digested = true;
        return digest;
    }

    private void entriesInto(java.util.function.LongConsumer h) {
        for (int c = 0; c < chunks.length; c++) {
            int[] ch = chunks[c];
            if (ch == null) continue;
            for (int i = 0; i < ch.length; i++) if (ch[i] != 0) h.accept(((long) c << 48) ^ ((long) i << 32) ^ ch[i]);
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

        /** The entry of {@code id}. */
        int get(int id) {
            int c = id / chunkSize;
            int[] a = chunks[c];
            return a == null ? 0 : a[id - c * chunkSize];
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
                    for (int i = 0; i < a.length; i++) a[i] = Math.max(a[i], b[i]);
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
            if (a != null && a[i] >= v) return;
            empty = false;
            if (a == null) {
                chunks[c] = a = new int[chunkSize];
                owned[c] = true;
            } else if (!owned[c]) {
                chunks[c] = a = a.clone();
                owned[c] = true;
            }
            a[i] = v;
        }

        /** Chunk {@code c}, owned by this builder (cloned or created first), for direct raises. */
        int[] chunkForWrite(int c) {
            int[] a = chunks[c];
            empty = false;
            if (a == null) {
                chunks[c] = a = new int[chunkSize];
                owned[c] = true;
            } else if (!owned[c]) {
                chunks[c] = a = a.clone();
                owned[c] = true;
            }
            return a;
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
