package io.barrierscope.check;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.MemoryModelHook;
import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierUnit;
import java.util.TreeMap;

/**
 * The happens-before race detector (semantics.md section 8), FastTrack style: every thread and
 * every thread's async agents have a clock; a thread's vector clock is a shared immutable base
 * plus its own clock; shadow memory keeps per byte the epoch of the last write and of the last
 * read (or a read set). The engine calls the hooks below directly (one null check each when
 * detection is off). Edges: CTA barrier generations, barrier.cluster release/acquire,
 * mbarrier release-arrive to acquire-wait of the completed phase, async copies through their
 * complete-tx (or wait_group), warp .sync instructions, release/acquire memory operations and
 * fences through the location they synchronize on. All state is plain data, saved in
 * checkpoints and hashed by StateHash, so time travel sees the same findings.
 */
public final class RaceDetector implements MemoryModelHook {
    /** Agent kinds: ids are kind * slots + issuing slot. Kind 0 is the thread itself. */
    static final int AGENT_MBAR = 1;
    static final int AGENT_CP = 2;
    static final int AGENT_BULK = 3;
    private static final int KINDS = 4;
    static final long STRONG = 1L << 31;

    final Interpreter x;
    final Machine m;
    final int slots;
    final int chunkSize;
    final int chunkCount;
    private final int ctas;
    /** log2 of {@link #chunkSize} when it is a power of two (ids map to chunks by a shift), else -1. */
    private final int chunkShift;

    final int[] clock;
    final VectorClock[] base;
    /** Per thread: its clock at its last fence (what a later relaxed release-pattern write publishes), or null. */
    final VectorClock[] fence;
    /** Per thread: release clocks its relaxed loads saw since its last fence (a fence acquires them). */
    final VectorClock[] pendingAcquire;
    final VectorClock.Builder[] bar;
    final VectorClock.Builder[] cluster;
    final VectorClock[] clusterDone;
    final TreeMap<Long, MbarState> mbar = new TreeMap<>();
    final TreeMap<Long, AsyncSnap> async = new TreeMap<>();
    /** Per location (region << 32 | offset): the clock its last release published. */
    final TreeMap<Long, VectorClock> sync = new TreeMap<>();
    RaceShadow shadow;
    /** The fence.proxy.async fences each thread executed (semantics.md section 13). */
    ProxyFences proxy;
    boolean reported;
    private final VectorClock.Builder scratch;
    /** A one-entry cache of {@link #acquire}'s joins (not state: a pure function of its keys). */
    private VectorClock joinedA;
    private VectorClock joinedB;
    private VectorClock joinedResult;

    // The actor of the access or sync operation in progress: a thread, or an async copy completing.
    private AsyncSnap asyncActor;
    private int actorId;
    private int actorClock;
    private int selfA;
    private int clockA;
    private int selfB = -1;
    private int clockB;
    private VectorClock actorBase;
    private int actorPc;
    private int strongMode;
    // Per access in progress, not state: its epoch and step, and epochs already found ordered before it.
    private long accessEpoch;
    private long accessStep;
    private long orderedWrite;
    private long orderedRead;
    /** The chunk (and its first id) of the id {@link #vc} looked up last. */
    private int lastChunk;
    private int lastChunkStart;
    private boolean rmw;
    /** {@link #orderedFor}'s cache: a clock, a chunk number, and that chunk (clocks are immutable). */
    private VectorClock orderedVb;
    private int orderedChunkNo = -1;
    private int[] orderedChunk;
    /** {@link #page}'s cache (not state: pages are found again from the shadow after a restore). */
    private RaceShadow cachedShadow;
    private int cachedRegion = -1;
    private int cachedPageNo = -1;
    private RaceShadow.Page cachedPage;

    /** One mbarrier's clocks: the current phase's releases, the last completed phase's, and its init. */
    static final class MbarState {
        final VectorClock.Builder accum;
        VectorClock done;
        long initEpoch;
        int initPc = -1;

        MbarState(int chunkCount, int chunkSize) { accum = new VectorClock.Builder(chunkCount, chunkSize); }
    }

    /** An async operation's view at issue: the issuer's clock, and the agent epoch its writes carry. */
    record AsyncSnap(VectorClock base, int slot, int slotClock, int agentId, int agentK, int pc, boolean arriveOnly, long mbarrier,
                     boolean asyncProxy) {}

    public RaceDetector(Interpreter x) {
        this.x = x;
        this.m = x.machine();
        this.slots = m.slots;
        this.ctas = m.ctas;
        this.chunkSize = m.warpsPerCta * 32;
        this.chunkCount = KINDS * ctas;
        this.chunkShift = Integer.bitCount(chunkSize) == 1 ? Integer.numberOfTrailingZeros(chunkSize) : -1;
        clock = new int[KINDS * slots];
        java.util.Arrays.fill(clock, 1);
        base = new VectorClock[slots];
        java.util.Arrays.fill(base, VectorClock.EMPTY);
        fence = new VectorClock[slots];
        pendingAcquire = new VectorClock[slots];
        bar = new VectorClock.Builder[ctas * 16];
        cluster = new VectorClock.Builder[ctas];
        clusterDone = new VectorClock[ctas];
        scratch = new VectorClock.Builder(chunkCount, chunkSize);
        shadow = new RaceShadow(ctas + m.memory.global.segments().size());
        proxy = new ProxyFences(slots);
    }

    /** Turns detection on for a fresh run. */
    public static RaceDetector attach(Interpreter x) {
        RaceDetector d = new RaceDetector(x);
        x.machine().race = d;
        x.machine().memory.race = d;
        return d;
    }

    public static void detach(Interpreter x) {
        x.machine().race = null;
        x.machine().memory.race = null;
    }

    // ---- actors ---------------------------------------------------------------------------

    private void actThread(int t) {
        actorId = t;
        actorClock = clock[t];
        selfA = t;
        clockA = clock[t];
        selfB = -1;
        // Consecutive accesses are mostly by threads that share one base (since their last barrier):
        // skip the reference store and its GC write barrier then.
        VectorClock b = base[t];
        if (b != actorBase) actorBase = b;
        actorPc = m.pc[t];
    }

    /** Entry {@code u} of the current actor's vector clock. */
    private int vc(int u) {
        if (u == selfA) return clockA;
        if (u == selfB) return clockB;
        // Most ids looked up are in the chunk looked up last: spare the division.
        int i = u - lastChunkStart;
        if (i < 0 || i >= chunkSize) {
            lastChunk = u / chunkSize;
            lastChunkStart = lastChunk * chunkSize;
            i = u - lastChunkStart;
        }
        int[][] chunks = actorBase.chunks;
        int[] ch = lastChunk < chunks.length ? chunks[lastChunk] : null;
        return ch == null ? 0 : ch[i];
    }

    /** Joins the thread's clock into {@code b} and starts its next epoch (a release). */
    private void release(int t, VectorClock.Builder b) {
        b.join(base[t]);
        b.raise(t, clock[t]);
        clock[t]++;
    }

    private void acquire(int t, VectorClock v) {
        if (v == null) return;
        VectorClock a = base[t];
        // The participants of one barrier usually share one base: join once, reuse the result.
        if (a == joinedA && v == joinedB) {
            base[t] = joinedResult;
            return;
        }
        VectorClock r = a.join(v);
        joinedA = a;
        joinedB = v;
        joinedResult = r;
        base[t] = r;
    }

    private VectorClock current(int t) { return base[t].with(t, clock[t], chunkSize, chunkCount); }

    // ---- memory ---------------------------------------------------------------------------

    /** A plain or strong access of {@code size} bytes at {@code offset} of {@code region} (a CTA's shared memory, or a global segment). */
    public void access(int region, int offset, int size, int thread, boolean write) {
        if (reported) return;
        if (asyncActor == null && strongMode == 0 && size == 4 && (offset & 3) == 0) {
            RaceShadow.Page pg = page(region, offset);
            int w = (offset & (RaceShadow.PAGE - 1)) >> 2;
            if (!pg.isSplit(w) && plainWord(pg.words, w, thread, write)) return;
        }
        if (asyncActor == null) actThread(thread);
        boolean strong = strongMode != 0;
        accessEpoch = ((long) actorClock << 32) | actorId | (strong ? STRONG : 0);
        accessStep = x.eventStep();
        if (size == 4 && (offset & 3) == 0 && !strong) {
            // The usual access, a plain aligned word by a thread or a copy: one cell unless the word is split.
            RaceShadow.Page pg = page(region, offset);
            int w = (offset & (RaceShadow.PAGE - 1)) >> 2;
            if (!pg.isSplit(w)) {
                orderedWrite = 0;
                orderedRead = 0;
                cell(pg.words, w, region, offset, write, false);
                return;
            }
        }
        // The cells of one access usually share their last write and read: check each distinct epoch once.
        orderedWrite = 0;
        orderedRead = 0;
        RaceShadow.Page pg = null;
        int pageNo = -1;
        int end = offset + size;
        for (int off = offset; off < end; ) {
            int wordOff = off & ~3;
            int lo = off - wordOff;
            int hi = Math.min(4, end - wordOff);
            if (off >>> RaceShadow.PAGE_BITS != pageNo) {
                pageNo = off >>> RaceShadow.PAGE_BITS;
                pg = page(region, off);
            }
            int w = (wordOff & (RaceShadow.PAGE - 1)) >> 2;
            boolean full = lo == 0 && hi == 4;
            if (full && !pg.isSplit(w)) {
                if (!cell(pg.words, w, region, wordOff, write, strong)) return;
            } else {
                if (!pg.isSplit(w)) pg.split(w);
                for (int b = lo; b < hi; b++) if (!cell(pg.bytes, 4 * w + b, region, wordOff + b, write, strong)) return;
                if (full && write) pg.join(w);
            }
            off = wordOff + hi;
        }
        if (strong && asyncActor == null) strongSync(region, offset, thread, write);
    }

    /**
     * The usual access, a plain aligned word by a thread, checked and recorded with no actor state
     * set up: the same rules as {@link #cell}, for the cases where they find nothing to report and
     * need no read set. Returns false, having changed nothing, for any other case, which the
     * general path then handles (and reports, if it is a race).
     */
    private boolean plainWord(RaceShadow.Cells c, int j, int t, boolean write) {
        long[] d = c.d;
        int b = j * RaceShadow.Cells.STRIDE;
        VectorClock vb = base[t];
        long epoch = ((long) clock[t] << 32) | t;
        long wr = d[b + RaceShadow.Cells.W];
        if (wr != 0 && wr != epoch && !orderedFor(wr, t, vb)) return false;
        if (c.readSets != null && c.readSets[j] != null) return false;
        long r = d[b + RaceShadow.Cells.R];
        if (write) {
            if (r != 0 && !orderedFor(r, t, vb)) return false;
            d[b + RaceShadow.Cells.W] = epoch;
            d[b + RaceShadow.Cells.R] = 0; // every earlier read happens before this write
            d[b + RaceShadow.Cells.PCS] = ((long) m.pc[t] << 32) | (d[b + RaceShadow.Cells.PCS] & 0xFFFFFFFFL);
            d[b + RaceShadow.Cells.WSTEP] = x.eventStep();
            return true;
        }
        if (r == epoch) return true;
        // Two unordered readers need a read set: the general path makes it.
        if (r != 0 && !orderedFor(r, t, vb)) return false;
        d[b + RaceShadow.Cells.R] = epoch;
        d[b + RaceShadow.Cells.PCS] = (d[b + RaceShadow.Cells.PCS] & 0xFFFFFFFF00000000L) | (m.pc[t] & 0xFFFFFFFFL);
        d[b + RaceShadow.Cells.RSTEP] = x.eventStep();
        return true;
    }

    /** Whether epoch {@code e} happens before thread {@code t}, whose base is {@code vb} ({@link #unordered} negated, for a thread actor). */
    private boolean orderedFor(long e, int t, VectorClock vb) {
        int id = (int) (e & (STRONG - 1));
        if (id == t) return true;
        int c = chunkShift >= 0 ? id >>> chunkShift : id / chunkSize;
        int[] ch;
        if (vb == orderedVb && c == orderedChunkNo) {
            ch = orderedChunk;
        } else {
            int[][] chunks = vb.chunks;
            ch = c < chunks.length ? chunks[c] : null;
            orderedVb = vb;
            orderedChunkNo = c;
            orderedChunk = ch;
        }
        return ch != null && (int) (e >>> 32) <= ch[id - c * chunkSize];
    }

    /**
     * The shadow page of {@code offset} in {@code region}, through a one-entry cache: the accesses
     * of a warp instruction nearly always fall in one page. Keyed on the shadow itself, since a
     * checkpoint restore replaces it.
     */
    private RaceShadow.Page page(int region, int offset) {
        int p = offset >>> RaceShadow.PAGE_BITS;
        if (region == cachedRegion && p == cachedPageNo && shadow == cachedShadow) return cachedPage;
        RaceShadow.Page pg = shadow.page(region, offset);
        cachedShadow = shadow;
        cachedRegion = region;
        cachedPageNo = p;
        cachedPage = pg;
        return pg;
    }

    /** Checks and records the access in one cell (a word, or a byte of a split word); false after reporting a race. */
    private boolean cell(RaceShadow.Cells c, int j, int region, int off, boolean write, boolean strong) {
        long w = c.write(j);
        if (w != 0 && w != accessEpoch && w != orderedWrite && !(strong && (w & STRONG) != 0)) {
            if (unordered(w)) {
                race(region, off, w, c.writePc(j), c.writeStep(j), true, write);
                return false;
            }
            // The write is ordered before this access; an async-proxy access also needs the writer's proxy fence.
            if (asyncActor != null && asyncActor.asyncProxy() && !proxyFenced(w, region)) {
                reported = true;
                RaceReport.proxyFenceMissing(this, region, off, (int) (w & (STRONG - 1)), c.writePc(j), c.writeStep(j), write);
                return false;
            }
            orderedWrite = w;
        }
        if (write) {
            if (!checkReads(c, j, region, off)) return false;
            c.setWrite(j, accessEpoch, actorPc, accessStep);
        } else if (!strong) {
            recordRead(c, j);
        }
        return true;
    }

    private boolean unordered(long e) {
        int id = (int) (e & (STRONG - 1));
        return id != actorId && (int) (e >>> 32) > vc(id);
    }

    private boolean checkReads(RaceShadow.Cells c, int j, int region, int off) {
        RaceShadow.ReadSet rs = c.readSet(j);
        if (rs != null) {
            for (int k = 0; k < rs.size; k++) {
                int id = rs.ids[k];
                if (id != actorId && rs.clocks[k] > vc(id)) {
                    race(region, off, ((long) rs.clocks[k] << 32) | id, rs.pcs[k], rs.steps[k], false, true);
                    return false;
                }
            }
            c.readSets[j] = null;
        } else {
            long r = c.read(j);
            if (r != 0 && r != orderedRead) {
                if (unordered(r)) {
                    race(region, off, r, c.readPc(j), c.readStep(j), false, true);
                    return false;
                }
                orderedRead = r;
            }
        }
        // Every earlier read happens before this write, so later accesses need only check the write.
        c.clearRead(j);
        return true;
    }

    private void recordRead(RaceShadow.Cells c, int j) {
        RaceShadow.ReadSet rs = c.readSet(j);
        if (rs != null) {
            rs.put(actorId, actorClock, actorPc, accessStep);
            return;
        }
        long r = c.read(j);
        long epoch = ((long) actorClock << 32) | actorId;
        if (r == epoch) return;
        if (r == 0 || r == orderedRead || !unordered(r)) {
            orderedRead = r;
            c.setRead(j, epoch, actorPc, accessStep);
            return;
        }
        // Two unordered readers: keep both (a later write must be ordered after each).
        if (c.readSets == null) c.readSets = new RaceShadow.ReadSet[c.size()];
        rs = c.readSets[j] = new RaceShadow.ReadSet();
        rs.put((int) (r & (STRONG - 1)), (int) (r >>> 32), c.readPc(j), c.readStep(j));
        rs.put(actorId, actorClock, actorPc, accessStep);
        c.clearRead(j);
    }

    /** Release/acquire through the accessed location (the flag of a flag pattern); scopes are not distinguished. */
    private void strongSync(int region, int offset, int t, boolean write) {
        long key = ((long) region << 32) | (offset & 0xFFFFFFFFL);
        boolean acq = strongMode == 2 || strongMode == 4;
        boolean rel = strongMode == 3 || strongMode == 4;
        if (write) {
            VectorClock old = rmw ? sync.get(key) : null;
            VectorClock pub = rel ? current(t) : fence[t];
            if (rel) clock[t]++;
            VectorClock v = old == null ? pub : old.join(pub);
            if (v == null) sync.remove(key);
            else sync.put(key, v);
        } else {
            VectorClock v = sync.get(key);
            if (v == null) return;
            if (acq) acquire(t, v);
            else pendingAcquire[t] = pendingAcquire[t] == null ? v : pendingAcquire[t].join(v);
        }
    }

    /** Marks the accesses until {@link #endStrong} as atomic/ordered ones: 1 relaxed, 2 acquire, 3 release, 4 acq_rel. */
    public void beginStrong(int sem, boolean readModifyWrite) {
        strongMode = sem;
        rmw = readModifyWrite;
    }

    public void endStrong() {
        strongMode = 0;
        rmw = false;
    }

    /** fence / membar: acquires what earlier relaxed loads saw, and publishes for later relaxed stores. */
    public void fence(int t) {
        if (pendingAcquire[t] != null) {
            acquire(t, pendingAcquire[t]);
            pendingAcquire[t] = null;
        }
        fence[t] = current(t);
        clock[t]++;
    }

    /** fence.proxy.async: a point in the thread's order that later async-proxy operations may rely on. */
    public void proxyFence(int t, int spaces) {
        proxy.record(t, clock[t], spaces);
        clock[t]++;
    }

    /**
     * wgmma.mma_async operand reads (PTX ISA 9.7.15.4): thread {@code t}'s own reads, at a new
     * epoch of its clock (so even its own earlier write is checked), but through the async proxy.
     */
    public void beginAsyncProxyRead(int t, int pc) {
        clock[t]++;
        asyncActor = new AsyncSnap(base[t], t, clock[t], t, clock[t], pc, false, -1, true);
        actorId = t;
        actorClock = clock[t];
        selfA = t;
        clockA = clock[t];
        selfB = -1;
        actorBase = base[t];
        actorPc = pc;
    }

    public void endAsyncProxyRead() {
        asyncActor = null;
        selfB = -1;
    }

    /**
     * Whether the generic-proxy write {@code w} (by a thread) was followed, in its writer's
     * program order, by a proxy fence covering {@code region} that happens before the async
     * operation in progress was issued. Writes by async agents are not checked (semantics.md section 13).
     */
    private boolean proxyFenced(long w, int region) {
        int id = (int) (w & (STRONG - 1));
        if (id >= slots) return true;
        int need = ProxyFences.spacesFor(region, ctas, m.ctaOfSlot(id));
        return proxy.fencedBetween(id, (int) (w >>> 32), vc(id), need);
    }

    // ---- CTA barriers, cluster barrier, warp sync -----------------------------------------------

    /** The lanes of a warp arrive on a CTA barrier: each releases its clock into the generation's. */
    public void barArrive(int cta, int id, int warp, int lanes) {
        int k = cta * 16 + id;
        if (bar[k] == null) bar[k] = new VectorClock.Builder(chunkCount, chunkSize);
        releaseWarp(warp, lanes, bar[k]);
    }

    /** {@link #release} for several lanes of one warp at once: their ids share one chunk. */
    private void releaseWarp(int warp, int lanes, VectorClock.Builder b) {
        int s0 = warp << 5;
        VectorClock prev = null;
        for (int l = lanes; l != 0; l &= l - 1) {
            // The lanes of a warp usually share one base: join each distinct one once.
            VectorClock v = base[s0 + Integer.numberOfTrailingZeros(l)];
            if (v != prev) {
                b.join(v);
                prev = v;
            }
        }
        int c = s0 / chunkSize;
        int[] ch = b.chunkForWrite(c);
        int i0 = s0 - c * chunkSize;
        if (lanes == -1) {
            // A whole warp (the usual arrival): a plain counted loop the JIT can vectorise.
            for (int lane = 0; lane < 32; lane++) {
                int s = s0 + lane;
                ch[i0 + lane] = Math.max(ch[i0 + lane], clock[s]);
                clock[s]++;
            }
            return;
        }
        for (int l = lanes; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            int s = s0 + lane;
            if (ch[i0 + lane] < clock[s]) ch[i0 + lane] = clock[s];
            clock[s]++;
        }
    }

    /** The generation completed: the clock its waiters acquire. */
    public VectorClock barComplete(int cta, int id) {
        VectorClock.Builder b = bar[cta * 16 + id];
        if (b == null) return null;
        VectorClock v = b.snapshot();
        b.clear();
        return v;
    }

    /**
     * A waiter the generation released acquires it. The generation's clock already covers the
     * waiter's (it arrived in it and has not run since), so it simply becomes the waiter's base.
     */
    @Override
    public void barAcquire(int slot, MemoryModelHook.Release released) {
        VectorClock v = (VectorClock) released;
        if (v != null) base[slot] = v;
    }

    public void clusterArrive(int slot, int firstCta, boolean relaxed) {
        if (cluster[firstCta] == null) cluster[firstCta] = new VectorClock.Builder(chunkCount, chunkSize);
        if (!relaxed) release(slot, cluster[firstCta]);
        else cluster[firstCta].join(fence[slot]);
    }

    public void clusterComplete(int firstCta) {
        VectorClock.Builder b = cluster[firstCta];
        clusterDone[firstCta] = b == null ? null : b.snapshot();
        if (b != null) b.clear();
    }

    public void clusterAcquire(int slot, int firstCta) { acquire(slot, clusterDone[firstCta]); }

    /** The members of a warp .sync instruction meet: each is ordered after all the others' earlier work. */
    public void warpSync(int warp, int members) {
        int b0 = warp << 5;
        releaseWarp(warp, members, scratch);
        VectorClock v = scratch.snapshot();
        scratch.clear();
        // v joins every member's clock, so it is every member's new base as it is.
        for (int l = members; l != 0; l &= l - 1) base[b0 + Integer.numberOfTrailingZeros(l)] = v;
    }

    // ---- mbarriers ------------------------------------------------------------------------------

    private MbarState state(Mbarrier b) {
        return mbar.computeIfAbsent(MbarrierUnit.key(b.cta, b.offset), k -> new MbarState(chunkCount, chunkSize));
    }

    public void mbarrierInit(int slot, Mbarrier b, int pc) {
        MbarState st = state(b);
        st.accum.clear();
        st.done = null;
        st.initEpoch = ((long) clock[slot] << 32) | slot;
        st.initPc = pc;
    }

    /**
     * Any other operation on the object by the current actor (thread {@code slot}, or the copy
     * completing): the init must happen before it (semantics.md section 6, remote arrive).
     */
    public void mbarrierUse(int slot, Mbarrier b, int pc) {
        if (reported) return;
        MbarState st = mbar.get(MbarrierUnit.key(b.cta, b.offset));
        if (st == null || st.initEpoch == 0) return;
        if (asyncActor == null) actThread(slot);
        if (unordered(st.initEpoch)) {
            reported = true;
            RaceReport.initRace(this, b, st.initEpoch, st.initPc, asyncActor == null ? pc : asyncActor.pc(), actorSlot());
        }
    }

    /**
     * Whether the thread that executed the init {@code initEpoch} published it to its cluster
     * afterwards: a fence (fence.mbarrier_init.release.cluster, or a full fence) or a release
     * barrier.cluster.arrive at or after the init's clock (PTX ISA 9.7.13.4, 9.7.13.3).
     */
    boolean initPublished(long initEpoch) {
        int s = (int) (initEpoch & (STRONG - 1));
        int c = (int) (initEpoch >>> 32);
        if (fence[s] != null && fence[s].get(s, chunkSize) >= c) return true;
        int first = m.clusterBarriers[m.ctaOfSlot(s)].firstCta;
        return (cluster[first] != null && cluster[first].get(s) >= c)
                || (clusterDone[first] != null && clusterDone[first].get(s, chunkSize) >= c);
    }

    /** An arrive-on by thread {@code slot} (or by the completing copy): a release unless relaxed. */
    public void mbarrierArrive(int slot, Mbarrier b, boolean relaxed) {
        MbarState st = state(b);
        if (asyncActor != null) {
            AsyncSnap a = asyncActor;
            st.accum.join(a.base());
            st.accum.raise(a.slot(), a.slotClock());
            st.accum.raise(a.agentId(), a.agentK());
        } else if (!relaxed) {
            release(slot, st.accum);
        } else {
            st.accum.join(fence[slot]);
        }
    }

    public void mbarrierPhaseComplete(Mbarrier b) {
        MbarState st = state(b);
        st.done = st.accum.snapshot();
        st.accum.clear();
    }

    /** A test_wait/try_wait returned true for the completed phase: an acquire unless relaxed. */
    public void mbarrierAcquire(int slot, Mbarrier b, boolean relaxed) {
        MbarState st = mbar.get(MbarrierUnit.key(b.cta, b.offset));
        if (st == null || st.done == null) return;
        if (!relaxed) acquire(slot, st.done);
        else pendingAcquire[slot] = pendingAcquire[slot] == null ? st.done : pendingAcquire[slot].join(st.done);
    }

    // ---- async copies ---------------------------------------------------------------------------

    public void asyncIssue(AsyncOperation op) {
        int s = op.slot();
        int kind = switch (op.kind()) {
            case CP_ASYNC -> AGENT_CP;
            case BULK_TO_GLOBAL -> AGENT_BULK;
            case CP_ASYNC_ARRIVE -> -AGENT_CP;
            default -> AGENT_MBAR;
        };
        AsyncSnap snap;
        if (kind < 0) {
            // It writes nothing; its arrive-on publishes the thread's earlier cp.async data.
            int cp = AGENT_CP * slots + s;
            snap = new AsyncSnap(base[s], s, clock[s], cp, clock[cp] - 1, op.pc(), true, -1, false);
        } else {
            int agent = kind * slots + s;
            // An operation with no destination CTA is refused at issue; checked here too, at the point of use.
            long mb = kind == AGENT_MBAR && op.dstCtas().length > 0 ? MbarrierUnit.key(op.dstCtas()[0], op.mbarrierOffset()) : -1;
            snap = new AsyncSnap(base[s], s, clock[s], agent, clock[agent]++, op.pc(), false, mb, isAsyncProxy(op.kind()));
        }
        async.put(op.id(), snap);
        // The issue is a release point: the thread's later accesses are not ordered before the copy.
        clock[s]++;
    }

    /** cp.async.bulk{,.tensor} and their reductions access memory through the async proxy; cp.async and st.async/red.async through the generic one. */
    static boolean isAsyncProxy(AsyncOperation.Kind k) {
        return k == AsyncOperation.Kind.BULK_TO_SHARED || k == AsyncOperation.Kind.BULK_TO_GLOBAL || k == AsyncOperation.Kind.TENSOR_TO_SHARED;
    }

    /** The copy's accesses and signals until {@link #endAsync} are its own, not its issuer's. */
    public void beginAsync(AsyncOperation op) {
        AsyncSnap a = async.get(op.id());
        if (a == null) return;
        asyncActor = a;
        actorId = a.agentId();
        actorClock = a.agentK();
        selfA = a.slot();
        clockA = a.slotClock();
        selfB = a.agentId();
        clockB = a.agentK();
        actorBase = a.base();
        actorPc = a.pc();
    }

    public void endAsync(AsyncOperation op) {
        asyncActor = null;
        selfB = -1;
        async.remove(op.id());
    }

    /** A cp.async / bulk wait_group let thread {@code s} go on: it acquires its copies that completed (the completed prefix). */
    public void groupWaitPassed(int s, boolean bulk) {
        int agent = (bulk ? AGENT_BULK : AGENT_CP) * slots + s;
        int done = clock[agent] - 1;
        for (AsyncSnap a : async.values()) if (a.agentId() == agent && !a.arriveOnly() && a.agentK() <= done) done = a.agentK() - 1;
        if (done > 0) base[s] = base[s].with(agent, done, chunkSize, chunkCount);
    }

    // ---- reports --------------------------------------------------------------------------------

    int actorSlot() { return asyncActor != null ? asyncActor.slot() : actorId % slots; }
    int actorIdNow() { return actorId; }
    int actorPcNow() { return actorPc; }
    boolean actorIsAsync() { return asyncActor != null; }
    /** The mbarrier (MbarrierUnit key) the copy in progress signals, or -1. */
    long actorMbarrier() { return asyncActor != null ? asyncActor.mbarrier() : -1; }
    int ctas() { return ctas; }

    private void race(int region, int off, long prev, int prevPc, long prevStep, boolean prevWrite, boolean write) {
        reported = true;
        RaceReport.dataRace(this, region, off, (int) (prev & (STRONG - 1)), prevPc, prevStep, prevWrite, write);
    }

    /** Whether a race was reported (the detector stops looking after the first). */
    public boolean reported() { return reported; }

    // ---- checkpoints ----------------------------------------------------------------------------

    /** The detector's whole state for a checkpoint (immutable once taken). */
    @Override
    public RaceCheckpoint save() { return new RaceCheckpoint(this); }

    @Override
    public void restore(MemoryModelHook.Snapshot snapshot) {
        RaceCheckpoint s = (RaceCheckpoint) snapshot;
        s.restoreInto(this);
        asyncActor = null;
        selfB = -1;
        strongMode = 0;
        rmw = false;
    }

    /** Feeds the detector's state, in a fixed order, to a hash (StateHash). */
    public void hashInto(java.util.function.LongConsumer h) { RaceCheckpoint.hash(this, h); }
}
