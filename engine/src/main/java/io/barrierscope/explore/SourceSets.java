package io.barrierscope.explore;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The race analysis of source-set dynamic partial-order reduction (Abdulla, Aronis, Jonsson,
 * Sagonas, "Optimal dynamic partial order reduction", POPL 2014; docs/explore.md, "Source sets").
 * Over one explored run's {@link TraceLog}: happens-before is program order, plus an edge between
 * two dependent steps in their run order ({@link StepFootprints.Footprint#dependent}), plus an edge
 * from a step to every warp whose runnability it changed (the step that releases a barrier comes
 * before whatever the released warp does next). Two steps of different warps <em>race</em> when
 * they are dependent and the earlier does not happen before the later through other steps. For
 * each race (e', e) whose later step is in the run's own part, the reversal is v = the steps after
 * e' that do not happen after it, then e; its <em>initials</em> are the warps whose first step in
 * v has no predecessor in v. The explorer must then fork one of them at the warp decision before
 * e' unless one is already forked, explored or asleep there ({@link Sink}).
 *
 * <p>Direct races are found as in vector-clock race detectors: per key the last write and the
 * reads since; a step dependent with everything races with the last step of every other warp. A
 * race reported that is not direct only adds a fork (never drops one).
 */
final class SourceSets {
    /** Told each race: fork one of {@code initials} (warp bits) at warp decision {@code point} (-1: no decision before e', at step {@code step}). */
    interface Sink {
        void race(long point, long initials, int preferred, long step);
    }

    private SourceSets() {}

    /** Key history: last write, reads since, and the clocks joined over them. */
    private static final class Key {
        int lastWrite = -1;
        int[] reads = new int[4];
        int nReads;
        int[] writeClock;
        int[] readClock;
    }

    /** Reports every race of {@code t} whose later step has index {@code from} or more. */
    static void analyze(TraceLog t, int from, int warps, Sink sink) {
        int[][] clock = new int[warps][warps];
        int[] seq = new int[warps];
        int[] evSeq = new int[t.n];
        int[] lastEv = new int[warps];
        Arrays.fill(lastEv, -1);
        Map<Long, Key> keys = new HashMap<>();
        int lastAll = -1;
        int[] allClock = null;
        int[] cand = new int[16];
        for (int i = 0; i < t.n; i++) {
            int q = t.warp[i];
            int[] before = clock[q];
            StepFootprints.Footprint f = t.fp[i];
            int nc = 0;
            if (f.all()) {
                for (int w = 0; w < warps; w++) if (w != q && lastEv[w] >= 0) cand = push(cand, nc++, lastEv[w]);
            } else {
                if (lastAll >= 0) cand = push(cand, nc++, lastAll);
                for (long k : f.keys()) {
                    Key s = keys.get(k >>> 1);
                    if (s == null) continue;
                    boolean write = (k & 1) != 0;
                    if (write && s.nReads > 0) {
                        for (int r = 0; r < s.nReads; r++) cand = push(cand, nc++, s.reads[r]);
                    } else if (s.lastWrite >= 0 && s.lastWrite > lastAll) {
                        cand = push(cand, nc++, s.lastWrite);
                    }
                }
            }
            if (i >= from) {
                for (int c = 0; c < nc; c++) {
                    int e = cand[c];
                    int w = t.warp[e];
                    if (w == q || before[w] >= evSeq[e]) continue;
                    sink.race(t.point[e], initials(t, e, i), q, t.step[e]);
                }
            }
            // The step's clock: its warp's, joined with every dependent earlier step's.
            int[] now = before.clone();
            if (f.all()) {
                for (int w = 0; w < warps; w++) join(now, clock[w]);
            } else {
                if (allClock != null) join(now, allClock);
                for (long k : f.keys()) {
                    Key s = keys.get(k >>> 1);
                    if (s == null) continue;
                    if (s.writeClock != null) join(now, s.writeClock);
                    if ((k & 1) != 0 && s.readClock != null) join(now, s.readClock);
                }
            }
            now[q] = ++seq[q];
            evSeq[i] = seq[q];
            clock[q] = now;
            lastEv[q] = i;
            if (f.all()) {
                lastAll = i;
                allClock = now;
            } else {
                for (long k : f.keys()) {
                    Key s = keys.computeIfAbsent(k >>> 1, x -> new Key());
                    if ((k & 1) != 0) {
                        s.lastWrite = i;
                        s.nReads = 0;
                        s.writeClock = now;
                        s.readClock = null;
                    } else {
                        // Only each warp's last read can race directly (earlier ones come before it in program order).
                        int r = 0;
                        while (r < s.nReads && t.warp[s.reads[r]] != q) r++;
                        if (r < s.nReads) s.reads[r] = i;
                        else s.reads = push(s.reads, s.nReads++, i);
                        if (s.readClock == null) s.readClock = now.clone();
                        else join(s.readClock, now);
                    }
                }
            }
            for (long en = t.enables[i]; en != 0; en &= en - 1) join(clock[Long.numberOfTrailingZeros(en)], now);
        }
    }

    /**
     * The initials of v = (the steps after {@code e1} that do not happen after it), then {@code e2}:
     * the warps whose first step in v has no predecessor in v (program order, dependence, enabling).
     */
    static long initials(TraceLog t, int e1, int e2) {
        long taintedWarps = 1L << t.warp[e1];
        Map<Long, Boolean> tainted = new HashMap<>();
        addKeys(tainted, t.fp[e1]);
        taintedWarps |= t.enables[e1];
        boolean taintAll = t.fp[e1].all();
        long seen = 0;
        long enabled = 0;
        Map<Long, Boolean> vKeys = new HashMap<>();
        boolean vAll = false;
        long out = 0;
        for (int j = e1 + 1; j <= e2; j++) {
            int w = t.warp[j];
            StepFootprints.Footprint f = t.fp[j];
            boolean last = j == e2;
            if (!last && (taintAll || f.all() || (taintedWarps & (1L << w)) != 0 || dependent(tainted, f))) {
                taintedWarps |= (1L << w) | t.enables[j];
                addKeys(tainted, f);
                taintAll |= f.all();
                continue;
            }
            boolean first = (seen & (1L << w)) == 0;
            if (first && (enabled & (1L << w)) == 0 && !vAll && !(f.all() && seen != 0) && !dependent(vKeys, f)) out |= 1L << w;
            seen |= 1L << w;
            enabled |= t.enables[j];
            addKeys(vKeys, f);
            vAll |= f.all();
        }
        return out;
    }

    private static boolean dependent(Map<Long, Boolean> keys, StepFootprints.Footprint f) {
        if (keys.isEmpty()) return false;
        for (long k : f.keys()) {
            Boolean w = keys.get(k >>> 1);
            if (w != null && (w || (k & 1) != 0)) return true;
        }
        return false;
    }

    private static void addKeys(Map<Long, Boolean> keys, StepFootprints.Footprint f) {
        for (long k : f.keys()) keys.merge(k >>> 1, (k & 1) != 0, Boolean::logicalOr);
    }

    private static void join(int[] into, int[] c) {
        for (int w = 0; w < into.length; w++) if (c[w] > into[w]) into[w] = c[w];
    }

    private static int[] push(int[] a, int n, int v) {
        if (n == a.length) a = Arrays.copyOf(a, n * 2);
        a[n] = v;
        return a;
    }
}
