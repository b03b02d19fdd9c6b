package io.barrierscope.check;

import io.barrierscope.exec.MemoryModelHook;
import java.util.Arrays;
import java.util.TreeMap;

/**
 * Scoped release/acquire through memory locations and fences (semantics.md section 8; PTX ISA
 * memory consistency model: scope, morally strong, release and acquire patterns). A scope is a
 * set of threads: the issuer's CTA, its cluster, or all of them (.gpu; .sys is the same set for
 * one launch). Two operations are morally strong when each is in the other's scope (or they are
 * by one thread). A release pattern synchronizes with an acquire pattern when the write of the
 * one is observed by the read of the other through morally strong links (a write, atomic
 * read-modify-writes, the read) and the first operation of the release pattern (the release
 * write, or the fence before a relaxed write) and the last of the acquire pattern (the acquire
 * read, or the fence after a relaxed read) are morally strong. So per location this keeps the
 * last strong write's epoch and scope, and the published clocks in buckets by the releasing
 * thread's CTA and the release's scope: whether an acquirer may take a bucket depends on those
 * two and its own CTA and scope only. Barriers (bar, barrier.cluster, mbarrier) keep their own
 * rules. All state is immutable values or per-thread arrays, saved in checkpoints and hashed.
 */
final class ScopedSync {
    static final int CTA = MemoryModelHook.SCOPE_CTA;
    static final int CLUSTER = MemoryModelHook.SCOPE_CLUSTER;
    static final int GPU = MemoryModelHook.SCOPE_GPU;

    /**
     * One location's synchronization state (immutable): the epoch (with the STRONG bit) and scope
     * of its last strong write by a thread, and the published clocks by bucket (releasing CTA * 3 +
     * release scope), in ascending bucket order. {@code gpu} is the join of the .gpu-scope buckets
     * (derived, kept as buckets grow so that a .gpu acquire does not join every CTA's bucket again).
     */
    record Loc(long lastEpoch, int lastScope, int[] buckets, VectorClock[] clocks, VectorClock gpu) {}

    private final RaceDetector d;
    /** By location (region << 32 | offset of the access). */
    final TreeMap<Long, Loc> locs = new TreeMap<>();
    /**
     * Heap bytes {@link #locs} holds, counted per location as if no clock were shared with another
     * (an upper bound): past {@link RaceDetector#LOCATION_STATE_CAP} detection stops.
     */
    long locBytes;
    /**
     * Per thread: its clock at its last fence of scope .cluster or wider, and .gpu. The detector's
     * {@code fence} holds the last fence of any scope (every scope includes the CTA).
     */
    VectorClock[] fenceCluster;
    VectorClock[] fenceGpu;
    /**
     * Per thread: the releases its relaxed loads observed that a later fence of scope .cluster (or
     * wider), .gpu acquires; the detector's {@code pendingAcquire} holds what any fence acquires.
     */
    VectorClock[] pendingCluster;
    VectorClock[] pendingGpu;

    /**
     * Per thread: its last strong read's location and size, its clock then (0: none) and the
     * narrowest scope of its strong reads there at that clock: how a later strong write tells
     * whether the read the shadow recorded and it are morally strong ({@link #readMorallyStrong}).
     */
    long[] readKey;
    int[] readSize;
    int[] readClock;
    int[] readScope;

    /** The scope of the strong access in progress (set by beginStrong), its location and size. */
    int scope = GPU;
    long key;
    int size;

    ScopedSync(RaceDetector d) {
        this.d = d;
        fenceCluster = new VectorClock[d.slots];
        fenceGpu = new VectorClock[d.slots];
        pendingCluster = new VectorClock[d.slots];
        pendingGpu = new VectorClock[d.slots];
        readKey = new long[d.slots];
        readSize = new int[d.slots];
        readClock = new int[d.slots];
        readScope = new int[d.slots];
    }

    private int ctaOf(int slot) { return d.m.ctaOfSlot(slot); }

    /** Whether the threads of CTA {@code other} are in scope {@code s} of a thread of CTA {@code cta}. */
    private boolean inScope(int cta, int s, int other) {
        if (s == GPU || cta == other) return true;
        return s == CLUSTER && d.m.clusterBarriers[cta].firstCta == d.m.clusterBarriers[other].firstCta;
    }

    private boolean morallyStrong(int ctaA, int scopeA, int ctaB, int scopeB) {
        return inScope(ctaA, scopeA, ctaB) && inScope(ctaB, scopeB, ctaA);
    }

    /** Whether the location's last strong write and an operation of thread t at scope s are morally strong. */
    private boolean linked(Loc l, int t, int s) {
        int w = (int) (l.lastEpoch & (RaceDetector.STRONG - 1));
        return w == t || morallyStrong(ctaOf(w), l.lastScope, ctaOf(t), s);
    }

    /**
     * For the access check: whether the strong access in progress (at {@link #key}, by the
     * current actor) and the strong write {@code w} recorded in a cell it covers are morally
     * strong, so they do not race. A write by an async agent, or an access by one, keeps the
     * agent's own rules (always strong). A write at another start address is not the same
     * footprint (morally strong operations overlap completely): not morally strong.
     */
    boolean morallyStrongWith(long w) {
        int id = (int) (w & (RaceDetector.STRONG - 1));
        if (id >= d.slots || d.asyncActor != null) return true;
        Loc l = locs.get(key);
        if (l == null || l.lastEpoch != w) return false;
        return linked(l, d.actorIdNow(), scope);
    }

    /** A strong write by thread t at the current key: {@code release} publishes its clock, else its fences' clocks do. */
    void write(int t, boolean release, boolean rmw) {
        long epoch = ((long) d.clock[t] << 32) | t | RaceDetector.STRONG;
        Loc old = rmw ? locs.get(key) : null;
        // An atomic continues the observation chain only when it and the write it read are morally strong.
        if (old != null && !linked(old, t, scope)) old = null;
        Loc l = old == null ? NONE : old;
        int cta = ctaOf(t);
        if (release) {
            VectorClock pub = d.current(t);
            d.clock[t]++;
            l = add(l, cta * 3 + scope, pub);
        } else {
            VectorClock[] byScope = {d.fence[t], fenceCluster[t], fenceGpu[t]};
            for (int s = CTA; s <= GPU; s++) {
                // A bucket of a wider scope with the same clock reaches every acquire this one would.
                if (byScope[s] == null || (s < GPU && (byScope[s] == byScope[s + 1] || byScope[s] == byScope[GPU]))) continue;
                l = add(l, cta * 3 + s, byScope[s]);
            }
        }
        Loc now = new Loc(epoch, scope, l.buckets, l.clocks, l.gpu);
        Loc was = locs.put(key, now);
        locBytes += bytesOf(now) - (was == null ? 0 : bytesOf(was));
        if (locBytes > RaceDetector.LOCATION_STATE_CAP) {
            // The documented choice, as for read sets: stop checking, free the state, say at which step.
            d.shadow.stopForLocations(d.x.eventStep());
            locs.clear();
            locBytes = 0;
        }
    }

    /**
     * A location's heap bytes at worst: its map entry and key (56), the record (40), its two arrays
     * and each published clock (and the .gpu join) whole, chunks included, as if shared with nothing.
     */
    static long bytesOf(Loc l) {
        long b = 56 + 40 + (16 + 4L * l.buckets.length) + (16 + 8L * l.clocks.length);
        for (VectorClock v : l.clocks) b += v.bytes();
        // the .gpu join is often the one .gpu bucket's clock itself
        if (l.gpu == null) return b;
        for (VectorClock v : l.clocks) if (v == l.gpu) return b;
        return b + l.gpu.bytes();
    }

    /** No buckets: what a location nothing published to starts from. */
    private static final Loc NONE = new Loc(0, 0, new int[0], new VectorClock[0], null);

    /** {@code l}'s buckets with bucket {@code b} joined with {@code v}, in copies of the arrays (Locs are immutable); its last write is left for the caller. */
    private static Loc add(Loc l, int b, VectorClock v) {
        int[] buckets = l.buckets;
        VectorClock[] clocks = l.clocks;
        // Buckets only grow by joins, so the join of the .gpu ones grows by v alone.
        VectorClock g = b % 3 == GPU ? join(l.gpu, v) : l.gpu;
        int i = Arrays.binarySearch(buckets, b);
        if (i >= 0) {
            VectorClock[] c = clocks.clone();
            c[i] = c[i].join(v);
            return new Loc(0, 0, buckets, c, g);
        }
        int at = -i - 1;
        int[] nb = new int[buckets.length + 1];
        VectorClock[] nc = new VectorClock[clocks.length + 1];
        System.arraycopy(buckets, 0, nb, 0, at);
        System.arraycopy(clocks, 0, nc, 0, at);
        nb[at] = b;
        nc[at] = v;
        System.arraycopy(buckets, at, nb, at + 1, buckets.length - at);
        System.arraycopy(clocks, at, nc, at + 1, clocks.length - at);
        return new Loc(0, 0, nb, nc, g);
    }

    /**
     * For the access check: whether the strong write in progress and the strong read by thread
     * {@code id} at clock {@code clock} that the shadow recorded in the cell at {@code cell}
     * (region << 32 | offset) are morally strong. Known when the thread's last strong read was at
     * that clock: at this write's start address by the scopes; covering the cell from another
     * start address, not (not the same footprint). Otherwise (reads since) taken as morally
     * strong, which can only hide a race. An async agent's read, or a write by one, keeps the
     * agents' rule.
     */
    boolean readMorallyStrong(int id, int clock, long cell) {
        if (id >= d.slots || d.asyncActor != null || readClock[id] != clock) return true;
        long k = readKey[id];
        if (k != key) {
            int off = (int) cell - (int) k;
            return (k >>> 32) != (cell >>> 32) || off < 0 || off >= readSize[id];
        }
        return morallyStrong(ctaOf(id), readScope[id], ctaOf(d.actorIdNow()), scope);
    }

    /** A strong read by thread t at the current key: an acquire takes what it may; a relaxed read leaves it to a later fence. */
    void read(int t, boolean acquire) {
        // Recorded for readMorallyStrong: the narrowest scope of the thread's reads here at this clock.
        if (readClock[t] == d.clock[t] && readKey[t] == key) {
            readScope[t] = Math.min(readScope[t], scope);
        } else {
            readKey[t] = key;
            readSize[t] = size;
            readClock[t] = d.clock[t];
            readScope[t] = scope;
        }
        Loc l = locs.get(key);
        if (l == null || !linked(l, t, scope)) return;
        int cta = ctaOf(t);
        // Published clocks are charged when taken whole (RaceClockBudget.joinPublished), so the clock count's bound is exact.
        if (acquire) {
            VectorClock v = eligible(l, cta, scope);
            if (v != null) d.setBase(t, d.clockBudget.joinPublished(d.baseOf(t), v));
            return;
        }
        d.pendingAcquire[t] = d.clockBudget.joinPublished(d.pendingAcquire[t], eligible(l, cta, CTA));
        pendingCluster[t] = d.clockBudget.joinPublished(pendingCluster[t], eligible(l, cta, CLUSTER));
        pendingGpu[t] = d.clockBudget.joinPublished(pendingGpu[t], eligible(l, cta, GPU));
    }

    /** The join of the buckets an acquire by a thread of {@code cta} at scope {@code s} synchronizes with, or null. */
    private VectorClock eligible(Loc l, int cta, int s) {
        // At .gpu every .gpu bucket is eligible: their join is kept; the loop adds the narrower ones.
        VectorClock v = s == GPU ? l.gpu : null;
        for (int i = 0; i < l.buckets.length; i++) {
            int b = l.buckets[i];
            if (s == GPU && b % 3 == GPU) continue;
            if (morallyStrong(b / 3, b % 3, cta, s)) v = join(v, l.clocks[i]);
        }
        return v;
    }

    private static VectorClock join(VectorClock a, VectorClock b) {
        if (a == null) return b;
        return b == null ? a : a.join(b);
    }

    /** A fence by thread t at scope s: acquires what its relaxed reads observed within s, and publishes for later relaxed writes. */
    void fence(int t, int s) {
        acquirePending(t, d.pendingAcquire);
        if (s >= CLUSTER) acquirePending(t, pendingCluster);
        if (s >= GPU) acquirePending(t, pendingGpu);
        VectorClock now = d.current(t);
        d.fence[t] = now;
        if (s >= CLUSTER) fenceCluster[t] = now;
        if (s >= GPU) fenceGpu[t] = now;
        d.clock[t]++;
    }

    /**
     * A release-only cluster fence publishing {@code clk} (fence.mbarrier_init): later relaxed stores
     * and arrives of thread t carry it, unless an earlier fence already published more of t's work.
     */
    void releaseOnly(int t, VectorClock clk) {
        int own = clk.get(t, d.chunkSize);
        if (d.fence[t] == null || d.fence[t].get(t, d.chunkSize) < own) d.fence[t] = clk;
        if (fenceCluster[t] == null || fenceCluster[t].get(t, d.chunkSize) < own) fenceCluster[t] = clk;
    }

    /** Thread t acquires what {@code pending} holds for it, and it is taken. */
    private void acquirePending(int t, VectorClock[] pending) {
        if (pending[t] == null) return;
        d.acquire(t, pending[t]);
        pending[t] = null;
    }

    /** A copy for a checkpoint (Locs and clocks are immutable: shared). */
    ScopedSync copyInto(ScopedSync o) {
        o.locs.clear();
        o.locs.putAll(locs);
        o.locBytes = locBytes;
        o.fenceCluster = fenceCluster.clone();
        o.fenceGpu = fenceGpu.clone();
        o.pendingCluster = pendingCluster.clone();
        o.pendingGpu = pendingGpu.clone();
        o.readKey = readKey.clone();
        o.readSize = readSize.clone();
        o.readClock = readClock.clone();
        o.readScope = readScope.clone();
        return o;
    }

    /** Feeds the locations and, with {@code perThread}, the per-thread arrays (explore's hash has those from RaceDigests). */
    void hashInto(java.util.function.LongConsumer h, boolean perThread) {
        for (var e : locs.entrySet()) {
            h.accept(e.getKey());
            Loc l = e.getValue();
            h.accept(l.lastEpoch);
            h.accept(l.lastScope);
            for (int i = 0; i < l.buckets.length; i++) {
                h.accept(l.buckets[i]);
                l.clocks[i].hashInto(h, d.chunkSize);
            }
        }
        if (!perThread) return;
        for (VectorClock[] vs : new VectorClock[][] {fenceCluster, fenceGpu, pendingCluster, pendingGpu}) {
            for (VectorClock v : vs) {
                if (v != null) v.hashInto(h, d.chunkSize);
                else h.accept(0);
            }
        }
        // Only the threads that made a strong read: a run without any hashes as before these were kept.
        for (int t = 0; t < readClock.length; t++) {
            if (readClock[t] == 0) continue;
            h.accept(t);
            h.accept(readKey[t]);
            h.accept(readSize[t]);
            h.accept(((long) readClock[t] << 2) | readScope[t]);
        }
    }

    long bytes() { return 64L * locs.size() + BYTES_PER_THREAD * fenceCluster.length; }

    /** Heap bytes per thread of this class's per-thread arrays: four clock references, a location, a size, a clock and a scope. */
    static final long BYTES_PER_THREAD = 4 * 8 + 8 + 4 + 4 + 4;
}
