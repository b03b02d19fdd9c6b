package io.barrierscope.exec;

import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.Mbarrier;
import java.util.function.LongConsumer;

/**
 * What the machine tells a memory-model analysis (the race detector today, docs/explore.md):
 * every access and every synchronizing event, in execution order. The machine owns this
 * interface and never names an analysis, so an analysis plugs in (and out) without exec or sync
 * knowing how it works. A null hook means no analysis: callers test for null, which keeps the
 * unanalysed run free of any call.
 */
public interface MemoryModelHook {
    /** What a completed CTA barrier generation released, handed back to {@link #barAcquire}. */
    interface Release {}

    /** An analysis' state at a checkpoint, restored with {@link #restore}. */
    interface Snapshot {
        /** Approximate heap bytes, for the checkpoint budget. */
        long bytes();

        /** The part of {@link #bytes} that is copies of mbarrier state and of operations in flight (Machine.Saved#syncObjectBytes). */
        default long syncObjectBytes() { return 0; }
    }

    /** A memory access of {@code size} bytes at {@code offset} of a region (a CTA's shared memory, or ctas + global segment). */
    void access(int region, int offset, int size, int thread, boolean write);

    /**
     * Plain (weak) aligned 4-byte accesses of one warp instruction: lane {@code l} of {@code lanes}
     * (thread {@code warp * 32 + l}) accesses the word at {@code offsets[l]} of {@code region}.
     * Means exactly {@link #access} of each lane in lane order; one call per warp step lets an
     * analysis find once what the lanes share.
     */
    default void accessWords(int region, int[] offsets, int lanes, int warp, boolean write) {
        for (int l = lanes; l != 0; l &= l - 1) {
            int lane = Integer.numberOfTrailingZeros(l);
            access(region, offsets[lane], 4, (warp << 5) + lane, write);
        }
    }

    /**
     * A copy's plain aligned words: for each word {@code i} of {@code bytes}, a read of
     * {@code srcOffset + 4i} in {@code srcRegion}, then a write of {@code dstOffset + 4i} in
     * {@code dstRegion}, by {@code thread} (or the async copy in progress). Means exactly those
     * {@link #access} calls in that order.
     */
    default void copyWords(int srcRegion, int srcOffset, int dstRegion, int dstOffset, int bytes, int thread) {
        for (int i = 0; i < bytes; i += 4) {
            access(srcRegion, srcOffset + i, 4, thread, false);
            access(dstRegion, dstOffset + i, 4, thread, true);
        }
    }

    /** Brackets a strong (release/acquire/relaxed or atomic) access; {@code sem} is its ordering. */
    void beginStrong(int sem, boolean readModifyWrite);

    /**
     * Scopes of strong operations and fences (PTX ISA 8.x memory consistency model, "scope"):
     * the threads of the issuer's CTA, of its cluster, or all (.gpu; .sys is the same set for
     * one launch).
     */
    int SCOPE_CTA = 0;
    int SCOPE_CLUSTER = 1;
    int SCOPE_GPU = 2;

    /** {@link #beginStrong(int, boolean)} at scope {@code scope} (SCOPE_*); the two-argument form means .gpu. */
    default void beginStrong(int sem, boolean readModifyWrite, int scope) { beginStrong(sem, readModifyWrite); }

    void endStrong();

    /** A fence by a thread (PTX ISA 9.7.13.4). */
    void fence(int thread);

    /** {@link #fence(int)} at scope {@code scope} (SCOPE_*); the one-argument form means .gpu. */
    default void fence(int thread, int scope) { fence(thread); }

    /**
     * {@code fence.mbarrier_init.release.cluster}: "the synchronizing effect of the fence only applies
     * to the prior mbarrier.init operations executed by the same thread" (PTX ISA 9.7.13.4). An
     * analysis that cannot tell them apart may take it as a cluster fence.
     */
    default void fenceMbarrierInit(int thread) { fence(thread, SCOPE_CLUSTER); }

    /** State spaces a proxy fence covers: the thread's own CTA's shared memory, any shared memory of its cluster, global memory. */
    int PROXY_SHARED_CTA = 1;
    int PROXY_SHARED_CLUSTER = 2;
    int PROXY_GLOBAL = 4;

    /**
     * A {@code fence.proxy.async} by a thread, covering the state spaces {@code spaces} (PTX ISA
     * 9.7.13.4): orders its earlier generic-proxy accesses there with later async-proxy ones.
     */
    void proxyFence(int thread, int spaces);

    /**
     * Until {@link #endAsyncProxyRead}, the accesses are a wgmma.mma_async's shared-memory operand
     * reads through matrix descriptors, made for thread {@code thread} at {@code pc}: reads through
     * the async proxy (PTX ISA 9.7.15.4), so a generic-proxy write they see needs a proxy fence.
     */
    void beginAsyncProxyRead(int thread, int pc);

    void endAsyncProxyRead();

    void barArrive(int cta, int id, int warp, int lanes);

    /** A CTA barrier generation completed: what its arrivals released. */
    Release barComplete(int cta, int id);

    void barAcquire(int slot, Release released);

    /** {@link #barAcquire} for all 32 threads of {@code warp}, released together by one generation. */
    default void barAcquireWarp(int warp, Release released) {
        for (int s = warp << 5; s < (warp << 5) + 32; s++) barAcquire(s, released);
    }

    void clusterArrive(int slot, int firstCta, boolean relaxed);

    void clusterComplete(int firstCta);

    void clusterAcquire(int slot, int firstCta);

    void warpSync(int warp, int members);

    void mbarrierInit(int slot, Mbarrier b, int pc);

    void mbarrierUse(int slot, Mbarrier b, int pc);

    /**
     * Whether {@link #mbarrierUse} of {@code b} by each lane of {@code lanes} of {@code warp} would
     * do nothing (report nothing), so a whole-warp path may leave the calls out. No side effects;
     * false when not known (then the lanes go one by one).
     */
    default boolean mbarrierUsesQuiet(int warp, int lanes, Mbarrier b) { return false; }

    /** An arrive-on: a release unless {@code relaxed}, observed by the threads of {@code scope} (SCOPE_CTA or SCOPE_CLUSTER). */
    void mbarrierArrive(int slot, Mbarrier b, boolean relaxed, int scope);

    /** {@link #mbarrierArrive} of each lane of {@code lanes} of {@code warp}, in lane order, all by one instruction. */
    default void mbarrierArriveWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        for (int l = lanes; l != 0; l &= l - 1) mbarrierArrive((warp << 5) + Integer.numberOfTrailingZeros(l), b, relaxed, scope);
    }

    void mbarrierPhaseComplete(Mbarrier b);

    /** A test_wait/try_wait returned true: an acquire unless {@code relaxed}, of the arrive-ons of {@code scope} (SCOPE_CTA or SCOPE_CLUSTER). */
    void mbarrierAcquire(int slot, Mbarrier b, boolean relaxed, int scope);

    /**
     * {@link #mbarrierAcquire} of each lane of {@code lanes} of {@code warp}, in lane order, all by
     * one instruction (one {@code relaxed} and {@code scope}): what a completed phase's waiters of
     * one warp do together, so the detector can join the warp's shared clock once.
     */
    default void mbarrierAcquireWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        for (int l = lanes; l != 0; l &= l - 1) mbarrierAcquire((warp << 5) + Integer.numberOfTrailingZeros(l), b, relaxed, scope);
    }

    void asyncIssue(AsyncOperation op);

    void beginAsync(AsyncOperation op);

    void endAsync(AsyncOperation op);

    /**
     * A thread passed a wait for its async groups ({@code bulk}: bulk groups): it waited for every
     * group numbered below {@code keptFrom} (the newest N of a wait_group N are not waited for);
     * {@code sourceReadsOnly}: a {@code cp.async.bulk.wait_group.read}, which waits for those groups'
     * source reads only, not their writes to their destinations.
     */
    void groupWaitPassed(int slot, boolean bulk, long keptFrom, boolean sourceReadsOnly);

    Snapshot save();

    void restore(Snapshot s);

    /** Feeds the analysis' state into a state hash, so replays verify it too. */
    void hashInto(LongConsumer h);

    /**
     * A state hash that takes each immutable vector clock as one cached 64-bit digest of its
     * entries instead of the entries themselves (explore's hash; traces feed the entries).
     */
    @FunctionalInterface
    interface ClockDigests extends LongConsumer {}
}
