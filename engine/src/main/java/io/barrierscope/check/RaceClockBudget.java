package io.barrierscope.check;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Bounds the vector clocks the race detector holds (docs/reliability.md, "Clocks joined from other
 * CTAs past their cap stop race detection, with a note"). Clocks a thread acquires from other CTAs
 * (.cluster and .gpu releases, barrier.cluster, a peer's mbarrier, a grid-wide sync) carry chunks of
 * those CTAs' ids, so per thread they can grow to every CTA's: threads x CTAs, more than
 * {@link RaceMemory#stateBytes} counts. Every join that makes a new clock is charged what it
 * allocated; once the charges since the last count pass half the clocks counted then (at least
 * {@link #RECOUNT_FLOOR}), the clocks alive are counted again, each distinct clock and chunk once (so
 * a recount costs in proportion to what was allocated since the last: amortized). Before they can
 * pass {@link RaceMemory#stateBytes} of the launch plus {@link #cap} detection stops and the clocks
 * are dropped ({@link #charge}). The charges follow the run and travel in checkpoints, so it stops at the same step every time.
 */
final class RaceClockBudget {
    /** Bytes allocated by joins between two recounts at least: small launches never recount. */
    static final long RECOUNT_FLOOR = 4L << 20;

    private final RaceDetector d;
    /** What the launch's estimate counts for its clocks ({@link RaceMemory#stateBytes} with lanes' own clocks). */
    private final long counted;
    /**
     * Bytes of clocks beyond {@link #counted} a run may hold: what the launch counts for them when that
     * rests on a reservation ({@link RaceMemory#runClockCap}), else {@link RaceDetector#JOINED_CLOCK_CAP}
     * (a test may lower it).
     */
    long cap;
    /** Bytes allocated by joins since the last count, and the clock bytes that count found. */
    long sinceCount;
    long lastCount;

    RaceClockBudget(RaceDetector d, int ctas, int slotsPerCta) {
        this.d = d;
        this.counted = RaceMemory.stateBytes(ctas, slotsPerCta, true);
        io.barrierscope.exec.Machine m = d.m;
        RaceMemory.KernelFacts k = RaceMemory.KernelFacts.of(m.program);
        this.cap = RaceMemory.runClockCap(k, ctas, m.cluster.volume(), slotsPerCta,
                m.memory.shared.length == 0 ? 0 : m.memory.shared[0].length);
    }

    /** The join of {@code a} and {@code v} made {@code r}: charges what it allocated (its reference array and chunks new to both). */
    private void joined(VectorClock a, VectorClock v, VectorClock r) {
        if (r == a || r == v) return;
        charge(madeBytes(r, a, v));
    }

    /** The bytes of {@code r}'s object, reference array and the chunks it shares with neither {@code a} nor {@code v} (null: none). */
    private static long madeBytes(VectorClock r, VectorClock a, VectorClock v) {
        long b = 32 + 8L * r.chunks.length;
        for (int c = 0; c < r.chunks.length; c++) {
            int[] ch = r.chunks[c];
            if (ch == null || sharesChunk(a, c, ch) || v != null && sharesChunk(v, c, ch)) continue;
            b += 16 + 4L * ch.length;
        }
        return b;
    }

    private static boolean sharesChunk(VectorClock v, int c, int[] ch) { return c < v.chunks.length && v.chunks[c] == ch; }

    /**
     * The join of {@code a} and {@code b} (either may be null), charged: an acquire's, and what a
     * relaxed read leaves for a later fence. Once detection stopped for the clocks, {@code a}: keep no more.
     */
    VectorClock join(VectorClock a, VectorClock b) {
        if (d.shadow.stoppedByClocks) return a; // stopped for its clocks: keep no more
        if (a == null) return b;
        if (b == null) return a;
        VectorClock r = a.join(b);
        joined(a, b, r);
        return r;
    }

    /**
     * As {@link #join}, for a clock an acquire or a relaxed read takes from a location's published
     * clocks ({@code b}: one bucket's clock, or a fresh join of several). The location state counts
     * those clocks under its own cap, and a fresh join nowhere; what the thread takes of them (the
     * clock whole, or chunks the join shares with it) was charged to neither, and the count could
     * pass its limit by any number of such acquires before the next recount saw them. So everything
     * the result holds that {@code a} did not is charged (an upper bound: it may be shared), which
     * keeps the bound exact: the count passes the limit by one join's charge at most.
     */
    VectorClock joinPublished(VectorClock a, VectorClock b) {
        if (d.shadow.stoppedByClocks || b == null) return a;
        if (a == null) {
            charge(b.bytes());
            return b;
        }
        VectorClock r = a.join(b);
        if (r == a) return r;
        charge(madeBytes(r, a, null));
        return r;
    }

    /**
     * The clock a builder completed (a barrier generation, a cluster barrier, an mbarrier phase),
     * the builder cleared for the next: charged its object, its reference array and the chunks the
     * builder made itself (the others it shares with the clocks joined into it). Null for no builder.
     */
    VectorClock complete(VectorClock.Builder b) {
        if (b == null) return null;
        long made = b.ownedBytes();
        VectorClock v = b.snapshot();
        b.clear();
        charge(32 + 8L * v.chunks.length + made);
        return v;
    }

    /**
     * Recounts once the charges pass half the last count (at least {@link #RECOUNT_FLOOR}, or a
     * quarter of the cap when smaller), and at the latest when the last count plus the charges
     * could pass {@link #counted} plus the cap: what is alive is at most the last count plus what
     * was allocated since, so the clocks never pass that limit unseen (by one join at most). It
     * stops once a count passes the limit less an eighth of the cap, so near the limit a recount
     * comes after an eighth of the cap at least: amortized still.
     */
    private void charge(long bytes) {
        sinceCount += bytes;
        long limit = counted + cap;
        long every = Math.min(Math.max(Math.min(RECOUNT_FLOOR, cap / 4), lastCount / 2), Math.max(cap / 8, limit - lastCount));
        if (sinceCount <= every) return;
        sinceCount = 0;
        lastCount = liveBytes();
        if (lastCount > limit - cap / 8) stop();
    }

    /** The bytes {@link #stop} compares the clocks' count with: what the launch counts per thread plus what this run keeps beyond it, less an eighth. */
    long stopAbove() { return counted + cap - cap / 8; }

    /**
     * Stops detection at this warp step (the shadow dropped, as at the other caps) and drops the
     * clocks: nothing checks an access any more, and only CTA barriers and warp syncs build clocks
     * from here on (an acquire keeps nothing), each within one CTA's ids as the estimate counts them.
     */
    private void stop() {
        d.shadow.stopForClocks(d.x.eventStep());
        // What the count found, for the run's note: how much, and how much of it only copies in flight kept.
        d.shadow.clocksAtStop = lastCount;
        d.shadow.copiesInFlightAtStop = d.copies.inFlight.size();
        d.shadow.copyClocksAtStop = clocksOnlyCopiesKeep();
        java.util.Arrays.fill(d.base, VectorClock.EMPTY);
        java.util.Arrays.fill(d.warpBase, VectorClock.EMPTY);
        for (VectorClock[] vs : new VectorClock[][] {d.fence, d.pendingAcquire, d.scoped.fenceCluster, d.scoped.fenceGpu,
                d.scoped.pendingCluster, d.scoped.pendingGpu, d.clusterDone}) {
            java.util.Arrays.fill(vs, null);
        }
        for (VectorClock.Builder b : d.bar) if (b != null) b.clear();
        for (VectorClock.Builder b : d.cluster) if (b != null) b.clear();
        d.clusterCta = null;
        d.clusterCtaDone = null;
        for (RaceMbarriers.State st : d.mbarriers.map.values()) {
            st.accum.clear();
            if (st.remote != null) st.remote.clear();
            st.done = null;
            st.doneRemote = null;
        }
        d.scoped.locs.clear();
        d.scoped.locBytes = 0;
        lastCount = 0;
    }

    /**
     * The distinct clocks that only views of copies in flight keep (their issuers have moved on): what
     * an async kernel's reservation counts one per thread slot of. Identity sets only answer "seen?".
     */
    long clocksOnlyCopiesKeep() {
        Map<Object, Boolean> held = new IdentityHashMap<>();
        for (int t = 0; t < d.slots; t++) {
            for (VectorClock v : new VectorClock[] {d.baseOf(t), d.fence[t], d.pendingAcquire[t], d.scoped.fenceCluster[t], d.scoped.fenceGpu[t],
                    d.scoped.pendingCluster[t], d.scoped.pendingGpu[t]}) {
                if (v != null) held.put(v, Boolean.TRUE);
            }
        }
        long n = 0;
        for (RaceDetector.AsyncSnap a : d.copies.inFlight.values()) {
            if (a.base() != null && held.put(a.base(), Boolean.TRUE) == null) n++;
        }
        return n;
    }

    /**
     * Heap bytes of the clocks the detector holds now (not the per-location state, which has its
     * own cap): every thread's base, fences and pending acquires, the barriers' builders and
     * completed clocks, the mbarriers' phases and the async copies' views; each distinct clock's
     * object and reference array and each distinct chunk once. Identity maps only answer "seen?":
     * nothing depends on their order.
     */
    long liveBytes() {
        Map<Object, Boolean> seen = new IdentityHashMap<>();
        long[] bytes = {0};
        for (int t = 0; t < d.slots; t++) {
            add(d.baseOf(t), seen, bytes);
            add(d.fence[t], seen, bytes);
            add(d.pendingAcquire[t], seen, bytes);
            add(d.scoped.fenceCluster[t], seen, bytes);
            add(d.scoped.fenceGpu[t], seen, bytes);
            add(d.scoped.pendingCluster[t], seen, bytes);
            add(d.scoped.pendingGpu[t], seen, bytes);
        }
        for (VectorClock.Builder b : d.bar) addBuilder(b, seen, bytes);
        for (VectorClock.Builder b : d.cluster) addBuilder(b, seen, bytes);
        for (VectorClock v : d.clusterDone) add(v, seen, bytes);
        if (d.clusterCta != null) {
            for (VectorClock.Builder b : d.clusterCta) addBuilder(b, seen, bytes);
            for (VectorClock v : d.clusterCtaDone) add(v, seen, bytes);
        }
        for (RaceMbarriers.State st : d.mbarriers.map.values()) {
            addBuilder(st.accum, seen, bytes);
            addBuilder(st.remote, seen, bytes);
            add(st.done, seen, bytes);
            add(st.doneRemote, seen, bytes);
        }
        for (RaceDetector.AsyncSnap a : d.copies.inFlight.values()) add(a.base(), seen, bytes);
        return bytes[0];
    }

    private static void add(VectorClock v, Map<Object, Boolean> seen, long[] bytes) {
        if (v == null || seen.put(v, Boolean.TRUE) != null) return;
        bytes[0] += 32 + 8L * v.chunks.length;
        chunks(v.chunks, seen, bytes);
    }

    private static void addBuilder(VectorClock.Builder b, Map<Object, Boolean> seen, long[] bytes) {
        if (b == null || seen.put(b, Boolean.TRUE) != null) return;
        int[][] chunks = b.chunks();
        bytes[0] += 48 + 8L * chunks.length + (16 + chunks.length);
        chunks(chunks, seen, bytes);
    }

    private static void chunks(int[][] chunks, Map<Object, Boolean> seen, long[] bytes) {
        for (int[] ch : chunks) if (ch != null && seen.put(ch, Boolean.TRUE) == null) bytes[0] += 16 + 4L * ch.length;
    }
}
