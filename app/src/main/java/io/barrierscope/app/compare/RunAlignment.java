package io.barrierscope.app.compare;

import io.barrierscope.app.timeline.TimelineModel.SyncPoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps a step of run A to the matching step of run B and back, by the synchronization both runs
 * share rather than by raw step numbers: a CTA barrier generation, an mbarrier phase or a cluster
 * barrier phase that completes in both runs is an anchor (its completion step in A matches its
 * completion step in B); between anchors, and between the last anchor and the runs' ends, steps
 * map linearly. Anchors are kept in order in both runs (a completion that comes earlier in one run
 * and later in the other is left out), so the map is monotone. No JavaFX.
 */
public final class RunAlignment {
    private final long[] a;
    private final long[] b;

    private RunAlignment(long[] a, long[] b) {
        this.a = a;
        this.b = b;
    }

    /** Aligns runs of {@code endA} and {@code endB} steps by their completions (each in step order). */
    public static RunAlignment of(List<SyncPoint> pointsA, long endA, List<SyncPoint> pointsB, long endB) {
        // A generation or phase completes once per object: the key names it in either run.
        Map<List<Long>, Long> inB = new HashMap<>();
        for (SyncPoint p : pointsB) inB.putIfAbsent(key(p), p.step());
        List<long[]> anchors = new ArrayList<>();
        anchors.add(new long[] {0, 0});
        long lastA = 0;
        long lastB = 0;
        for (SyncPoint p : pointsA) { // in A's order: the lookup's iteration order never matters
            Long sb = inB.get(key(p));
            if (sb == null || p.step() <= lastA || sb <= lastB || p.step() >= endA || sb >= endB) continue;
            anchors.add(new long[] {p.step(), sb});
            lastA = p.step();
            lastB = sb;
        }
        anchors.add(new long[] {Math.max(endA, lastA + 1), Math.max(endB, lastB + 1)});
        long[] a = new long[anchors.size()];
        long[] b = new long[anchors.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = anchors.get(i)[0];
            b[i] = anchors.get(i)[1];
        }
        return new RunAlignment(a, b);
    }

    private static List<Long> key(SyncPoint p) { return List.of((long) p.kind(), p.object(), p.phase()); }

    /** The step of B matching step {@code stepA} of A. */
    public long toB(long stepA) { return map(a, b, stepA); }

    /** The step of A matching step {@code stepB} of B. */
    public long toA(long stepB) { return map(b, a, stepB); }

    /** Where {@code stepA} of A falls in B, unrounded (a visible range's edges map with it). */
    public double toB(double stepA) { return mapExact(a, b, stepA); }

    /** Where {@code stepB} of B falls in A, unrounded. */
    public double toA(double stepB) { return mapExact(b, a, stepB); }

    /** Completions matched in both runs (the start and the ends are not counted). */
    public int anchors() { return a.length - 2; }

    /** The anchors' steps in A, then in B (tests). */
    long[][] anchorSteps() { return new long[][] {Arrays.copyOf(a, a.length), Arrays.copyOf(b, b.length)}; }

    private static long map(long[] from, long[] to, long s) {
        if (s <= from[0]) return to[0];
        int n = from.length;
        if (s >= from[n - 1]) return to[n - 1];
        int i = Arrays.binarySearch(from, s);
        if (i >= 0) return to[i];
        int hi = -i - 1;
        int lo = hi - 1;
        double f = (double) (s - from[lo]) / (from[hi] - from[lo]);
        return to[lo] + Math.round(f * (to[hi] - to[lo]));
    }

    private static double mapExact(long[] from, long[] to, double s) {
        int n = from.length;
        if (s <= from[0]) return to[0] + (s - from[0]); // before the start, past the end: step for step
        if (s >= from[n - 1]) return to[n - 1] + (s - from[n - 1]);
        int lo = 0;
        int hi = n - 1; // from[lo] < s < from[hi] or s on one of them
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (from[mid] <= s) lo = mid;
            else hi = mid;
        }
        return to[lo] + (s - from[lo]) / (from[hi] - from[lo]) * (to[hi] - to[lo]);
    }
}
