package io.barrierscope.explore;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which the bounded sleep sets make a run's forks (docs/explore.md, "Race-reversing
 * forks first"): the forks that reverse a dependence the run itself showed first, then the rest,
 * each part in decision order. A warp fork (d, v) reverses one when some step of v after d is
 * dependent with an earlier step, at or after d, of another warp: running v at d puts v's step
 * before it, which is what a source set would fork. Only the order changes: every fork is still
 * made, and with bounded sleep sets a fork's sleep set does not depend on its siblings (only the
 * run's own step sleeps), so the schedules a completed bound explored are the same.
 */
final class RaceFirst {
    private RaceFirst() {}

    /**
     * A run's log stops growing past this many entries or footprint keys (about 8 MiB of keys), so
     * a long run's log takes bounded memory, counted with its analysis in the launch's memory
     * estimate (launch/MemoryEstimate#exploreRaceLogBytes); the forks after it are ordered as if nothing raced there.
     */
    static final int MAX_ENTRIES = io.barrierscope.launch.MemoryEstimate.EXPLORE_RACE_LOG_ENTRIES;
    static final long MAX_KEYS = io.barrierscope.launch.MemoryEstimate.EXPLORE_RACE_LOG_KEYS;

    /** Whether log {@code t} is full ({@link #MAX_ENTRIES}, {@link #MAX_KEYS}). */
    static boolean full(TraceLog t) { return t.n >= MAX_ENTRIES || t.keys >= MAX_KEYS; }

    /** Per key: the latest access (or write) and the latest by another warp than that one. */
    private static final class Latest {
        long step1 = Long.MIN_VALUE;
        int warp1 = -1;
        long step2 = Long.MIN_VALUE;

        void add(long step, int warp) {
            if (warp != warp1) {
                step2 = step1;
                warp1 = warp;
            }
            step1 = step;
        }

        /** The step of the latest entry by a warp other than {@code w} (MIN_VALUE: none). */
        long byOther(int w) { return warp1 != w ? step1 : step2; }
    }

    /**
     * The dependences of the run that a fork could reverse, as pairs (step number of an entry i,
     * warp v) sorted: a later entry of v is dependent with i, another warp's, and i is the latest
     * such entry of its kind (per key, every-key entries, the entry that made v runnable). A fork
     * to v at the last decision before i puts v's entry first, as a source set would.
     */
    static long[][] reversible(TraceLog t, int warps) {
        java.util.TreeMap<Long, long[]> byStep = new java.util.TreeMap<>();
        Map<Long, Latest> access = new HashMap<>();
        Map<Long, Latest> write = new HashMap<>();
        Latest any = new Latest();
        Latest all = new Latest();
        long[] enabledBy = new long[Math.max(0, warps)]; // the last entry of another warp that changed the warp's runnability
        java.util.Arrays.fill(enabledBy, Long.MIN_VALUE);
        for (int i = 0; i < t.n; i++) {
            int w = t.warp[i];
            StepFootprints.Footprint f = t.fp[i];
            if (w >= 0 && w < warps) {
                note(byStep, all.byOther(w), w, warps);
                note(byStep, enabledBy[w], w, warps);
                if (f.all()) {
                    note(byStep, any.byOther(w), w, warps);
                } else {
                    for (long k : f.keys()) {
                        Latest c = ((k & 1) != 0 ? access : write).get(k >>> 1);
                        if (c != null) note(byStep, c.byOther(w), w, warps);
                    }
                }
            }
            long s = t.step[i];
            any.add(s, w);
            if (f.all()) all.add(s, w);
            for (long k : f.keys()) {
                access.computeIfAbsent(k >>> 1, x -> new Latest()).add(s, w);
                if ((k & 1) != 0) write.computeIfAbsent(k >>> 1, x -> new Latest()).add(s, w);
            }
            long[] en = t.enables[i];
            if (en != null) for (int v = WarpBits.next(en, 0); v >= 0 && v < warps; v = WarpBits.next(en, v + 1)) if (v != w) enabledBy[v] = s;
        }
        long[][] out = new long[byStep.size()][];
        int k = 0;
        for (Map.Entry<Long, long[]> e : byStep.entrySet()) {
            out[k++] = concat(e.getKey(), e.getValue());
        }
        return out;
    }

    /** Notes that a later entry of {@code w} is dependent with the entry at step {@code s} (MIN_VALUE: none). */
    private static void note(java.util.TreeMap<Long, long[]> byStep, long s, int w, int warps) {
        if (s == Long.MIN_VALUE) return;
        WarpBits.set(byStep.computeIfAbsent(s, x -> WarpBits.empty(warps)), w);
    }

    private static long[] concat(long s, long[] ws) {
        long[] r = new long[ws.length + 1];
        r[0] = s;
        System.arraycopy(ws, 0, r, 1, ws.length);
        return r;
    }

    /**
     * {@code as} reordered: the warp forks that reverse a dependence of the run first, then the
     * others, each in the order given. A fork (d, v) reverses one when d is the last decision
     * offering v at or before the step of an entry i that a later entry of v is dependent with, or
     * the first decision offering v after that step ({@code rev} from {@link #reversible}; the
     * alternatives' fifth entry is the step number their decision was taken at). Null keeps the order.
     */
    static List<long[]> order(List<long[]> as, long[][] rev) {
        if (rev == null || rev.length == 0) return as;
        // Per warp, its warp forks' decision steps ascending (alternatives come in decision order, but sort to be sure).
        Map<Integer, List<long[]>> byWarp = new java.util.TreeMap<>();
        for (long[] a : as) if (a[1] == SchedulePolicy.WARP && a.length > 4) byWarp.computeIfAbsent((int) a[2], x -> new ArrayList<>()).add(a);
        java.util.Set<long[]> first = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (List<long[]> l : byWarp.values()) l.sort(java.util.Comparator.comparingLong(a -> a[4]));
        for (long[] r : rev) {
            long[] ws = java.util.Arrays.copyOfRange(r, 1, r.length);
            for (int v = WarpBits.next(ws, 0); v >= 0; v = WarpBits.next(ws, v + 1)) {
                List<long[]> l = byWarp.get(v);
                if (l == null) continue;
                long[] before = null;
                long[] after = null;
                for (long[] a : l) {
                    if (a[4] <= r[0]) before = a; // the last decision offering v at or before the entry
                    else if (after == null) after = a; // and the first after it
                }
                if (before != null) first.add(before);
                if (after != null) first.add(after);
            }
        }
        if (first.isEmpty() || first.size() == as.size()) return as;
        List<long[]> out = new ArrayList<>(as.size());
        for (long[] a : as) if (first.contains(a)) out.add(a);
        for (long[] a : as) if (!first.contains(a)) out.add(a);
        return out;
    }
}
