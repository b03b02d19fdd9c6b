package io.barrierscope.app.timeline;

import java.util.Arrays;

/**
 * One warp's data in the timeline: its state as run-length spans over warp steps (a span starts
 * where the state changes and lasts until the next one, the last until the known end), with a
 * {@link Pyramid} over the spans' state bits so any run of spans is summarised in O(log n), and
 * its markers per kind, sorted by step (they are appended in recording order).
 */
final class TimelineLane {
    private long[] spanStart = new long[8];
    private final Pyramid spanStates = new Pyramid(Pyramid.OR);

    private final long[][] mStep = new long[MarkerKind.COUNT][];
    private final long[][] mObject = new long[MarkerKind.COUNT][];
    /** The event's a (high 32 bits) and b (low 32 bits), each clamped to an int. */
    private final long[][] mAB = new long[MarkerKind.COUNT][];
    private final int[] mCount = new int[MarkerKind.COUNT];

    // ---- building ----

    /** Starts a span of {@code state} at {@code step} (after the last span's start); equal states merge. */
    void span(long step, int state) {
        int n = spanStates.size();
        if (n > 0 && spanStates.get(n - 1) == 1 << state) return;
        if (n == spanStart.length) spanStart = Arrays.copyOf(spanStart, n * 2);
        spanStart[n] = step;
        spanStates.add(1 << state);
    }

    void marker(MarkerKind kind, long step, long object, long a, long b) {
        int k = kind.ordinal();
        int n = mCount[k];
        if (mStep[k] == null) {
            mStep[k] = new long[8];
            mObject[k] = new long[8];
            mAB[k] = new long[8];
        } else if (n == mStep[k].length) {
            mStep[k] = Arrays.copyOf(mStep[k], n * 2);
            mObject[k] = Arrays.copyOf(mObject[k], n * 2);
            mAB[k] = Arrays.copyOf(mAB[k], n * 2);
        }
        mStep[k][n] = step;
        mObject[k][n] = object;
        mAB[k][n] = ((long) clamp(a) << 32) | (clamp(b) & 0xFFFFFFFFL);
        mCount[k] = n + 1;
    }

    private static int clamp(long v) { return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)); }

    // ---- reading ----

    int spans() { return spanStates.size(); }

    long spanStart(int i) { return spanStart[i]; }

    /** The state (ordinal) of span i. */
    int spanState(int i) { return Integer.numberOfTrailingZeros(spanStates.get(i)); }

    /** The span holding {@code step} (>= 0). */
    int spanAt(long step) { return lastAtOrBefore(spanStart, spanStates.size(), 0, step); }

    int markers(MarkerKind k) { return mCount[k.ordinal()]; }

    long markerStep(MarkerKind k, int i) { return mStep[k.ordinal()][i]; }

    long markerObject(MarkerKind k, int i) { return mObject[k.ordinal()][i]; }

    int markerA(MarkerKind k, int i) { return (int) (mAB[k.ordinal()][i] >> 32); }

    int markerB(MarkerKind k, int i) { return (int) mAB[k.ordinal()][i]; }

    /** The first marker of kind k at or after {@code step}. */
    int firstMarkerFrom(MarkerKind k, long step) {
        int n = mCount[k.ordinal()];
        return n == 0 ? 0 : firstAtOrAfter(mStep[k.ordinal()], n, 0, step);
    }

    /**
     * ORs this lane's states into {@code out.states} and adds its markers into {@code out.markers},
     * for steps below {@code known}. One pass over the columns; the span and marker positions only
     * move forward (galloping from the previous column's), so a frame costs O(width log) however
     * many events the range holds.
     */
    void columns(TimelineColumns out, long known) {
        double[] b = out.bounds;
        int w = out.width;
        int n = spanStates.size();
        int[] states = out.states;
        int hint = 0;
        for (int c = 0; c < w; c++) {
            long a = (long) Math.floor(b[c]);
            long e = Math.max(a + 1, (long) Math.ceil(b[c + 1]));
            if (a < 0) a = 0;
            if (e > known) e = known;
            if (a >= e) continue;
            int i = lastAtOrBefore(spanStart, n, hint, a);
            int j = lastAtOrBefore(spanStart, n, i, e - 1);
            states[c] |= i == j ? spanStates.get(i) : spanStates.query(i, j + 1);
            // the next column starts at or after e - 1, so at span j or later
            hint = j;
        }
        for (int k = 0; k < MarkerKind.COUNT; k++) {
            int count = mCount[k];
            if (count == 0) continue;
            countInto(mStep[k], count, b, w, known, out.markers[k]);
        }
    }

    /** Adds per column the number of steps s (s < known) with {@code b[c] <= s + 0.5 < b[c+1]}. */
    static void countInto(long[] steps, int n, double[] b, int w, long known, int[] out) {
        int end = firstAtOrAfter(steps, n, 0, known);
        int i = firstAtOrAfter(steps, end, 0, threshold(b[0]));
        if (i >= end) return;
        for (int c = 0; c < w && i < end; c++) {
            long t = threshold(b[c + 1]);
            if (steps[i] >= t) continue;
            int j = firstAtOrAfter(steps, end, i, t);
            out[c] += j - i;
            i = j;
        }
    }

    /** The smallest step s with s + 0.5 >= x. */
    static long threshold(double x) { return (long) Math.ceil(x - 0.5); }

    /** The last index in [from, n) whose value is <= x, given a[from] <= x (galloping, then binary search). */
    static int lastAtOrBefore(long[] a, int n, int from, long x) {
        int lo = from;
        int step = 1;
        int hi = from + 1;
        while (hi < n && a[hi] <= x) {
            lo = hi;
            hi = lo + step;
            step <<= 1;
        }
        if (hi > n) hi = n;
        // a[lo] <= x; a[hi] > x or hi == n
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= x) lo = mid;
            else hi = mid;
        }
        return lo;
    }

    /** The first index in [from, n] whose value is >= x (n if none), galloping from {@code from}. */
    static int firstAtOrAfter(long[] a, int n, int from, long x) {
        if (from >= n || a[from] >= x) return from;
        int lo = from; // a[lo] < x
        int step = 1;
        int hi = from + 1;
        while (hi < n && a[hi] < x) {
            lo = hi;
            hi = lo + step;
            step <<= 1;
        }
        if (hi > n) hi = n;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < x) lo = mid;
            else hi = mid;
        }
        return hi;
    }
}
