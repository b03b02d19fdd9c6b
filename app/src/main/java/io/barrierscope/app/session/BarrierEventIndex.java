package io.barrierscope.app.session;

import io.barrierscope.exec.SyncEvent;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.Recording;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The barrier events of a recording, by barrier: built incrementally as the recording grows, so
 * a selected barrier's roster and history cost the barrier's own events, not a scan of the whole
 * run (which would not stay fluid on a 10 M-event trace). Engine thread only.
 */
final class BarrierEventIndex {
    /** The events of one barrier, in order, as parallel arrays. */
    static final class Events {
        int size;
        SyncEvent[] kind = new SyncEvent[8];
        long[] step = new long[8];
        int[] slot = new int[8];
        long[] a = new long[8];
        long[] b = new long[8];

        private void add(EventCursor c) {
            if (size == step.length) {
                int n = size * 2;
                kind = Arrays.copyOf(kind, n);
                step = Arrays.copyOf(step, n);
                slot = Arrays.copyOf(slot, n);
                a = Arrays.copyOf(a, n);
                b = Arrays.copyOf(b, n);
            }
            kind[size] = c.kind;
            step[size] = c.step;
            slot[size] = c.slot;
            a[size] = c.a;
            b[size] = c.b;
            size++;
        }
    }

    private static final Events NONE = new Events();
    private final Recording rec;
    // CTA barriers and mbarriers are both named cta << 32 | n: separate maps keep the kinds apart.
    private final Map<Long, Events> ctaBarriers = new HashMap<>();
    private final Map<Long, Events> mbarriers = new HashMap<>();
    /** Cluster barrier completions only: a cluster's roster is exact in the machine, its arrivals are not needed. */
    private final Map<Long, Events> clusterBarriers = new HashMap<>();
    /** Events labelled below this step are indexed. */
    private long indexed;
    private boolean done;

    BarrierEventIndex(Recording rec) { this.rec = rec; }

    /** The events of a barrier so far (all steps recorded; callers stop at the position they show). */
    Events of(BarrierKey key) {
        update();
        Map<Long, Events> kind = switch (key.kind()) {
            case CTA_BARRIER -> ctaBarriers;
            case MBARRIER -> mbarriers;
            case CLUSTER_BARRIER -> clusterBarriers;
        };
        return kind.getOrDefault(key.object(), NONE);
    }

    private void update() {
        if (done) return;
        long upTo = rec.steps();
        boolean finished = rec.finished();
        if (upTo <= indexed && !finished) return;
        EventCursor c = rec.cursor(indexed);
        while (c.next()) {
            if (!finished && c.step >= upTo) break;
            if (c.type != EventCursor.Type.SYNC) continue;
            switch (c.kind) {
                case BAR_ARRIVE, BAR_COMPLETE -> ctaBarriers.computeIfAbsent(c.object, k -> new Events()).add(c);
                case MBAR_INIT, MBAR_ARRIVE, MBAR_EXPECT_TX, MBAR_COMPLETE_TX, MBAR_PHASE_COMPLETE, MBAR_INVAL ->
                        mbarriers.computeIfAbsent(c.object, k -> new Events()).add(c);
                case CLUSTER_COMPLETE -> clusterBarriers.computeIfAbsent(c.object, k -> new Events()).add(c);
                default -> { }
            }
        }
        indexed = upTo;
        done = finished;
    }
}
