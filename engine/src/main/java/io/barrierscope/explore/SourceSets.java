package io.barrierscope.explore;

import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
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
    /**
     * Told each race: fork one of {@code initials} (a {@link WarpBits} set, the sink's to keep) at warp
     * decision {@code point} (-1: no decision before e', at step {@code step}).
     */
    interface Sink {
        void race(long point, long[] initials, int preferred, long step);
    }

    private SourceSets() {}

    /**
     * The bytes one analysis state may hold, about ({@link Analysis#bytes}: a clock of one int per
     * warp for each warp and each key touched). Past it the analysis stops ({@link Analysis#overflow})
     * and the search falls back to all alternatives where its races would have asked: memory stays
     * bounded on launches of many warps and words, and the result is still sound. A function of the
     * log alone, so the search stays deterministic.
     */
    static final long MAX_BYTES = 128L << 20;

    /** Whether a launch of {@code warps} warps can be analysed at all (the per-warp clocks alone take warps^2 ints). */
    static boolean fits(int warps) { return 64 + (long) warps * (warps * 4L + 32) <= MAX_BYTES / 4; }

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
        Analysis a = new Analysis(warps, t.n);
        a.run(t, t.n, from, sink);
    }

    /**
     * The analysis state after a log's first {@link #pos} entries: a run and its forks share
     * their log up to the fork, so a fork's analysis resumes from a copy of its parent's instead
     * of starting over ({@link SourceSetSearch}). The clocks are shared between fields as the
     * analysis makes them (a step's clock is its warp's and its keys'; a shared array is never
     * joined into, an enabled warp gets a joined copy), and a copy keeps that sharing, so a resumed
     * analysis reports what one from the start would.
     */
    static final class Analysis {
        private final int warps;
        /** Entries analysed. */
        int pos;
        /** Set when the state grew past {@link #MAX_BYTES}: the analysis stopped at {@link #pos} and its races are unknown from there. */
        boolean overflow;
        private int[][] clock;
        private int[] seq;
        /** Per entry its warp's sequence number; only the first {@link #pos} are this state's (a snapshot may share the array). */
        private int[] evSeq;
        private int[] lastEv;
        private Map<Long, Key> keys;
        private int lastAll = -1;
        private int[] allClock;
        private int[] cand = new int[16];
        /** Scratch for {@link SourceSets#initials}. */
        private final KeyAccess tainted = new KeyAccess();
        private final KeyAccess vKeys = new KeyAccess();
        /** Scratch warp sets for {@link SourceSets#initials}. */
        private final long[] taintedWarps;
        private final long[] seen;
        private final long[] enabled;

        Analysis(int warps, int capacity) {
            this.warps = warps;
            taintedWarps = WarpBits.empty(warps);
            seen = WarpBits.empty(warps);
            enabled = WarpBits.empty(warps);
            clock = new int[warps][warps];
            seq = new int[warps];
            evSeq = new int[capacity];
            lastEv = new int[warps];
            Arrays.fill(lastEv, -1);
            keys = new HashMap<>();
        }

        private Analysis(Analysis o, int[] evSeq) {
            warps = o.warps;
            taintedWarps = WarpBits.empty(warps);
            seen = WarpBits.empty(warps);
            enabled = WarpBits.empty(warps);
            pos = o.pos;
            overflow = o.overflow;
            this.evSeq = evSeq;
            IdentityHashMap<int[], int[]> copies = new IdentityHashMap<>();
            clock = new int[warps][];
            for (int w = 0; w < warps; w++) clock[w] = copy(copies, o.clock[w]);
            seq = o.seq.clone();
            lastEv = o.lastEv.clone();
            lastAll = o.lastAll;
            allClock = copy(copies, o.allClock);
            keys = new HashMap<>(Math.max(16, o.keys.size() * 2));
            for (Map.Entry<Long, Key> e : o.keys.entrySet()) {
                Key k = e.getValue();
                Key c = new Key();
                c.lastWrite = k.lastWrite;
                c.reads = k.reads.clone();
                c.nReads = k.nReads;
                c.writeClock = copy(copies, k.writeClock);
                c.readClock = copy(copies, k.readClock);
                keys.put(e.getKey(), c);
            }
        }

        private static int[] copy(IdentityHashMap<int[], int[]> copies, int[] a) {
            return a == null ? null : copies.computeIfAbsent(a, int[]::clone);
        }

        /** Roughly the bytes a copy holds (clocks per warp and per key, counted unshared: an upper bound). */
        long bytes() { return 64 + (long) warps * (warps * 4 + 32) + keys.size() * (112L + warps * 8L); }

        /** A copy to keep (its entry numbers shared with this state's array, whose first {@link #pos} never change). */
        Analysis snapshot() { return new Analysis(this, evSeq); }

        /** A copy to go on from, over a log of up to {@code capacity} entries. */
        Analysis resume(int capacity) { return new Analysis(this, Arrays.copyOf(evSeq, Math.max(capacity, pos))); }

        /** Analyses entries up to {@code to} of {@code t}, reporting the races whose later step has index {@code from} or more. */
        void run(TraceLog t, int to, int from, Sink sink) {
            if (evSeq.length < to) evSeq = Arrays.copyOf(evSeq, to);
            for (; pos < to && !overflow; pos++) {
                if ((pos & 255) == 0 && bytes() > MAX_BYTES) {
                    overflow = true;
                    return;
                }
                step(t, pos, pos >= from ? sink : null);
            }
        }

        private void step(TraceLog t, int i, Sink sink) {
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
            if (sink != null) {
                for (int c = 0; c < nc; c++) {
                    int e = cand[c];
                    int w = t.warp[e];
                    if (w == q || before[w] >= evSeq[e]) continue;
                    sink.race(t.point[e], initials(t, e, i, this), q, t.step[e]);
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
            // The enabled warp's next step comes after this one. Joined into a copy: its current clock
            // array may also be a key's write clock or the last all-step's, which must not grow.
            long[] en = t.enables[i];
            for (int w = WarpBits.next(en, 0); w >= 0; w = WarpBits.next(en, w + 1)) {
                int[] c = clock[w].clone();
                join(c, now);
                clock[w] = c;
            }
        }
    }

    /**
     * The initials of v = (the steps after {@code e1} that do not happen after it), then {@code e2}:
     * the warps whose first step in v has no predecessor in v (program order, dependence, enabling),
     * as a {@link WarpBits} set for {@code warps} warps.
     */
    static long[] initials(TraceLog t, int e1, int e2, int warps) { return initials(t, e1, e2, new Analysis(warps, 0)); }

    /** As {@link #initials(TraceLog, int, int, int)}, with the scratch sets of {@code a} (emptied first). */
    private static long[] initials(TraceLog t, int e1, int e2, Analysis a) {
        KeyAccess tainted = a.tainted;
        KeyAccess vKeys = a.vKeys;
        long[] taintedWarps = a.taintedWarps;
        long[] seen = a.seen;
        long[] enabled = a.enabled;
        tainted.clear();
        vKeys.clear();
        WarpBits.clear(taintedWarps);
        WarpBits.clear(seen);
        WarpBits.clear(enabled);
        WarpBits.set(taintedWarps, t.warp[e1]);
        tainted.add(t.fp[e1]);
        WarpBits.or(taintedWarps, t.enables[e1]);
        boolean taintAll = t.fp[e1].all();
        boolean anySeen = false;
        boolean vAll = false;
        long[] out = WarpBits.empty(a.warps);
        for (int j = e1 + 1; j <= e2; j++) {
            int w = t.warp[j];
            StepFootprints.Footprint f = t.fp[j];
            boolean last = j == e2;
            if (!last && (taintAll || f.all() || WarpBits.get(taintedWarps, w) || tainted.dependent(f))) {
                WarpBits.set(taintedWarps, w);
                WarpBits.or(taintedWarps, t.enables[j]);
                tainted.add(f);
                taintAll |= f.all();
                continue;
            }
            boolean first = !WarpBits.get(seen, w);
            if (first && !WarpBits.get(enabled, w) && !vAll && !(f.all() && anySeen) && !vKeys.dependent(f)) WarpBits.set(out, w);
            WarpBits.set(seen, w);
            anySeen = true;
            WarpBits.or(enabled, t.enables[j]);
            vKeys.add(f);
            vAll |= f.all();
        }
        return out;
    }

    /** Keys touched by a set of steps, each with whether one of them wrote it (open addressing: no boxing on this hot path). */
    private static final class KeyAccess {
        private long[] key = new long[16];
        private boolean[] written = new boolean[16];
        private boolean[] used = new boolean[16];
        private int size;
        /** The slots in use, to empty the set in time proportional to its size. */
        private int[] slots = new int[8];

        void clear() {
            for (int j = 0; j < size; j++) used[slots[j]] = false;
            size = 0;
        }

        /** Whether a step with footprint {@code f} is dependent with one of the steps added (a write to a key, or any access to a written one). */
        boolean dependent(StepFootprints.Footprint f) {
            if (size == 0) return false;
            for (long k : f.keys()) {
                int i = find(k >>> 1);
                if (used[i] && (written[i] || (k & 1) != 0)) return true;
            }
            return false;
        }

        void add(StepFootprints.Footprint f) {
            for (long k : f.keys()) {
                if (2 * (size + 1) > key.length) grow();
                int i = find(k >>> 1);
                if (!used[i]) {
                    used[i] = true;
                    key[i] = k >>> 1;
                    written[i] = false;
                    slots = push(slots, size++, i);
                }
                written[i] |= (k & 1) != 0;
            }
        }

        private int find(long k) {
            int mask = key.length - 1;
            int i = (int) (k ^ (k >>> 29) ^ (k >>> 47)) * 0x9E3779B1 >>> 7 & mask;
            while (used[i] && key[i] != k) i = (i + 1) & mask;
            return i;
        }

        private void grow() {
            long[] k0 = key;
            boolean[] w0 = written;
            int[] s0 = slots;
            key = new long[k0.length * 2];
            written = new boolean[key.length];
            used = new boolean[key.length];
            for (int j = 0; j < size; j++) {
                int o = s0[j];
                int i = find(k0[o]);
                used[i] = true;
                key[i] = k0[o];
                written[i] = w0[o];
                slots[j] = i;
            }
        }
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
