package io.barrierscope.explore;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.MemoryModelHook;
import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierUnit;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * What one warp step touched that another warp can see, for the partial-order reduction
 * (docs/explore.md, "Partial-order reduction"). Installed as the machine's memory-model hook in
 * front of the race detector (or of nothing), it forwards every event unchanged and, only while
 * {@link #collecting}, notes the step's footprint: the shared/global words it read and wrote
 * (atomics count as writes), and the CTA barriers, cluster barriers and mbarriers it used (each
 * use counts as a write: arrivals, waits and polls of one object never commute). Async copies
 * land at a time fixed by their latency, not by a step, so a step that issues one or in which one
 * lands is dependent with every step; so is a step with too many words to list. Only explorations
 * install it: plain runs keep their hook (or none) and pay nothing.
 */
final class StepFootprints implements MemoryModelHook {
    /** One step's footprint: sorted keys (key << 1 | write), or every key ({@code all}). */
    record Footprint(long[] keys, boolean all) {
        static final Footprint EVERYTHING = new Footprint(new long[0], true);

        /** Whether this step and {@code o} do not commute: a shared key with at least one write. */
        boolean dependent(Footprint o) {
            if (all || o.all) return true;
            long[] a = keys;
            long[] b = o.keys;
            int i = 0;
            int j = 0;
            while (i < a.length && j < b.length) {
                long ka = a[i] >>> 1;
                long kb = b[j] >>> 1;
                if (ka < kb) i++;
                else if (kb < ka) j++;
                else {
                    if (((a[i] | b[j]) & 1) != 0) return true;
                    i++;
                    j++;
                }
            }
            return false;
        }
    }

    /** Above this many keys a step counts as touching everything (bounded memory per step). */
    static final int MAX_KEYS = 512;
    private static final long WORD = 1L << 60;
    private static final long BAR = 2L << 60;
    private static final long CLUSTER = 3L << 60;
    private static final long MBARRIER = 4L << 60;
    private static final long FENCE = 5L << 60;
    private static final long MASK = (1L << 60) - 1;

    private final MemoryModelHook inner;
    private boolean collecting;
    private boolean all;
    private boolean strongRmw;
    private long[] keys = new long[64];
    private int n;
    /** Explanations only: the same keys with their kind kept (see {@link #taggedFootprint}). */
    private boolean tagging;
    private long[] tagged = new long[64];
    private int tn;

    private StepFootprints(MemoryModelHook inner) { this.inner = inner; }

    /** Puts a collector in front of {@code x}'s hook (a fresh run's, before its start checkpoint). */
    static StepFootprints install(Interpreter x) {
        Machine m = x.machine();
        if (m.race instanceof StepFootprints f) return f;
        StepFootprints f = new StepFootprints(m.race);
        m.race = f;
        m.memory.race = f;
        return f;
    }

    /** Starts noting the next step's footprint (forgets any noted so far). */
    void begin() {
        collecting = true;
        all = false;
        n = 0;
        tn = 0;
    }

    /** Whether to keep each key's kind too (an explanation's replays; the search never pays for it). */
    void tagging(boolean on) { tagging = on; }

    /** Stops noting. */
    void stop() { collecting = false; }

    /** The footprint noted since {@link #begin}, as a sorted array of its own (kept by a sleep-set entry). */
    Footprint footprint() {
        if (all) return Footprint.EVERYTHING;
        return build(keys, n);
    }

    /**
     * The footprint noted since {@link #begin} with each key's kind kept (a word, a barrier, an
     * mbarrier, a fence: {@link #footprint} folds them together), for {@link #conflictsInEffect};
     * empty unless {@link #tagging}.
     */
    Footprint taggedFootprint() {
        if (all) return Footprint.EVERYTHING;
        return build(tagged, tn);
    }

    /**
     * Whether two tagged footprints conflict in a way whose order changes an outcome: the same
     * word with a write (which value a load sees), or the same mbarrier (a wait that observes a
     * phase or not). Two arrivals at a CTA or cluster barrier generation, or two fences, conflict
     * for the search but both happen whichever comes first. A step touching everything (an async
     * copy) counts against any word or mbarrier.
     */
    static boolean conflictsInEffect(Footprint a, Footprint b) {
        if (a.all() || b.all()) return (a.all() || hasEffectKey(a)) && (b.all() || hasEffectKey(b));
        long[] x = a.keys();
        long[] y = b.keys();
        int i = 0;
        int j = 0;
        while (i < x.length && j < y.length) {
            long kx = x[i] >>> 1;
            long ky = y[j] >>> 1;
            if (kx < ky) i++;
            else if (ky < kx) j++;
            else {
                if (((x[i] | y[j]) & 1) != 0 && effectKind(kx)) return true;
                i++;
                j++;
            }
        }
        return false;
    }

    private static boolean hasEffectKey(Footprint f) {
        for (long k : f.keys()) if (effectKind(k >>> 1)) return true;
        return false;
    }

    private static final int TAG_SHIFT = 57;

    private static boolean effectKind(long taggedKey) {
        long kind = taggedKey >>> TAG_SHIFT;
        return kind == WORD >>> 60 || kind == MBARRIER >>> 60;
    }

    private static Footprint build(long[] buf, int n) {
        long[] k = Arrays.copyOf(buf, n);
        // Steps note a handful of keys: insertion sort, no sort machinery below a few dozen.
        if (n <= 32) {
            for (int i = 1; i < n; i++) {
                long v = k[i];
                int j = i - 1;
                while (j >= 0 && k[j] > v) {
                    k[j + 1] = k[j];
                    j--;
                }
                k[j + 1] = v;
            }
        } else {
            Arrays.sort(k);
        }
        // One entry per key: a write wins over a read of the same key.
        int out = 0;
        for (int i = 0; i < k.length; i++) {
            if (out > 0 && (k[out - 1] >>> 1) == (k[i] >>> 1)) k[out - 1] |= k[i] & 1;
            else k[out++] = k[i];
        }
        return new Footprint(out == k.length ? k : Arrays.copyOf(k, out), false);
    }

    /**
     * Whether the step noted since {@link #begin} is dependent with {@code o}: the same answer as
     * {@code footprint().dependent(o)}, read off the unsorted buffer without building the footprint
     * (each noted key looked up in {@code o}'s sorted keys; a write noted for a key, or {@code o}'s
     * write of it, makes them dependent).
     */
    boolean dependent(Footprint o) {
        if (all || o.all()) return true;
        long[] b = o.keys();
        if (b.length == 0) return false;
        for (int i = 0; i < n; i++) {
            long k = keys[i];
            long key = k >>> 1;
            int lo = 0;
            int hi = b.length - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                long km = b[mid] >>> 1;
                if (km < key) lo = mid + 1;
                else if (km > key) hi = mid - 1;
                else {
                    if (((k | b[mid]) & 1) != 0) return true;
                    break;
                }
            }
        }
        return false;
    }

    /** Whether the step so far counts as touching everything. */
    boolean everything() { return all; }

    private void note(long key, boolean write) {
        if (!collecting || all) return;
        if (n == MAX_KEYS) {
            all = true;
            return;
        }
        if (n == keys.length) keys = Arrays.copyOf(keys, n * 2);
        keys[n++] = ((key & MASK) << 1) | (write ? 1 : 0);
        if (tagging) {
            // The kind in the top bits, the rest of the key below (positive after the shift: sorts like the plain keys).
            if (tn == tagged.length) tagged = Arrays.copyOf(tagged, tn * 2);
            tagged[tn++] = (((key >>> 60) << TAG_SHIFT | (key & ((1L << TAG_SHIFT) - 1))) << 1) | (write ? 1 : 0);
        }
    }

    private void everythingNow() {
        if (collecting) all = true;
    }

    @Override
    public void access(int region, int offset, int size, int thread, boolean write) {
        if (collecting) {
            boolean w = write || strongRmw;
            for (int b = offset >>> 2, e = (offset + Math.max(size, 1) - 1) >>> 2; b <= e && !all; b++) {
                note(WORD | ((long) region << 30) | (b & ((1L << 30) - 1)), w);
            }
        }
        if (inner != null) inner.access(region, offset, size, thread, write);
    }

    private void noteWord(int region, int offset, boolean write) {
        note(WORD | ((long) region << 30) | ((offset >>> 2) & ((1L << 30) - 1)), write || strongRmw);
    }

    @Override
    public void accessWords(int region, int[] offsets, int lanes, int warp, boolean write) {
        if (collecting) for (int l = lanes; l != 0 && !all; l &= l - 1) noteWord(region, offsets[Integer.numberOfTrailingZeros(l)], write);
        if (inner != null) inner.accessWords(region, offsets, lanes, warp, write);
    }

    @Override
    public void copyWords(int srcRegion, int srcOffset, int dstRegion, int dstOffset, int bytes, int thread) {
        if (collecting) {
            for (int i = 0; i < bytes && !all; i += 4) {
                noteWord(srcRegion, srcOffset + i, false);
                noteWord(dstRegion, dstOffset + i, true);
            }
        }
        if (inner != null) inner.copyWords(srcRegion, srcOffset, dstRegion, dstOffset, bytes, thread);
    }

    @Override
    public void beginAsyncProxyRead(int thread, int pc) {
        if (inner != null) inner.beginAsyncProxyRead(thread, pc);
    }

    @Override
    public void endAsyncProxyRead() {
        if (inner != null) inner.endAsyncProxyRead();
    }

    @Override
    public void barAcquireWarp(int warp, Release released) {
        if (inner != null) inner.barAcquireWarp(warp, released);
    }

    @Override
    public void beginStrong(int sem, boolean readModifyWrite) {
        strongRmw = readModifyWrite;
        if (inner != null) inner.beginStrong(sem, readModifyWrite);
    }

    @Override
    public void beginStrong(int sem, boolean readModifyWrite, int scope) {
        strongRmw = readModifyWrite;
        if (inner != null) inner.beginStrong(sem, readModifyWrite, scope);
    }

    @Override
    public void endStrong() {
        strongRmw = false;
        if (inner != null) inner.endStrong();
    }

    @Override
    public void fence(int thread) {
        note(FENCE, true);
        if (inner != null) inner.fence(thread);
    }

    @Override
    public void fence(int thread, int scope) {
        note(FENCE, true);
        if (inner != null) inner.fence(thread, scope);
    }

    @Override
    public void fenceMbarrierInit(int thread) {
        note(FENCE, true);
        if (inner != null) inner.fenceMbarrierInit(thread);
    }

    @Override
    public void proxyFence(int thread, int spaces) {
        note(FENCE, true);
        if (inner != null) inner.proxyFence(thread, spaces);
    }

    @Override
    public void barArrive(int cta, int id, int warp, int lanes) {
        note(BAR | ((long) cta << 8) | id, true);
        if (inner != null) inner.barArrive(cta, id, warp, lanes);
    }

    @Override
    public Release barComplete(int cta, int id) {
        note(BAR | ((long) cta << 8) | id, true);
        return inner != null ? inner.barComplete(cta, id) : null;
    }

    @Override
    public void barAcquire(int slot, Release released) {
        if (inner != null) inner.barAcquire(slot, released);
    }

    @Override
    public void clusterArrive(int slot, int firstCta, boolean relaxed) {
        note(CLUSTER | firstCta, true);
        if (inner != null) inner.clusterArrive(slot, firstCta, relaxed);
    }

    @Override
    public void clusterComplete(int firstCta) {
        note(CLUSTER | firstCta, true);
        if (inner != null) inner.clusterComplete(firstCta);
    }

    @Override
    public void clusterAcquire(int slot, int firstCta) {
        note(CLUSTER | firstCta, true);
        if (inner != null) inner.clusterAcquire(slot, firstCta);
    }

    @Override
    public void warpSync(int warp, int members) {
        if (inner != null) inner.warpSync(warp, members);
    }

    private void mbarrier(Mbarrier b) { note(MBARRIER | MbarrierUnit.key(b.cta, b.offset), true); }

    @Override
    public void mbarrierInit(int slot, Mbarrier b, int pc) {
        mbarrier(b);
        if (inner != null) inner.mbarrierInit(slot, b, pc);
    }

    @Override
    public void mbarrierUse(int slot, Mbarrier b, int pc) {
        mbarrier(b);
        if (inner != null) inner.mbarrierUse(slot, b, pc);
    }

    @Override
    public void mbarrierArrive(int slot, Mbarrier b, boolean relaxed, int scope) {
        mbarrier(b);
        if (inner != null) inner.mbarrierArrive(slot, b, relaxed, scope);
    }

    // The warp-wide forms: the same footprint as their per-lane calls, and the analysis keeps its fast path.
    @Override
    public boolean mbarrierUsesQuiet(int warp, int lanes, Mbarrier b) {
        mbarrier(b);
        return inner != null && inner.mbarrierUsesQuiet(warp, lanes, b);
    }

    @Override
    public void mbarrierArriveWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        mbarrier(b);
        if (inner != null) inner.mbarrierArriveWarp(warp, lanes, b, relaxed, scope);
    }

    @Override
    public void mbarrierAcquireWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        mbarrier(b);
        if (inner != null) inner.mbarrierAcquireWarp(warp, lanes, b, relaxed, scope);
    }

    @Override
    public void mbarrierPhaseComplete(Mbarrier b) {
        mbarrier(b);
        if (inner != null) inner.mbarrierPhaseComplete(b);
    }

    @Override
    public void mbarrierAcquire(int slot, Mbarrier b, boolean relaxed, int scope) {
        mbarrier(b);
        if (inner != null) inner.mbarrierAcquire(slot, b, relaxed, scope);
    }

    @Override
    public void asyncIssue(AsyncOperation op) {
        everythingNow();
        if (inner != null) inner.asyncIssue(op);
    }

    @Override
    public void beginAsync(AsyncOperation op) {
        everythingNow();
        if (inner != null) inner.beginAsync(op);
    }

    @Override
    public void endAsync(AsyncOperation op) {
        if (inner != null) inner.endAsync(op);
    }

    @Override
    public void groupWaitPassed(int slot, boolean bulk, long keptFrom, boolean sourceReadsOnly) {
        if (inner != null) inner.groupWaitPassed(slot, bulk, keptFrom, sourceReadsOnly);
    }

    /** Without an analysis behind it there is nothing to save; checkpoints still need a snapshot. */
    private static final Snapshot NONE = () -> 0;

    @Override
    public Snapshot save() { return inner != null ? inner.save() : NONE; }

    @Override
    public void restore(Snapshot s) {
        if (inner != null) inner.restore(s);
    }

    @Override
    public void hashInto(LongConsumer h) {
        if (inner != null) inner.hashInto(h);
    }
}
