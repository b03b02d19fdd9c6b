package io.barrierscope.check;

import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierUnit;
import java.util.TreeMap;

/**
 * The race detector's mbarrier clocks (semantics.md section 8): per object, the releases of its
 * current phase, the clock of its last completed phase (what a wait that observed it acquires)
 * and its init's epoch (every other operation on the object must be ordered after the init;
 * a remote one also needs the init published to the cluster, semantics.md section 6).
 *
 * <p>Scopes (PTX ISA 9.7.13.15.13, .16: the {@code .scope} of an arrive or a wait is "the set of
 * threads that directly observe the memory synchronizing effect"; an arrive and a wait
 * synchronize only when morally strong, each in the other's scope). Every waiter is in the
 * object's CTA (test_wait/try_wait take {@code .shared::cta} only), so an arrive by a thread of
 * that CTA reaches every wait, and a peer CTA's arrive only a {@code .cluster} wait, and only when
 * it is {@code .cluster} itself (a relaxed one: when the fence before it is). So each phase keeps
 * two clocks: its own CTA's arrive-ons (and copies' complete-tx, which keep their own rule), and the
 * peers' cluster-scoped ones.
 */
final class RaceMbarriers {
    private final RaceDetector d;
    /** By MbarrierUnit key; plain data, saved in checkpoints and hashed in key order. */
    final TreeMap<Long, State> map = new TreeMap<>();
    /** {@link #find}'s cache: keys and states. */
    private final long[] cacheKeys = new long[16];
    private final State[] cache = new State[16];

    /** One mbarrier's clocks: the current phase's releases, the last completed phase's, and its init. */
    static final class State {
        final VectorClock.Builder accum;
        VectorClock done;
        /** The current phase's cluster-scoped arrive-ons by peer CTAs (null until one), and the last completed phase's. */
        VectorClock.Builder remote;
        VectorClock doneRemote;
        long initEpoch;
        int initPc = -1;

        State(int chunkCount, int chunkSize) { accum = new VectorClock.Builder(chunkCount, chunkSize); }
    }

    /** {@link #use}'s memo, not state (a pure function of its keys): an init epoch found ordered before a base. */
    private State usedState;
    private long usedInit;
    private VectorClock usedBase;

    RaceMbarriers(RaceDetector d) { this.d = d; }

    /** The object's clocks, created on first use. */
    private State state(Mbarrier b) {
        State st = find(b);
        if (st != null) return st;
        long key = MbarrierUnit.key(b.cta, b.offset);
        st = new State(d.chunkCount, d.chunkSize);
        map.put(key, st);
        remember(key, st);
        return st;
    }

    /**
     * The object's clocks or null, through a small direct-mapped cache in front of the map (a
     * pipeline touches a few objects all the time). Not state: emptied on restore, which replaces
     * the map's entries (nothing else removes one).
     */
    private State find(Mbarrier b) {
        long key = MbarrierUnit.key(b.cta, b.offset);
        int i = slot(key);
        if (cacheKeys[i] == key && cache[i] != null) return cache[i];
        State st = map.get(key);
        if (st != null) remember(key, st);
        return st;
    }

    private void remember(long key, State st) {
        int i = slot(key);
        cacheKeys[i] = key;
        cache[i] = st;
    }

    private static int slot(long key) { return (int) ((key >>> 3) ^ (key >>> 32) * 5) & 15; }

    /** After a checkpoint restore replaced the map's entries. */
    void clearCache() { java.util.Arrays.fill(cache, null); }

    void init(int slot, Mbarrier b, int pc) {
        State st = state(b);
        st.accum.clear();
        st.done = null;
        // A new object: the peers' arrive-ons on the old one (an inval'd pending phase) order nothing for its waits.
        if (st.remote != null) st.remote.clear();
        st.doneRemote = null;
        st.initEpoch = ((long) d.clock[slot] << 32) | slot;
        st.initPc = pc;
        // The thread's later accesses get a later epoch, so fence.mbarrier_init (which releases up to
        // the init: RaceDetector#fenceMbarrierInit) does not release them.
        d.clock[slot]++;
    }

    /** See {@link RaceDetector#mbarrierUse}. */
    void use(int slot, Mbarrier b, int pc) {
        if (d.reported || d.shadow.stoppedByClocks) return; // the clocks that would tell are dropped
        State st = find(b);
        if (st == null || st.initEpoch == 0) return;
        if (d.asyncActor == null) {
            // Another thread's init found ordered before a base is ordered before every thread with that
            // base (bases are immutable): a warp's lanes and polls repeat the check, so it is remembered.
            VectorClock base = d.baseOf(slot);
            if (st == usedState && st.initEpoch == usedInit && base == usedBase) return;
            d.actThread(slot);
            if (!d.unordered(st.initEpoch)) {
                if ((int) (st.initEpoch & (RaceDetector.STRONG - 1)) != slot) {
                    usedState = st;
                    usedInit = st.initEpoch;
                    usedBase = base;
                }
                return;
            }
        }
        if (d.unordered(st.initEpoch)) {
            d.reported = true;
            RaceReport.initRace(d, b, st.initEpoch, st.initPc, d.asyncActor == null ? pc : d.asyncActor.pc(), d.actorSlot());
        }
    }

    /** The clock of thread {@code slot}'s latest mbarrier.init still recorded, or -1 (objects in key order: deterministic). */
    int lastInitClock(int slot) {
        int best = -1;
        for (State st : map.values()) {
            if (st.initPc >= 0 && (int) (st.initEpoch & (RaceDetector.STRONG - 1)) == slot) best = Math.max(best, (int) (st.initEpoch >>> 32));
        }
        return best;
    }

    /** Whether {@link #use} by each lane of {@code lanes} of {@code warp} would do nothing (no side effects). */
    boolean usesQuiet(int warp, int lanes, Mbarrier b) {
        if (d.reported || d.shadow.stoppedByClocks) return true;
        State st = find(b);
        if (st == null || st.initEpoch == 0) return true;
        if (d.asyncActor != null) return false;
        int id = (int) (st.initEpoch & (RaceDetector.STRONG - 1));
        int c = (int) (st.initEpoch >>> 32);
        VectorClock ok = st == usedState && st.initEpoch == usedInit ? usedBase : null;
        for (int l = lanes; l != 0; l &= l - 1) {
            int s = (warp << 5) + Integer.numberOfTrailingZeros(l);
            if (s == id) continue; // the init's own thread
            VectorClock base = d.baseOf(s);
            if (base == ok) continue;
            if (c > base.get(id, d.chunkSize)) return false;
            ok = base;
        }
        return true;
    }

    /** {@link #arrive} by each lane of {@code lanes} of {@code warp}, in lane order. */
    void arriveWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        State st = state(b);
        int s0 = warp << 5;
        if (d.asyncActor != null || relaxed) {
            for (int l = lanes; l != 0; l &= l - 1) arrive(s0 + Integer.numberOfTrailingZeros(l), b, relaxed, scope);
            return;
        }
        boolean own = d.m.ctaOfSlot(s0) == b.cta;
        if (!own && scope < ScopedSync.CLUSTER) return;
        d.warps.release(warp, lanes, own ? st.accum : remote(st));
    }

    /** See {@link RaceDetector#initPublished}. */
    boolean initPublished(long initEpoch) {
        int s = (int) (initEpoch & (RaceDetector.STRONG - 1));
        int c = (int) (initEpoch >>> 32);
        // A fence publishes to its scope only: a .cta fence does not reach the peer CTAs.
        VectorClock f = d.scoped.fenceCluster[s];
        if (f != null && f.get(s, d.chunkSize) >= c) return true;
        int first = d.m.clusterBarriers[d.m.ctaOfSlot(s)].firstCta;
        return (d.cluster[first] != null && d.cluster[first].get(s) >= c)
                || (d.clusterDone[first] != null && d.clusterDone[first].get(s, d.chunkSize) >= c);
    }

    void arrive(int slot, Mbarrier b, boolean relaxed, int scope) {
        State st = state(b);
        if (d.asyncActor != null) {
            RaceDetector.AsyncSnap a = d.asyncActor;
            st.accum.join(a.base());
            st.accum.raise(a.slot(), a.slotClock());
            st.accum.raise(a.agentId(), a.agentK());
            return;
        }
        boolean own = d.m.ctaOfSlot(slot) == b.cta;
        // A peer's .cta arrive-on leaves every waiter (all of the object's CTA) out of its scope: no edge.
        if (!own && scope < ScopedSync.CLUSTER) return;
        VectorClock.Builder into = own ? st.accum : remote(st);
        if (!relaxed) d.release(slot, into);
        // A relaxed one publishes an earlier fence, as far as the fence's scope reaches.
        else into.join(own ? d.fence[slot] : d.scoped.fenceCluster[slot]);
    }

    private VectorClock.Builder remote(State st) {
        if (st.remote == null) st.remote = new VectorClock.Builder(d.chunkCount, d.chunkSize);
        return st.remote;
    }

    void phaseComplete(Mbarrier b) {
        State st = state(b);
        st.done = d.clockBudget.complete(st.accum);
        st.doneRemote = st.remote == null || st.remote.isEmpty() ? null : d.clockBudget.complete(st.remote);
        if (st.remote != null) st.remote.clear();
    }

    /** {@link #acquire} by each lane of {@code lanes} of {@code warp}, in lane order. */
    void acquireWarp(int warp, int lanes, Mbarrier b, boolean relaxed, int scope) {
        State st = find(b);
        if (st == null || st.done == null) return;
        if (relaxed || (scope >= ScopedSync.CLUSTER && st.doneRemote != null)) {
            for (int l = lanes; l != 0; l &= l - 1) acquire((warp << 5) + Integer.numberOfTrailingZeros(l), b, relaxed, scope);
            return;
        }
        d.warps.acquire(warp, lanes, st.done);
    }

    void acquire(int slot, Mbarrier b, boolean relaxed, int scope) {
        State st = find(b);
        if (st == null || st.done == null) return;
        // The peers' arrive-ons are observed only by a .cluster wait (and, after a relaxed one, a .cluster or wider fence).
        VectorClock peers = scope >= ScopedSync.CLUSTER ? st.doneRemote : null;
        if (!relaxed) {
            d.acquire(slot, st.done);
            d.acquire(slot, peers);
            return;
        }
        d.pendingAcquire[slot] = d.clockBudget.join(d.pendingAcquire[slot], st.done);
        d.scoped.pendingCluster[slot] = d.clockBudget.join(d.scoped.pendingCluster[slot], peers);
    }
}
