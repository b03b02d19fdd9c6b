package io.barrierscope.check;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.MemoryModelHook;
import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.Mbarrier;

/**
 * The happens-before race detector (semantics.md section 8), FastTrack style: every thread and
 * every thread's async agents have a clock; a thread's vector clock is a shared immutable base
 * plus its own clock; shadow memory keeps per byte the epoch of the last write and of the last
 * read (or a read set). The engine calls the hooks below directly (one null check each when
 * detection is off). Edges: CTA barrier generations, barrier.cluster release/acquire,
 * mbarrier release-arrive to acquire-wait of the completed phase, async copies through their
 * complete-tx (or wait_group), warp .sync instructions that order memory (bar.warp.sync, not
 * vote/match/redux/elect/shfl), release/acquire memory operations and
 * fences through the location they synchronize on, within their scopes ({@link ScopedSync}). All state is plain data, saved in
 * checkpoints and hashed by StateHash, so time travel sees the same findings.
 */
public final class RaceDetector implements MemoryModelHook {
    /** Agent kinds: ids are kind * slots + issuing slot. Kind 0 is the thread itself. */
    static final int AGENT_MBAR = 1;
    static final int AGENT_CP = 2;
    static final int AGENT_BULK = 3;
    /** A bulk-group copy's destination accesses, at its AGENT_BULK epoch (no counter of its own): wait_group.read orders only the source reads. */
    static final int AGENT_BULK_DST = 4;
    static final int KINDS = 5;
    static final long STRONG = 1L << 31;
    /**
     * Read-set entries (reads by threads unordered with each other, kept until a write) one run's
     * shadow may hold: past it race detection stops for the rest of the run and the run says at
     * which step (docs/reliability.md). With {@link #READ_SET_BYTES_PER_ENTRY} this bounds what
     * read sets can cost, so launch/MemoryEstimate counts it before the run.
     */
    public static final long READ_SET_ENTRY_CAP = 1L << 20;
    /**
     * Heap bytes the per-location synchronization state ({@link ScopedSync}: per location a strong
     * access wrote, the clocks published by each releasing CTA and scope) may hold, counted with
     * every clock's chunks as if none were shared: past it race detection stops as at the read
     * sets' cap, so launch/MemoryEstimate counts it before a run whose kernel has strong accesses.
     */
    public static final long LOCATION_STATE_CAP = 64L << 20;
    /**
     * Heap bytes of vector clocks a run may hold beyond what {@link RaceMemory#stateBytes} counts
     * (clocks joined from other CTAs, mbarrier phases'): past it detection stops ({@link RaceClockBudget}).
     */
    public static final long JOINED_CLOCK_CAP = 64L << 20;
    /**
     * Heap bytes per read-set entry at worst: a set of two (its object and four arrays of capacity
     * two, about 144 bytes) is 72 per entry, of three or four (capacity four, about 184 bytes) 61;
     * a large one about 20 per entry, twice that after a doubling, and its index 16 more.
     */
    public static final long READ_SET_BYTES_PER_ENTRY = 96;

    final Interpreter x;
    final Machine m;
    final int slots;
    final int chunkSize;
    final int chunkCount;
    private final int ctas;

    final int[] clock;
    /**
     * Per thread: the shared immutable part of its vector clock, unless its warp's entry in
     * {@link #warpBase} is set (read through {@link #baseOf}, written through {@link #setBase}).
     */
    final VectorClock[] base;
    /**
     * Per warp: the one base all its threads share (after a CTA barrier or a whole-warp sync
     * released them together), or null when {@link #base} holds each thread's own. Saves 32
     * reference stores per released warp, and lets a warp's accesses look the base up once.
     */
    final VectorClock[] warpBase;
    /** Per thread: its clock at its last fence (what a later relaxed release-pattern write publishes), or null. */
    final VectorClock[] fence;
    /** Per thread: release clocks its relaxed loads saw since its last fence (a fence acquires them). */
    final VectorClock[] pendingAcquire;
    final VectorClock.Builder[] bar;
    final VectorClock.Builder[] cluster;
    final VectorClock[] clusterDone;
    /**
     * Per CTA: what relaxed cluster arrives published from .cta fences (to that CTA's waiters
     * only), and that of the last completed phase; null until a relaxed arrive follows a .cta fence.
     */
    VectorClock.Builder[] clusterCta;
    VectorClock[] clusterCtaDone;
    /** Release/acquire through locations and fences, by scope. */
    final ScopedSync scoped;
    RaceShadow shadow;
    /** The fence.proxy.async fences each thread executed (semantics.md section 13). */
    ProxyFences proxy;
    boolean reported;
    /** A one-entry cache of {@link #acquire}'s joins (not state: a pure function of its keys). */
    private VectorClock joinedA;
    private VectorClock joinedB;
    private VectorClock joinedResult;

    /** The memory side: shadow checks of each access. */
    private final RaceAccess memory;
    /** The mbarrier objects' clocks. */
    final RaceMbarriers mbarriers;
    /** Releases, syncs and acquires of a warp's lanes at once. */
    final RaceWarps warps;
    /** The async copies in flight and their groups' ends. */
    final RaceAsyncCopies copies;
    /** What the clocks hold, counted as they grow (bounded by its cap). */
    final RaceClockBudget clockBudget;

    // The actor of the access or sync operation in progress: a thread, or an async copy completing.
    AsyncSnap asyncActor;
    int actorId;
    int actorClock;
    private int selfA;
    private int clockA;
    private int selfB = -1;
    private int clockB;
    private VectorClock actorBase;
    int actorPc;
    int strongMode;
    /** The chunk (and its first id) of the id {@link #vc} looked up last. */
    private int lastChunk;
    private int lastChunkStart;
    private boolean rmw;

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
        clock = new int[AGENT_BULK_DST * slots];
        java.util.Arrays.fill(clock, 1);
        base = new VectorClock[slots];
        warpBase = new VectorClock[(slots + 31) >> 5];
        java.util.Arrays.fill(warpBase, VectorClock.EMPTY);
        fence = new VectorClock[slots];
        pendingAcquire = new VectorClock[slots];
        bar = new VectorClock.Builder[ctas * 16];
        cluster = new VectorClock.Builder[ctas];
        clusterDone = new VectorClock[ctas];
        shadow = new RaceShadow(ctas + m.memory.global.segments().size());
        proxy = new ProxyFences(slots);
        memory = new RaceAccess(this);
        mbarriers = new RaceMbarriers(this);
        warps = new RaceWarps(this);
        copies = new RaceAsyncCopies(this);
        scoped = new ScopedSync(this);
        clockBudget = new RaceClockBudget(this, ctas, chunkSize);
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

    void actThread(int t) {
        actorId = t;
        actorClock = clock[t];
        selfA = t;
        clockA = clock[t];
        selfB = -1;
        // Consecutive accesses are mostly by threads that share one base (since their last barrier):
        // skip the reference store and its GC write barrier then.
        VectorClock b = baseOf(t);
        if (b != actorBase) actorBase = b;
        actorPc = m.pc[t];
    }

    /** Entry {@code u} of the current actor's vector clock. */
    int vc(int u) {
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
        return ch == null ? 0 : ch[ch.length == chunkSize ? i : i >> 5];
    }

    /** Thread {@code t}'s base. */
    VectorClock baseOf(int t) {
        VectorClock w = warpBase[t >> 5];
        return w != null ? w : base[t];
    }

    /** Gives thread {@code t} its own base {@code v} (its warp's others keep theirs). */
    void setBase(int t, VectorClock v) {
        int w = t >> 5;
        VectorClock shared = warpBase[w];
        if (shared != null) {
            if (shared == v) return;
            java.util.Arrays.fill(base, w << 5, Math.min((w + 1) << 5, slots), shared);
            warpBase[w] = null;
        }
        base[t] = v;
        // The warp's last thread taking the base its others took (the lanes of an mbarrier wait acquire
        // one by one, in lane order): the warp shares one base again, and its accesses find it once.
        int end = Math.min((w + 1) << 5, slots);
        if (t == end - 1) {
            for (int s = w << 5; s < t; s++) if (base[s] != v) return;
            warpBase[w] = v;
        }
    }

    /** Joins the thread's clock into {@code b} and starts its next epoch (a release). */
    void release(int t, VectorClock.Builder b) {
        b.join(baseOf(t));
        b.raise(t, clock[t]);
        clock[t]++;
    }

    void acquire(int t, VectorClock v) {
        if (v == null) return;
        setBase(t, joinCached(baseOf(t), v));
    }

    /** {@code a} joined with {@code v}, charged; the participants of one barrier usually share one base: join once, reuse the result. */
    VectorClock joinCached(VectorClock a, VectorClock v) {
        if (a == joinedA && v == joinedB) return joinedResult;
        VectorClock r = clockBudget.join(a, v); // charged; once stopped for the clocks, a: keep no more
        joinedA = a;
        joinedB = v;
        joinedResult = r;
        return r;
    }

    VectorClock current(int t) { return baseOf(t).with(t, clock[t], chunkSize, chunkCount); }

    // ---- memory ---------------------------------------------------------------------------

    /** A plain or strong access of {@code size} bytes at {@code offset} of {@code region} (a CTA's shared memory, or a global segment). */
    @Override
    public void access(int region, int offset, int size, int thread, boolean write) {
        if (asyncActor != null) actSide(region);
        memory.access(region, offset, size, thread, write);
    }

    /** Plain aligned words by the lanes of one warp: {@link #access} of each lane in lane order, with what they share found once. */
    @Override
    public void accessWords(int region, int[] offsets, int lanes, int warp, boolean write) {
        if (asyncActor != null) actSide(region);
        memory.accessWords(region, offsets, lanes, warp, write);
    }

    /** A bulk-group copy reads only its issuer's shared memory and writes only global memory: the region tells source from destination. */
    private void actSide(int region) {
        int a = asyncActor.agentId();
        if (a / slots != AGENT_BULK) return;
        actorId = region >= ctas ? a + slots : a;
        selfB = actorId;
    }

    /** Whether epoch {@code e} is not ordered before the current actor. */
    boolean unordered(long e) {
        int id = (int) (e & (STRONG - 1));
        return id != actorId && (int) (e >>> 32) > vc(id);
    }

    /**
     * Release/acquire through the accessed location (the flag of a flag pattern), within the
     * access's scope; the location is {@code scoped.key}, set when the strong access began.
     */
    void strongSync(int t, boolean write) {
        if (shadow.stoppedAt >= 0) return; // nothing checks accesses any more: keep no more location state
        if (write) scoped.write(t, strongMode == 3 || strongMode == 4, rmw);
        else scoped.read(t, strongMode == 2 || strongMode == 4);
    }

    /** Marks the accesses until {@link #endStrong} as atomic/ordered ones: 1 relaxed, 2 acquire, 3 release, 4 acq_rel; at .gpu scope. */
    public void beginStrong(int sem, boolean readModifyWrite) { beginStrong(sem, readModifyWrite, ScopedSync.GPU); }

    @Override
    public void beginStrong(int sem, boolean readModifyWrite, int scope) {
        strongMode = sem;
        rmw = readModifyWrite;
        scoped.scope = scope;
    }

    public void endStrong() {
        strongMode = 0;
        rmw = false;
    }

    /** fence / membar at .gpu scope. */
    public void fence(int t) { fence(t, ScopedSync.GPU); }

    /** fence / membar: acquires what earlier relaxed loads saw within its scope, and publishes for later relaxed stores. */
    @Override
    public void fence(int t, int scope) { scoped.fence(t, scope); }

    /** fence.mbarrier_init: a cluster release of the thread's clock up to its last init, no acquire (PTX ISA 9.7.13.4). */
    @Override
    public void fenceMbarrierInit(int t) {
        int c = mbarriers.lastInitClock(t);
        if (c >= 0) scoped.releaseOnly(t, baseOf(t).with(t, c, chunkSize, chunkCount));
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
        asyncActor = new AsyncSnap(baseOf(t), t, clock[t], t, clock[t], pc, false, -1, true);
        actorId = t;
        actorClock = clock[t];
        selfA = t;
        clockA = clock[t];
        selfB = -1;
        actorBase = baseOf(t);
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
    boolean proxyFenced(long w, int region) {
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
        warps.release(warp, lanes, bar[k]);
    }

    /** The generation completed: the clock its waiters acquire. */
    public VectorClock barComplete(int cta, int id) {
        return clockBudget.complete(bar[cta * 16 + id]);
    }

    /**
     * A waiter the generation released acquires it. The generation's clock already covers the
     * waiter's (it arrived in it and has not run since), so it simply becomes the waiter's base.
     */
    @Override
    public void barAcquire(int slot, MemoryModelHook.Release released) {
        VectorClock v = (VectorClock) released;
        if (v != null) setBase(slot, v);
    }

    /** {@link #barAcquire} for all 32 threads of a warp the generation released together. */
    @Override
    public void barAcquireWarp(int warp, MemoryModelHook.Release released) {
        VectorClock v = (VectorClock) released;
        if (v != null) warpBase[warp] = v;
    }

    public void clusterArrive(int slot, int firstCta, boolean relaxed) {
        if (cluster[firstCta] == null) cluster[firstCta] = new VectorClock.Builder(chunkCount, chunkSize);
        if (!relaxed) {
            release(slot, cluster[firstCta]);
            return;
        }
        // A relaxed arrive publishes what an earlier fence did, to the threads of the fence's scope
        // only (the fence and the wait must be morally strong): a .cluster or wider fence to the
        // whole cluster, a later .cta one to the waiters of the arriving thread's own CTA.
        cluster[firstCta].join(scoped.fenceCluster[slot]);
        if (fence[slot] != scoped.fenceCluster[slot]) {
            if (clusterCta == null) {
                clusterCta = new VectorClock.Builder[ctas];
                clusterCtaDone = new VectorClock[ctas];
            }
            int c = m.ctaOfSlot(slot);
            if (clusterCta[c] == null) clusterCta[c] = new VectorClock.Builder(chunkCount, chunkSize);
            clusterCta[c].join(fence[slot]);
        }
    }

    public void clusterComplete(int firstCta) {
        clusterDone[firstCta] = clockBudget.complete(cluster[firstCta]);
        if (clusterCta == null) return;
        for (int c = 0; c < ctas; c++) {
            if (m.clusterBarriers[c].firstCta != firstCta) continue;
            VectorClock.Builder l = clusterCta[c];
            clusterCtaDone[c] = l == null || l.isEmpty() ? null : clockBudget.complete(l);
            if (l != null) l.clear();
        }
    }

    public void clusterAcquire(int slot, int firstCta) {
        acquire(slot, clusterDone[firstCta]);
        if (clusterCta != null) acquire(slot, clusterCtaDone[m.ctaOfSlot(slot)]);
    }

    /** The members of a warp .sync instruction that orders memory meet: each is ordered after all the others' earlier work. */
    public void warpSync(int warp, int members) { warps.sync(warp, members); }

    // ---- mbarriers (RaceMbarriers) --------------------------------------------------------------

    public void mbarrierInit(int slot, Mbarrier b, int pc) { mbarriers.init(slot, b, pc); }

    /**
     * Any other operation on the object by the current actor (thread {@code slot}, or the copy
     * completing): the init must happen before it (semantics.md section 6, remote arrive).
     */
    public void mbarrierUse(int slot, Mbarrier b, int pc) { mbarriers.use(slot, b, pc); }

    @Override
    public boolean mbarrierUsesQuiet(int warp, int lanes, Mbarrier b) { return mbarriers.usesQuiet(warp, lanes, b); }

    @Override
    public void mbarrierArriveWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        mbarriers.arriveWarp(warp, lanes, b, relaxed, scope);
    }

    /**
     * Whether the thread that executed the init {@code initEpoch} published it to its cluster
     * afterwards: a fence (fence.mbarrier_init.release.cluster, or a full fence) or a release
     * barrier.cluster.arrive at or after the init's clock (PTX ISA 9.7.13.4, 9.7.13.3).
     */
    boolean initPublished(long initEpoch) { return mbarriers.initPublished(initEpoch); }

    /** An arrive-on by thread {@code slot} (or by the completing copy): a release unless relaxed, within {@code scope}. */
    public void mbarrierArrive(int slot, Mbarrier b, boolean relaxed, int scope) { mbarriers.arrive(slot, b, relaxed, scope); }

    public void mbarrierPhaseComplete(Mbarrier b) { mbarriers.phaseComplete(b); }

    /** A test_wait/try_wait returned true for the completed phase: an acquire unless relaxed, within {@code scope}. */
    public void mbarrierAcquire(int slot, Mbarrier b, boolean relaxed, int scope) { mbarriers.acquire(slot, b, relaxed, scope); }

    @Override
    public void mbarrierAcquireWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        mbarriers.acquireWarp(warp, lanes, b, relaxed, scope);
    }

    // ---- async copies ---------------------------------------------------------------------------

    /** A copy issued: its view at issue and its group's end (RaceAsyncCopies). */
    public void asyncIssue(AsyncOperation op) { copies.issue(op); }

    /** The copy's accesses and signals until {@link #endAsync} are its own, not its issuer's. */
    public void beginAsync(AsyncOperation op) {
        AsyncSnap a = copies.inFlight.get(op.id());
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
        copies.inFlight.remove(op.id());
    }

    /** A wait_group let thread {@code s} go on: it acquires the groups numbered below {@code keptFrom} (RaceAsyncCopies). */
    public void groupWaitPassed(int s, boolean bulk, long keptFrom, boolean sourceReadsOnly) {
        copies.groupWaitPassed(s, bulk, keptFrom, sourceReadsOnly);
    }

    // ---- reports --------------------------------------------------------------------------------

    int actorSlot() { return asyncActor != null ? asyncActor.slot() : actorId % slots; }
    int actorIdNow() { return actorId; }
    int actorPcNow() { return actorPc; }
    boolean actorIsAsync() { return asyncActor != null; }
    /** The mbarrier (MbarrierUnit key) the copy in progress signals, or -1. */
    long actorMbarrier() { return asyncActor != null ? asyncActor.mbarrier() : -1; }
    int ctas() { return ctas; }

    void race(int region, int off, long prev, int prevPc, long prevStep, boolean prevWrite, boolean write) {
        reported = true;
        RaceReport.dataRace(this, region, off, (int) (prev & (STRONG - 1)), prevPc, prevStep, prevWrite, write);
    }

    /** Whether a race was reported (the detector stops looking after the first). */
    public boolean reported() { return reported; }

    /**
     * The warp step at which the read sets passed {@link #READ_SET_ENTRY_CAP} and race detection
     * stopped for the rest of the run, or -1 while it checks every access.
     */
    public long stoppedAtStep() { return shadow.stoppedAt; }

    /** Whether detection stopped because the per-location state passed {@link #LOCATION_STATE_CAP} (else the read sets' cap). */
    public boolean stoppedByLocationState() { return shadow.stoppedByLocations; }

    /** Whether detection stopped because the clocks passed {@link #JOINED_CLOCK_CAP} ({@link RaceClockBudget}). */
    public boolean stoppedByClocks() { return shadow.stoppedByClocks; }

    /**
     * When the clocks stopped detection: the bytes of clocks the count at that step found, the bytes it
     * stops above, the copies in flight and the clocks only their views kept; null otherwise.
     */
    public long[] clocksAtStop() {
        return shadow.stoppedByClocks ? new long[] {shadow.clocksAtStop, clockBudget.stopAbove(), shadow.copiesInFlightAtStop, shadow.copyClocksAtStop}
                : null;
    }

    // ---- checkpoints ----------------------------------------------------------------------------

    /** The detector's whole state for a checkpoint (immutable once taken). */
    @Override
    public RaceCheckpoint save() { return new RaceCheckpoint(this); }

    @Override
    public void restore(MemoryModelHook.Snapshot snapshot) {
        RaceCheckpoint s = (RaceCheckpoint) snapshot;
        s.restoreInto(this);
        mbarriers.clearCache();
        asyncActor = null;
        selfB = -1;
        strongMode = 0;
        rmw = false;
    }

    /** Explore's cached digests of the per-thread state (not state; made on the first such hash). */
    private RaceDigests digests;

    RaceDigests digests() {
        if (digests == null) digests = new RaceDigests(this);
        return digests;
    }

    /** Feeds the detector's state, in a fixed order, to a hash (StateHash). */
    public void hashInto(java.util.function.LongConsumer h) { RaceCheckpoint.hash(this, h); }
}
