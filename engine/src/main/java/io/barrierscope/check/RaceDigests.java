package io.barrierscope.check;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * The race detector's per-thread state as explore's state hash takes it (a
 * {@link io.barrierscope.exec.MemoryModelHook.ClockDigests} hash): one digest per block of 32
 * clock entries and one per warp of its threads' vector clocks and strong-read records, each
 * recomputed only when its part differs from the copy kept at its last digest. Clocks are
 * immutable, so a reference found unchanged is an unchanged clock; a changed reference is
 * digested by content, so the value never depends on what was cached (deterministic, the same
 * on every runner). Not state: never saved or restored, a checkpoint restore is just a change.
 */
final class RaceDigests {
    private static final long M = 0x9E3779B97F4A7C15L;
    /** Per-thread clock references: base, fence, pending acquire, and the scoped fences and pendings. */
    private static final int REFS = 7;

    private final int slots;
    private final int warps;
    private final int[] clock;
    private final long[] clockDigest;
    private final boolean[] clockValid;
    // The per-thread clock references as of each warp's digest (a warp's shared base apart).
    private final VectorClock[] warpBase;
    private final VectorClock[] base;
    private final VectorClock[] fence;
    private final VectorClock[] pending;
    private final VectorClock[] fenceCluster;
    private final VectorClock[] fenceGpu;
    private final VectorClock[] pendingCluster;
    private final VectorClock[] pendingGpu;
    private final long[] readKey;
    private final int[] readSize;
    private final int[] readClock;
    private final int[] readScope;
    private final long[] warpDigest;
    private final boolean[] warpValid;

    RaceDigests(RaceDetector d) {
        slots = d.slots;
        warps = (slots + 31) >> 5;
        clock = new int[d.clock.length];
        clockDigest = new long[(clock.length + 31) >> 5];
        clockValid = new boolean[clockDigest.length];
        warpBase = new VectorClock[warps];
        base = new VectorClock[slots];
        fence = new VectorClock[slots];
        pending = new VectorClock[slots];
        fenceCluster = new VectorClock[slots];
        fenceGpu = new VectorClock[slots];
        pendingCluster = new VectorClock[slots];
        pendingGpu = new VectorClock[slots];
        readKey = new long[slots];
        readSize = new int[slots];
        readClock = new int[slots];
        readScope = new int[slots];
        warpDigest = new long[warps];
        warpValid = new boolean[warps];
    }

    /** Feeds the clock entries by blocks, then each warp's threads, as digests. */
    void hashInto(RaceDetector d, LongConsumer h) {
        if (d.clock.length != clock.length || d.slots != slots) throw new IllegalArgumentException("another launch shape");
        h.accept(d.clock.length);
        for (int b = 0; b < clockDigest.length; b++) {
            int from = b << 5;
            int to = Math.min(from + 32, clock.length);
            if (!clockValid[b] || !Arrays.equals(d.clock, from, to, clock, from, to)) {
                long x = 0x13198A2E03707344L ^ b;
                for (int i = from; i < to; i++) x = mix(x, d.clock[i]);
                clockDigest[b] = fmix(x);
                System.arraycopy(d.clock, from, clock, from, to - from);
                clockValid[b] = true;
            }
            h.accept(clockDigest[b]);
        }
        ScopedSync s = d.scoped;
        for (int w = 0; w < warps; w++) {
            int from = w << 5;
            int to = Math.min(from + 32, slots);
            if (!warpValid[w] || changed(d, s, w, from, to)) {
                warpDigest[w] = digest(d, s, w, from, to);
                keep(d, s, w, from, to);
                warpValid[w] = true;
            }
            h.accept(warpDigest[w]);
        }
    }

    private VectorClock ref(RaceDetector d, ScopedSync s, int k, int t) {
        return switch (k) {
            case 0 -> d.baseOf(t);
            case 1 -> d.fence[t];
            case 2 -> d.pendingAcquire[t];
            case 3 -> s.fenceCluster[t];
            case 4 -> s.fenceGpu[t];
            case 5 -> s.pendingCluster[t];
            default -> s.pendingGpu[t];
        };
    }

    private boolean changed(RaceDetector d, ScopedSync s, int w, int from, int to) {
        // A warp's bases: its shared one, or (none shared) each thread's own.
        VectorClock shared = d.warpBase[w];
        if (shared != warpBase[w] || shared == null && !same(d.base, base, from, to)) return true;
        return !same(d.fence, fence, from, to) || !same(d.pendingAcquire, pending, from, to)
                || !same(s.fenceCluster, fenceCluster, from, to) || !same(s.fenceGpu, fenceGpu, from, to)
                || !same(s.pendingCluster, pendingCluster, from, to) || !same(s.pendingGpu, pendingGpu, from, to)
                || !Arrays.equals(s.readClock, from, to, readClock, from, to) || !Arrays.equals(s.readKey, from, to, readKey, from, to)
                || !Arrays.equals(s.readSize, from, to, readSize, from, to) || !Arrays.equals(s.readScope, from, to, readScope, from, to);
    }

    /** The same clock objects (immutable, so the same clocks). */
    private static boolean same(VectorClock[] live, VectorClock[] kept, int from, int to) {
        for (int t = from; t < to; t++) if (live[t] != kept[t]) return false;
        return true;
    }

    private void keep(RaceDetector d, ScopedSync s, int w, int from, int to) {
        warpBase[w] = d.warpBase[w];
        int n = to - from;
        System.arraycopy(d.base, from, base, from, n);
        System.arraycopy(d.fence, from, fence, from, n);
        System.arraycopy(d.pendingAcquire, from, pending, from, n);
        System.arraycopy(s.fenceCluster, from, fenceCluster, from, n);
        System.arraycopy(s.fenceGpu, from, fenceGpu, from, n);
        System.arraycopy(s.pendingCluster, from, pendingCluster, from, n);
        System.arraycopy(s.pendingGpu, from, pendingGpu, from, n);
        System.arraycopy(s.readKey, from, readKey, from, n);
        System.arraycopy(s.readSize, from, readSize, from, n);
        System.arraycopy(s.readClock, from, readClock, from, n);
        System.arraycopy(s.readScope, from, readScope, from, n);
    }

    /** Thread by thread: each clock as absent (1) or present (2, its digest), then the strong read as the word-by-word hash has it. */
    private long digest(RaceDetector d, ScopedSync s, int w, int from, int to) {
        long x = 0xA4093822299F31D0L ^ w;
        for (int t = from; t < to; t++) {
            for (int k = 0; k < REFS; k++) {
                VectorClock v = ref(d, s, k, t);
                if (v == null) {
                    x = mix(x, 1);
                } else {
                    x = mix(x, 2);
                    x = mix(x, v.digest(d.chunkSize));
                }
            }
            if (s.readClock[t] != 0) {
                x = mix(x, 3);
                x = mix(x, s.readKey[t]);
                x = mix(x, s.readSize[t]);
                x = mix(x, ((long) s.readClock[t] << 2) | s.readScope[t]);
            } else {
                x = mix(x, 4);
            }
        }
        return fmix(x);
    }

    /** A shadow page's cached digest, and the cells it was taken of (pages without read sets or byte cells only). */
    private static final class PageDigest {
        long digest;
        long[] d;
        int[] pcs;
    }

    private final java.util.Map<Long, PageDigest> pages = new java.util.HashMap<>(); // looked up, never iterated

    /**
     * The digest of {@code page} as {@link RaceShadow.Page#hashInto} feeds it. Reused while its word
     * cells equal the copy kept with it; a page with read sets or byte cells (rare, mutable objects)
     * is digested afresh each time.
     */
    long page(int region, int p, RaceShadow.Page page) {
        boolean plain = page.bytes == null && page.words.readSets == null && page.words.pairs == null;
        long key = ((long) region << 32) | p;
        PageDigest c = plain ? pages.get(key) : null;
        if (c != null && Arrays.equals(c.d, page.words.d) && Arrays.equals(c.pcs, page.words.pcs)) return c.digest;
        long[] acc = {0x082EFA98EC4E6C89L};
        page.hashInto(v -> acc[0] = mix(acc[0], v));
        long digest = fmix(acc[0]);
        if (plain) {
            if (c == null) {
                c = new PageDigest();
                pages.put(key, c);
            }
            c.digest = digest;
            c.d = page.words.d.clone();
            c.pcs = page.words.pcs.clone();
        }
        return digest;
    }

    // StateHash's mix and fmix (trace is above check, so not callable here); VectorClock's digest uses them too.
    static long mix(long h, long v) {
        long z = (h ^ v) * M;
        return z ^ (z >>> 29);
    }

    static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xFF51AFD7ED558CCDL;
        k ^= k >>> 33;
        k *= 0xC4CEB93FE53A874DL;
        return k ^ (k >>> 33);
    }
}
