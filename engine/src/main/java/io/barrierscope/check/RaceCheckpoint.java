package io.barrierscope.check;

import java.util.Map;
import java.util.TreeMap;

/**
 * The race detector's whole state for a checkpoint (opaque, immutable once taken), and its
 * state hash: time travel restores the detector with the machine, so a seek or a reverse step
 * finds the same races again. Vector clocks are immutable and shared; builders, maps and
 * shadow memory are copied.
 */
public final class RaceCheckpoint implements io.barrierscope.exec.MemoryModelHook.Snapshot {
    private final int[] clock;
    private final VectorClock[] base;
    private final VectorClock[] fence;
    private final VectorClock[] pendingAcquire;
    private final VectorClock[] bar;
    private final VectorClock[] cluster;
    private final VectorClock[] clusterDone;
    /** The detector's per-CTA cluster-barrier clocks (.cta fences before relaxed arrives), or null. */
    private final VectorClock[] clusterCta;
    private final VectorClock[] clusterCtaDone;
    private final TreeMap<Long, VectorClock[]> mbarClocks = new TreeMap<>();
    private final TreeMap<Long, long[]> mbarInit = new TreeMap<>();
    private final TreeMap<Long, RaceDetector.AsyncSnap> async;
    private final TreeMap<Long, Integer> groupEnds;
    private final ScopedSync scoped;
    private final RaceShadow shadow;
    private final ProxyFences proxy;
    private final boolean reported;
    /** The clock budget's charges since its last count, and that count (so a restored run stops where it did). */
    private final long clocksSinceCount;
    private final long clocksLastCount;

    RaceCheckpoint(RaceDetector d) {
        clock = d.clock.clone();
        base = new VectorClock[d.base.length];
        for (int t = 0; t < base.length; t++) base[t] = d.baseOf(t);
        fence = d.fence.clone();
        pendingAcquire = d.pendingAcquire.clone();
        bar = snapshots(d.bar);
        cluster = snapshots(d.cluster);
        clusterDone = d.clusterDone.clone();
        clusterCta = d.clusterCta == null ? null : snapshots(d.clusterCta);
        clusterCtaDone = d.clusterCtaDone == null ? null : d.clusterCtaDone.clone();
        for (Map.Entry<Long, RaceMbarriers.State> e : d.mbarriers.map.entrySet()) {
            RaceMbarriers.State st = e.getValue();
            mbarClocks.put(e.getKey(), new VectorClock[] {st.accum.isEmpty() ? null : st.accum.snapshot(), st.done,
                    st.remote == null || st.remote.isEmpty() ? null : st.remote.snapshot(), st.doneRemote});
            mbarInit.put(e.getKey(), new long[] {st.initEpoch, st.initPc});
        }
        async = new TreeMap<>(d.copies.inFlight);
        groupEnds = new TreeMap<>(d.copies.groupEnds);
        scoped = d.scoped.copyInto(new ScopedSync(d));
        shadow = d.shadow.copy();
        proxy = d.proxy.copy();
        reported = d.reported;
        clocksSinceCount = d.clockBudget.sinceCount;
        clocksLastCount = d.clockBudget.lastCount;
    }

    private static VectorClock[] snapshots(VectorClock.Builder[] bs) {
        VectorClock[] out = new VectorClock[bs.length];
        for (int i = 0; i < bs.length; i++) if (bs[i] != null && !bs[i].isEmpty()) out[i] = bs[i].snapshot();
        return out;
    }

    /** Approximate heap bytes (clock chunks shared with the live run are not counted, but for the mbarriers' and copies': {@link #syncObjectBytes}). */
    public long bytes() {
        return 256 + 4L * clock.length + 8L * (base.length * 3L + bar.length) + shadow.bytes() + proxy.bytes()
                + syncObjectBytes() + 48L * groupEnds.size() + scoped.bytes();
    }

    /**
     * Heap bytes of this checkpoint's mbarrier and in-flight maps: per mbarrier its two map entries,
     * its clock array, its init record and the clocks its builders were snapshotted into (their
     * objects and reference arrays, this checkpoint's own; their chunks are shared); per copy in
     * flight its map entry and view. Clocks shared with the live run (completed phases, the views'
     * issuer clocks) are not counted here, as {@link #bytes} counts none.
     */
    @Override
    public long syncObjectBytes() {
        long b = MAPS_BYTES + IN_FLIGHT_ENTRY_BYTES * async.size();
        for (VectorClock[] cs : mbarClocks.values()) {
            b += MBARRIER_ENTRY_BYTES;
            for (int i : new int[] {0, 2}) if (cs[i] != null) b += 32 + 8L * cs[i].chunks.length;
        }
        return b;
    }

    /** The maps' own objects (two of 48 bytes) that {@link #syncObjectBytes} counts besides their entries. */
    static final long MAPS_BYTES = 2 * 48;
    /** One mbarrier's entries in the two maps (entry and key each), its clock array and its init record. */
    static final long MBARRIER_ENTRY_BYTES = 2 * (40 + 16) + 32 + 32;
    /** One copy in flight: its map entry and key and its view (the record). */
    static final long IN_FLIGHT_ENTRY_BYTES = 40 + 16 + 56;

    void restoreInto(RaceDetector d) {
        if (clock.length != d.clock.length) throw new IllegalArgumentException("race detector state of another launch shape");
        System.arraycopy(clock, 0, d.clock, 0, clock.length);
        System.arraycopy(base, 0, d.base, 0, base.length);
        java.util.Arrays.fill(d.warpBase, null);
        System.arraycopy(fence, 0, d.fence, 0, fence.length);
        System.arraycopy(pendingAcquire, 0, d.pendingAcquire, 0, pendingAcquire.length);
        restoreBuilders(d, d.bar, bar);
        restoreBuilders(d, d.cluster, cluster);
        System.arraycopy(clusterDone, 0, d.clusterDone, 0, clusterDone.length);
        d.clusterCta = null;
        d.clusterCtaDone = null;
        if (clusterCta != null) {
            d.clusterCta = new VectorClock.Builder[clusterCta.length];
            restoreBuilders(d, d.clusterCta, clusterCta);
            d.clusterCtaDone = clusterCtaDone.clone();
        }
        d.mbarriers.map.clear();
        for (Map.Entry<Long, VectorClock[]> e : mbarClocks.entrySet()) {
            RaceMbarriers.State st = new RaceMbarriers.State(d.chunkCount, d.chunkSize);
            st.accum.restore(e.getValue()[0]);
            st.done = e.getValue()[1];
            if (e.getValue()[2] != null) {
                st.remote = new VectorClock.Builder(d.chunkCount, d.chunkSize);
                st.remote.restore(e.getValue()[2]);
            }
            st.doneRemote = e.getValue()[3];
            long[] init = mbarInit.get(e.getKey());
            st.initEpoch = init[0];
            st.initPc = (int) init[1];
            d.mbarriers.map.put(e.getKey(), st);
        }
        d.copies.inFlight.clear();
        d.copies.inFlight.putAll(async);
        d.copies.groupEnds.clear();
        d.copies.groupEnds.putAll(groupEnds);
        scoped.copyInto(d.scoped);
        d.shadow = shadow.copy();
        d.proxy = proxy.copy();
        d.reported = reported;
        d.clockBudget.sinceCount = clocksSinceCount;
        d.clockBudget.lastCount = clocksLastCount;
    }

    private static void restoreBuilders(RaceDetector d, VectorClock.Builder[] live, VectorClock[] saved) {
        for (int i = 0; i < live.length; i++) {
            if (saved[i] == null) {
                if (live[i] != null) live[i].clear();
                continue;
            }
            if (live[i] == null) live[i] = new VectorClock.Builder(d.chunkCount, d.chunkSize);
            live[i].restore(saved[i]);
        }
    }

    /** Feeds the detector's state, in a fixed order, to a hash. */
    static void hash(RaceDetector d, java.util.function.LongConsumer h) {
        boolean digests = h instanceof io.barrierscope.exec.MemoryModelHook.ClockDigests;
        if (digests) {
            // Explore's hash: the per-thread part by cached block digests (RaceDigests), the rest as below.
            d.digests().hashInto(d, h);
        } else {
            h.accept(d.clock.length);
            for (int c : d.clock) h.accept(c);
            for (int t = 0; t < d.base.length; t++) d.baseOf(t).hashInto(h, d.chunkSize);
            hashAll(d.fence, h, d.chunkSize);
            hashAll(d.pendingAcquire, h, d.chunkSize);
        }
        for (VectorClock.Builder b : d.bar) if (b != null && !b.isEmpty()) b.snapshot().hashInto(h, d.chunkSize); else h.accept(0);
        for (VectorClock.Builder b : d.cluster) if (b != null && !b.isEmpty()) b.snapshot().hashInto(h, d.chunkSize); else h.accept(0);
        hashAll(d.clusterDone, h, d.chunkSize);
        if (d.clusterCta != null) {
            // Only what is there: a run that never needed these hashes as before they existed.
            for (int c = 0; c < d.clusterCta.length; c++) {
                if (d.clusterCta[c] != null && !d.clusterCta[c].isEmpty()) {
                    h.accept(c);
                    d.clusterCta[c].snapshot().hashInto(h, d.chunkSize);
                }
                if (d.clusterCtaDone[c] != null) {
                    h.accept(~c);
                    d.clusterCtaDone[c].hashInto(h, d.chunkSize);
                }
            }
        }
        for (Map.Entry<Long, RaceMbarriers.State> e : d.mbarriers.map.entrySet()) {
            h.accept(e.getKey());
            RaceMbarriers.State st = e.getValue();
            if (!st.accum.isEmpty()) st.accum.snapshot().hashInto(h, d.chunkSize);
            if (st.done != null) st.done.hashInto(h, d.chunkSize);
            // The peers' cluster-scoped arrive-ons, only when there are any (a run without hashes as before).
            if (st.remote != null && !st.remote.isEmpty()) {
                h.accept(-11);
                st.remote.snapshot().hashInto(h, d.chunkSize);
            }
            if (st.doneRemote != null) {
                h.accept(-12);
                st.doneRemote.hashInto(h, d.chunkSize);
            }
            h.accept(st.initEpoch);
            h.accept(st.initPc);
        }
        for (Map.Entry<Long, RaceDetector.AsyncSnap> e : d.copies.inFlight.entrySet()) {
            RaceDetector.AsyncSnap a = e.getValue();
            h.accept(e.getKey());
            a.base().hashInto(h, d.chunkSize);
            h.accept(((long) a.slot() << 32) ^ a.slotClock());
            h.accept(((long) a.agentId() << 32) ^ a.agentK());
            h.accept(a.mbarrier());
            h.accept(a.asyncProxy() ? 1 : 0);
        }
        for (Map.Entry<Long, Integer> e : d.copies.groupEnds.entrySet()) {
            h.accept(e.getKey());
            h.accept(e.getValue());
        }
        d.scoped.hashInto(h, !digests);
        d.shadow.hashInto(h, digests ? d.digests() : null);
        d.proxy.hashInto(h);
        h.accept(d.reported ? 1 : 0);
    }

    private static void hashAll(VectorClock[] vs, java.util.function.LongConsumer h, int chunkSize) {
        for (VectorClock v : vs) {
            if (v != null) v.hashInto(h, chunkSize);
            else h.accept(0);
        }
    }
}
