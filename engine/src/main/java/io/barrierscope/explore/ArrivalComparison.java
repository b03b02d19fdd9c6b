package io.barrierscope.explore;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The arrival orders of two runs' barrier generations and mbarrier phases, compared while the
 * runs go on, so that what is held stays bounded however long they run: a generation is
 * compared as soon as both runs have closed it (an arrival of a later one, or the run's end)
 * and then forgotten. Before, every arrival of both runs was kept to the end, and a 12M-step
 * loop around a {@code bar.sync} ran a 256 MB heap out of memory (docs/reliability.md).
 *
 * <p>Bounded in two ways, both said in the result: the first {@link #KEPT} differences are kept
 * with their arrivals (all are counted), and when one run gets {@link #PENDING_CAP} arrivals
 * ahead of the other (generations the other has not closed yet), comparing stops there with a
 * note naming the step, as the race detector's read-set cap does.
 */
final class ArrivalComparison {
    /** Differences kept with their arrival lists; the rest are counted. */
    static final int KEPT = 1000;
    /** Arrival entries one run may hold ahead of the other before comparing stops. */
    static final int PENDING_CAP = 200_000;

    /** One closed (or open) generation of one object in one run: its number and arrivals in order. */
    static final class Segment {
        final long generation;
        final List<String> arrivals = new ArrayList<>();
        /** The warp and lanes of the last entry, to merge one warp's lanes into one entry. */
        int lastWarp = -1;
        int lastLanes;

        Segment(long generation) { this.generation = generation; }
    }

    /** One run's side: open generations by object key, closed ones waiting for the other run. */
    final class Side {
        private final String name;
        private final Map<String, Segment> open = new HashMap<>();
        private final Map<String, ArrayDeque<Segment>> closed = new HashMap<>();
        private long pending;
        boolean ended;

        Side(String name) { this.name = name; }

        /** The segment of {@code object}'s {@code generation} to append to (a new one closes the last). */
        Segment at(String object, long generation) {
            Segment s = open.get(object);
            if (s != null && s.generation == generation) return s;
            if (s != null) close(object, s);
            s = new Segment(generation);
            open.put(object, s);
            return s;
        }

        void added() {
            if (++pending > pendingCap && note == null) stop(this);
        }

        private void close(String object, Segment s) {
            closed.computeIfAbsent(object, k -> new ArrayDeque<>()).add(s);
            touched.add(object);
        }

        /** The run ended: every open generation is closed. */
        void end() {
            for (String o : new TreeSet<>(open.keySet())) close(o, open.get(o));
            open.clear();
            ended = true;
        }
    }

    final Side a = new Side("A");
    final Side b = new Side("B");
    /** Objects with a newly closed generation in either run since the last {@link #drain} (sorted: deterministic). */
    private final TreeSet<String> touched = new TreeSet<>();
    private final List<Map.Entry<String, RunDiff.SyncDifference>> kept = new ArrayList<>();
    private long differing;
    private String note;
    private final java.util.function.LongSupplier step;

    private final int pendingCap;

    /** {@code step}: the steps taken so far, named in the note when comparing stops; {@code pendingCap}: see {@link #PENDING_CAP}. */
    ArrivalComparison(java.util.function.LongSupplier step, int pendingCap) {
        this.step = step;
        this.pendingCap = pendingCap;
    }

    /** Whether arrivals are still recorded (false once one run got too far ahead). */
    boolean recording() { return note == null; }

    private void stop(Side ahead) {
        note = "barrier arrivals compared up to warp step " + step.getAsLong() + " only: run " + ahead.name + " got "
                + pendingCap + " arrivals ahead of run " + (ahead == a ? b : a).name + " in generations the other had not reached";
        for (Side s : List.of(a, b)) {
            s.open.clear();
            s.closed.clear();
            s.pending = 0;
        }
        touched.clear();
    }

    /** Compares every generation both runs have closed (one that only one run has once the other ended). */
    void drain() {
        if (touched.isEmpty() || note != null) return;
        for (String o : touched) {
            ArrayDeque<Segment> qa = a.closed.getOrDefault(o, new ArrayDeque<>());
            ArrayDeque<Segment> qb = b.closed.getOrDefault(o, new ArrayDeque<>());
            while (!qa.isEmpty() && !qb.isEmpty()) {
                Segment x = qa.peek();
                Segment y = qb.peek();
                // Generations pair by number; one a run skipped (or, after a re-init, took again) is compared with none.
                if (x.generation == y.generation) compare(o, x.generation, take(a, qa), take(b, qb));
                else if (x.generation < y.generation) compare(o, x.generation, take(a, qa), List.of());
                else compare(o, y.generation, List.of(), take(b, qb));
            }
            while (b.ended && !qa.isEmpty()) compare(o, qa.peek().generation, take(a, qa), List.of());
            while (a.ended && !qb.isEmpty()) compare(o, qb.peek().generation, List.of(), take(b, qb));
            if (qa.isEmpty()) a.closed.remove(o);
            if (qb.isEmpty()) b.closed.remove(o);
        }
        touched.clear();
    }

    private static List<String> take(Side s, ArrayDeque<Segment> q) {
        Segment seg = q.poll();
        s.pending -= seg.arrivals.size();
        return seg.arrivals;
    }

    private void compare(String object, long generation, List<String> x, List<String> y) {
        if (x.equals(y)) return;
        differing++;
        if (kept.size() < KEPT) {
            kept.add(Map.entry(object, new RunDiff.SyncDifference(object.substring(object.indexOf('|') + 1), generation, x, y)));
        }
    }

    /** The kept differences by object (in the key's order: kind, CTA, id) and generation. */
    List<RunDiff.SyncDifference> differences() {
        List<Map.Entry<String, RunDiff.SyncDifference>> sorted = new ArrayList<>(kept);
        sorted.sort(Comparator.comparing((Map.Entry<String, RunDiff.SyncDifference> e) -> e.getKey())
                .thenComparingLong(e -> e.getValue().generation()));
        List<RunDiff.SyncDifference> out = new ArrayList<>();
        for (Map.Entry<String, RunDiff.SyncDifference> e : sorted) out.add(e.getValue());
        return out;
    }

    /** Every difference found, kept or not. */
    long differing() { return differing; }

    /** Null, or why arrivals were not compared to the end. */
    String note() { return note; }
}
