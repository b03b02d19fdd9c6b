package io.barrierscope.app.timeline;

import java.util.Arrays;

/**
 * Barrier completions (a CTA barrier generation, an mbarrier phase, a barrier.cluster phase), in
 * step order, each with the range of lanes it released, which the view draws as a line across
 * them. Min/max pyramids over the lanes summarise any run of completions for a pixel column.
 * A completion waits in a pending slot until its step's events are all read, because the status
 * changes that show whom it released can come before or after it.
 */
final class TimelineCompletions {
    static final int BAR = 0;
    static final int MBAR = 1;
    static final int CLUSTER = 2;

    private long[] step = new long[16];
    private long[] object = new long[16];
    private long[] phase = new long[16];
    private byte[] kind = new byte[16];
    private final Pyramid lo = new Pyramid(Pyramid.MIN);
    private final Pyramid hi = new Pyramid(Pyramid.MAX);
    private int n;

    private long[] pStep = new long[4];
    private long[] pObject = new long[4];
    private long[] pPhase = new long[4];
    private int[] pKind = new int[4];
    private int[] pLo = new int[4];
    private int[] pHi = new int[4];
    private int pending;

    void pending(int k, long s, long obj, long ph) {
        if (pending == pStep.length) {
            int c = pending * 2;
            pStep = Arrays.copyOf(pStep, c);
            pObject = Arrays.copyOf(pObject, c);
            pPhase = Arrays.copyOf(pPhase, c);
            pKind = Arrays.copyOf(pKind, c);
            pLo = Arrays.copyOf(pLo, c);
            pHi = Arrays.copyOf(pHi, c);
        }
        pStep[pending] = s;
        pObject[pending] = obj;
        pPhase[pending] = ph;
        pKind[pending] = k;
        pending++;
    }

    int pendingCount() { return pending; }

    int pendingKind(int i) { return pKind[i]; }

    long pendingObject(int i) { return pObject[i]; }

    void setPendingLanes(int i, int l, int h) {
        pLo[i] = l;
        pHi[i] = h;
    }

    void commitPending() {
        for (int i = 0; i < pending; i++) {
            if (n == step.length) {
                step = Arrays.copyOf(step, n * 2);
                object = Arrays.copyOf(object, n * 2);
                phase = Arrays.copyOf(phase, n * 2);
                kind = Arrays.copyOf(kind, n * 2);
            }
            step[n] = pStep[i];
            object[n] = pObject[i];
            phase[n] = pPhase[i];
            kind[n] = (byte) pKind[i];
            lo.add(pLo[i]);
            hi.add(pHi[i]);
            n++;
        }
        pending = 0;
    }

    int size() { return n; }

    long step(int i) { return step[i]; }

    long object(int i) { return object[i]; }

    long phase(int i) { return phase[i]; }

    int kind(int i) { return kind[i]; }

    int lo(int i) { return lo.get(i); }

    int hi(int i) { return hi.get(i); }

    /** The first completion at or after {@code s}. */
    int firstFrom(long s) { return TimelineLane.firstAtOrAfter(step, n, 0, s); }

    long[] steps(long known) { return Arrays.copyOf(step, TimelineLane.firstAtOrAfter(step, n, 0, known)); }

    /** Per column (markers' rule: s + 0.5 in the column): the count, the lowest and the highest lane released. */
    void columns(TimelineColumns out, long known) {
        Arrays.fill(out.completions, 0);
        int end = TimelineLane.firstAtOrAfter(step, n, 0, known);
        double[] b = out.bounds;
        int i = TimelineLane.firstAtOrAfter(step, end, 0, TimelineLane.threshold(b[0]));
        for (int c = 0; c < out.width && i < end; c++) {
            long t = TimelineLane.threshold(b[c + 1]);
            if (step[i] >= t) continue;
            int j = TimelineLane.firstAtOrAfter(step, end, i, t);
            out.completions[c] = j - i;
            out.completionLo[c] = j - i == 1 ? lo.get(i) : lo.query(i, j);
            out.completionHi[c] = j - i == 1 ? hi.get(i) : hi.query(i, j);
            i = j;
        }
    }
}
