package io.barrierscope.explore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The explorer's search tree under source sets (docs/explore.md, "Source sets"): a run's warp
 * decisions are forked only where a race between dependent steps of an explored run asks for it
 * ({@link SourceSets}), on top of the sleep sets. Depth first: a run's decisions are taken from the
 * last to the first, so when a decision's forks are chosen every run below the run's own choice
 * there has been analysed, and races found below a decision add forks at it or at earlier ones
 * (never at one already finished). Other decisions (convergence group, copy latency, try_wait) and
 * the symmetric alternatives a raced run keeps are forked as before.
 *
 * <p>With a bound: a race whose reversal would need one more non-default decision than the bound
 * allows (in a leaf, after its fork), a leaf pruned by state hash (its races are not known), or a
 * race with no warp decision before its first step cannot be followed. Then every decision on the
 * leaf's path back to the root that has it below falls back to all its alternatives (less the
 * sleep set), as the search without source sets would take them: source sets are trusted only
 * where the bound cut nothing under them.
 */
final class SourceSetSearch {
    /** One warp decision of an enumerating run. */
    static final class Point {
        final long idx;
        final int chosen;
        /** The warps offered before the reductions, and those asleep ({@link WarpBits}). */
        final long[] offered;
        final long[] asleep;
        /** The warps left to fork (not asleep, not a skipped symmetric one), in the lister's order. */
        final long[] cand;
        final int sleepPoint;
        /** The step number the decision was taken at (the step it chose runs next). */
        final long step;

        Point(long idx, int chosen, long[] offered, long[] asleep, long[] cand, int sleepPoint, long step) {
            this.idx = idx;
            this.step = step;
            this.chosen = chosen;
            this.offered = offered;
            this.asleep = asleep;
            this.cand = cand;
            this.sleepPoint = sleepPoint;
        }

        long[] candMask() { return mask(cand, cand.length, offered.length << 6); }
    }

    /** One fork to make at a decision, and the sleep-set entry of its first step once known. */
    private static final class Fork {
        final long[] a;
        SleepSet.Sleeper step;
        boolean stepKnown;
        /** As a leaf: its task once handed out ({@link Ahead}), and the races its run reported (set by the task). */
        LeafJob job;
        int slot = -1;
        LeafRaces races;

        Fork(long[] a) { this.a = a; }
    }

    /** The forks of one decision, in the order they are made (requests only append). */
    private static final class Work {
        final List<Fork> forks = new ArrayList<>();
        /** The warps forked ({@link WarpBits}). */
        final long[] warps;
        int next;
        int stepsAdded;
        /** Forks handed out as leaves (from the first: a fork's sleep set needs the forks before it). */
        int handed;

        Work(int warps) { this.warps = WarpBits.empty(warps); }
    }

    /** Per enumerating run. */
    static final class State {
        final Frame parent;
        final TraceLog own = new TraceLog();
        TraceLog log;
        int prefixCount;
        long forkStepNo = -1;
        final TreeMap<Long, Point> points = new TreeMap<>();
        final TreeMap<Long, Work> work = new TreeMap<>();
        long fullUpTo = -1;
        /** Race analysis states over {@link #log} by entries analysed, ascending; kept while the run's subtree is searched. */
        List<SourceSets.Analysis> snaps;
        /** The state a fork last resumed from (the forks of one decision share it). */
        SourceSets.Analysis exact;

        State(Frame parent) { this.parent = parent; }

        void point(long idx, int chosen, long[] offered, long[] asleep, long[] cand, int sleepPoint, long step) {
            points.put(idx, new Point(idx, chosen, offered, asleep, cand, sleepPoint, step));
        }
    }

    /** The first {@code n} warps of {@code ws} as a {@link WarpBits} set for {@code warps} warps. */
    static long[] mask(long[] ws, int n, int warps) {
        long[] m = WarpBits.empty(warps);
        for (int i = 0; i < n; i++) WarpBits.set(m, (int) ws[i]);
        return m;
    }

    /** Analysis states a run keeps along its own part, at most (each about a vector clock per warp and per key). */
    static final int SNAPSHOTS = 16;
    /** The bytes of the states one run keeps, at most (about: on a launch of many warps and words a state is large). */
    static final long SNAPSHOT_BYTES = 16L << 20;
    /** Entries between two kept states, at least (a copy costs about as much as analysing a few dozen entries). */
    static final int SNAPSHOT_MIN_ENTRIES = 64;

    private final Explorer ex;
    private final int warps;
    /** The rule sound under the bound ({@link BoundedPartialOrder}) instead of races: no analysis, no sleep sets. */
    final boolean bounded;
    /** Schedules already filed (counted, pruned or cut): a run first made as an inner node is counted then. */
    final Set<String> filed = new HashSet<>();
    /** Races followed, and those that could not be (dropped: a fallback to all alternatives). */
    long races;
    long dropped;

    SourceSetSearch(Explorer ex, int warps, boolean bounded) {
        this.ex = ex;
        this.warps = warps;
        this.bounded = bounded;
    }

    /** Runs the subtree below {@code f} (already run) to depth {@code bound}; false once a budget is spent. */
    boolean expand(Frame f, int depth, int bound) {
        State s = f.dpor;
        Frame parent = s.parent;
        if (!bounded) {
            s.prefixCount = parent == null ? 0 : parent.dpor.log.countBefore(s.forkStepNo < 0 ? Long.MAX_VALUE : s.forkStepNo);
            s.log = TraceLog.concat(parent == null ? null : parent.dpor.log, s.prefixCount, s.own);
        }
        for (long[] a : f.alternatives) { // the decisions that are always forked
            Work w = work(s, a[0]);
            w.forks.add(new Fork(a));
            if (a[1] == SchedulePolicy.WARP) WarpBits.set(w.warps, (int) a[2]);
        }
        if (bounded) forkAllButIndependentRemainder(f);
        else analyzeRun(f);
        TreeSet<Long> keys = new TreeSet<>(s.points.keySet());
        keys.addAll(s.work.keySet());
        double share = ex.systematicShare();
        try (Ahead ahead = depth == bound ? new Ahead(f) : null) {
            for (Long k = keys.isEmpty() ? null : keys.last(); k != null; k = keys.lower(k)) {
                Point dp = s.points.get(k);
                Work w = work(s, k);
                while (true) {
                    if (k <= s.fullUpTo && dp != null) addAll(s, dp);
                    if (w.next >= w.forks.size()) break;
                    if (ex.out(share)) return false;
                    if (ahead != null) {
                        if (!ahead.leaf(k, dp, w)) return false;
                    } else if (!child(f, dp, w, depth, bound)) {
                        return false;
                    }
                }
            }
        }
        // The alternatives not forked (asleep, or no race asked for them) are what the reduction saved.
        long skipped = 0;
        for (Point dp : s.points.values()) {
            Work w = s.work.get(dp.idx);
            skipped += WarpBits.count(dp.asleep);
            for (long q : dp.cand) if (w == null || !WarpBits.get(w.warps, (int) q)) skipped++;
        }
        ex.cutByPartialOrder(skipped);
        s.snaps = null; // the subtree is done: no fork resumes from them any more
        s.exact = null;
        return true;
    }

    /**
     * Reports the races of run {@code f}'s own part: the analysis resumes from its parent's state
     * at the fork, and keeps states along the run's own part for its forks to resume from: at most
     * {@link #SNAPSHOTS} + 1 (and about {@link #SNAPSHOT_BYTES}), plus the last one a fork resumed
     * from, for the runs on the path being searched only (a run drops them when its subtree is done).
     */
    private void analyzeRun(Frame f) {
        State s = f.dpor;
        SourceSets.Sink sink = (p, initials, preferred, step) -> request(f, p, initials, preferred, step);
        SourceSets.Analysis a = s.parent == null ? new SourceSets.Analysis(warps, s.log.n) : resume(s.parent.dpor, s.prefixCount, s.log.n);
        s.snaps = new ArrayList<>();
        s.snaps.add(a.snapshot());
        int every = Math.max(SNAPSHOT_MIN_ENTRIES, (s.log.n - s.prefixCount + SNAPSHOTS - 1) / SNAPSHOTS);
        long bytes = 0;
        // Runs deeper than the bound's levels (ExhaustionPass) keep only the state at their fork, as they keep no checkpoints.
        boolean deep = f.plan.size() >= ex.boundLevels();
        for (int to = s.prefixCount + every; to < s.log.n && !deep; to += every) {
            a.run(s.log, to, s.prefixCount, sink);
            bytes += a.bytes();
            if (bytes > SNAPSHOT_BYTES || a.overflow) break; // a fork past here replays from the last state kept
            s.snaps.add(a.snapshot());
        }
        a.run(s.log, s.log.n, s.prefixCount, sink);
        if (a.overflow) drop(f, Long.MAX_VALUE); // races past the memory cap are unknown: all alternatives of the run and its path
    }

    /**
     * Under the bound ({@link BoundedPartialOrder}): every warp decision of {@code f}'s own part
     * forks all its candidates, but those after which the run's remainder is independent (and no
     * alternative of another kind follows): their every continuation is equivalent to the run itself.
     */
    private void forkAllButIndependentRemainder(Frame f) {
        State s = f.dpor;
        long lastOtherKind = -1;
        for (long[] a : f.alternatives) if (a[1] != SchedulePolicy.WARP) lastOtherKind = Math.max(lastOtherKind, a[0]);
        long last = BoundedPartialOrder.lastInteraction(s.own);
        for (Point dp : s.points.values()) if (!BoundedPartialOrder.skips(dp.idx, dp.step, last, lastOtherKind)) addAll(s, dp);
    }

    /** The analysis state after the first {@code count} entries of {@code s.log}, to go on over a log of {@code capacity} entries. */
    private SourceSets.Analysis resume(State s, int count, int capacity) {
        if (s.exact != null && s.exact.pos == count) return s.exact.resume(capacity);
        SourceSets.Analysis best = null;
        if (s.snaps != null) for (SourceSets.Analysis x : s.snaps) if (x.pos <= count) best = x;
        SourceSets.Analysis a = best == null ? new SourceSets.Analysis(warps, capacity) : best.resume(capacity);
        if (a.pos < count) {
            a.run(s.log, count, Integer.MAX_VALUE, null);
            s.exact = a.snapshot();
        }
        return a;
    }

    private Work work(State s, long k) { return s.work.computeIfAbsent(k, x -> new Work(warps)); }

    /** Runs the next fork of {@code w} as an enumerating run and its subtree. */
    private boolean child(Frame f, Point dp, Work w, int depth, int bound) {
        int j = w.next++;
        Fork fk = w.forks.get(j);
        long[] a = fk.a;
        Schedule plan = f.plan.with(a[0], (char) a[1], a[2]);
        Frame c = new Frame(plan, a[0]);
        c.dpor = new State(f);
        SleepSet.Point p = sleepPoint(f, dp, a);
        if (p != null) {
            addSiblingSteps(f, w, j, p);
            c.sleep = p.forChild(a[1] == SchedulePolicy.WARP);
        }
        ex.execute(plan, f, a[0], c);
        if (ex.aborted()) return false;
        fk.step = c.forkStep;
        fk.stepKnown = true;
        if (filed.add(plan.toString())) {
            if (c.dpor.own.closed) ex.cutByPartialOrder(1);
            else ex.countLastRun();
        }
        ex.keepSymmetricIfRaced(c);
        if (ex.aborted()) return false;
        return expand(c, depth + 1, bound);
    }

    /**
     * The leaves of one frame (its forks at the last depth), handed out to the runners ahead of
     * filing: the forks known so far in the order {@link #expand} files them (decisions from the
     * last, each decision's forks in order), at most {@link JobRunners#ahead} at once. A fork's run
     * depends on its plan, its checkpoint and its sleep set only, and its sleep set is fixed once
     * the forks before it at its decision are (requests only append), so a fork run early gives
     * the result of one run in turn; results are filed in order (the races of each, as before).
     */
    private final class Ahead implements AutoCloseable {
        private final Frame f;
        private final JobRunners runners = ex.runners();
        private final JobRunners.Stream<ScheduleRunner.Leaf> stream = runners.stream();
        private final long lastFork;
        /** Tasks handed out and not yet filed. */
        private int out;

        Ahead(Frame f) {
            this.f = f;
            this.lastFork = lastPoint(f);
        }

        /** Runs (or takes the run of) the next fork of {@code w}, at decision {@code k}, and files it. */
        boolean leaf(long k, Point dp, Work w) {
            int j = w.next;
            while (w.handed <= j) handOut(dp, w);
            // The forks known below this one, as far as the window allows.
            for (Map.Entry<Long, Work> e : f.dpor.work.headMap(k, true).descendingMap().entrySet()) {
                if (out >= runners.ahead()) break;
                Work o = e.getValue();
                while (o.handed < o.forks.size() && out < runners.ahead()) handOut(f.dpor.points.get(e.getKey()), o);
            }
            Fork fk = w.forks.get(j);
            ScheduleRunner.Leaf r = stream.take(fk.slot);
            out--;
            w.next = j + 1;
            long cpStep = fk.job.cpStep;
            LeafRaces races = fk.races;
            fk.job = null; // filed: its task and races need not live as long as the frame's forks
            fk.races = null;
            return file(fk.a, r, cpStep, races);
        }

        /** Hands out the next fork of {@code w} not handed out yet, with its sleep set. */
        private void handOut(Point dp, Work w) {
            int j = w.handed++;
            Fork fk = w.forks.get(j);
            long[] a = fk.a;
            SleepSet.Sleeper[] sleeps = null;
            SleepSet.Point p = sleepPoint(f, dp, a);
            if (p != null) {
                addSiblingSteps(f, w, j, p);
                sleeps = p.forChild(a[1] == SchedulePolicy.WARP);
            }
            fk.job = new LeafJob(ex, stream, f, a, lastFork, sleeps, !bounded) {
                @Override
                void after(ScheduleRunner.Leaf leaf) {
                    // A leaf that stopped at a known state is pruned: its races are never asked for (nor under the bound).
                    if (!bounded && !leaf.aborted() && !leaf.stoppedEarly()) fk.races = races(f, a[0], leaf);
                }
            };
            fk.slot = stream.submit(fk.job);
            out++;
        }

        /** Files one leaf's run: counted, pruned or cut, and its races followed. */
        private boolean file(long[] a, ScheduleRunner.Leaf r, long cpStep, LeafRaces races) {
            int filing = ex.fileLeaf(r, cpStep, true);
            if (filing == Explorer.FILED_ABORTED) return false;
            filed.add(f.plan.with(a[0], (char) a[1], a[2]).toString());
            if (bounded) return true; // a leaf's races are not asked for: every fork that could matter is made
            if (filing == Explorer.FILED_PRUNED) {
                drop(f, a[0]);
                return true;
            }
            long fork = a[0];
            // A drop only raises how far the frames on the path take every alternative, which no request reads: its place among them does not matter.
            if (races.dropFork()) drop(f, fork); // the reversal needs one more decision than the bound allows
            long[] initials = new long[races.stride() - 3];
            long[] b = races.packed();
            for (int i = 0; i < races.count(); i++) {
                int o = i * races.stride();
                System.arraycopy(b, o + 3, initials, 0, initials.length);
                request(f, b[o], initials, (int) b[o + 2], b[o + 1]);
            }
            if (races.overflow()) drop(f, fork); // past the memory cap: the leaf's races are unknown, as for a pruned leaf
            return true;
        }

        @Override
        public void close() { stream.close(); }
    }

    /**
     * The races a leaf's run reported, to follow when it is filed: whether one needs one more
     * decision than the bound allows ({@code dropFork}), and the others in order, packed (decision,
     * step, preferred warp, initials' words) as there can be thousands. Races every filing would
     * ignore (the run's own choice or a sleeping warp is an initial) are left out.
     */
    record LeafRaces(long[] packed, int count, int stride, boolean dropFork, boolean overflow) {}

    /**
     * The races of leaf run {@code r} of frame {@code f} (forked at decision {@code fork}), its own part analysed from the frame's state
     * at its fork. Reads only what no filing changes while the frame's leaves run (the frame's log and
     * kept states), so a worker takes it right after the run; resumed from a kept state, it reports
     * what an analysis from the start would.
     */
    private LeafRaces races(Frame f, long fork, ScheduleRunner.Leaf r) {
        State s = f.dpor;
        int pc = s.log.countBefore(r.forkStepNo() < 0 ? Long.MAX_VALUE : r.forkStepNo());
        TraceLog log = TraceLog.concat(s.log, pc, r.events());
        SourceSets.Analysis best = null;
        if (s.snaps != null) for (SourceSets.Analysis x : s.snaps) if (x.pos <= pc) best = x;
        SourceSets.Analysis la = best == null ? new SourceSets.Analysis(warps, log.n) : best.resume(log.n);
        if (la.pos < pc) la.run(s.log, pc, Integer.MAX_VALUE, null);
        long forkStep = r.forkStepNo();
        int stride = 3 + WarpBits.empty(warps).length;
        long[][] buf = {new long[stride * 16]};
        int[] n = {0};
        boolean[] dropFork = {false};
        la.run(log, log.n, pc, (p, initials, preferred, step) -> {
            if (step >= forkStep && (p < 0 || p > fork)) {
                dropFork[0] = true;
            } else if (!moot(f, p, initials)) {
                if ((n[0] + 1) * stride > buf[0].length) buf[0] = java.util.Arrays.copyOf(buf[0], buf[0].length * 2);
                int o = n[0]++ * stride;
                buf[0][o] = p;
                buf[0][o + 1] = step;
                buf[0][o + 2] = preferred;
                System.arraycopy(initials, 0, buf[0], o + 3, stride - 3);
            }
        });
        return new LeafRaces(buf[0], n[0], stride, dropFork[0], la.overflow);
    }

    /**
     * Whether {@link #request} would do nothing for this race whatever was filed before: the run
     * that owns decision {@code p} took one of {@code initials} there, or one of them was asleep.
     * Reads only the runs' decision points, which no filing changes.
     */
    private static boolean moot(Frame f, long p, long[] initials) {
        if (p < 0) return false;
        Frame g = f;
        while (g.dpor.parent != null && p <= g.after) g = g.dpor.parent;
        Point dp = g.dpor.points.get(p);
        return dp != null && (WarpBits.get(initials, dp.chosen) || WarpBits.intersects(initials, dp.asleep));
    }

    /** The sleep-set point a fork starts from: its decision's (warp forks) or the one its alternative carries. */
    private static SleepSet.Point sleepPoint(Frame f, Point dp, long[] a) {
        int i = a.length > 3 ? (int) a[3] : -1;
        if (a[1] == SchedulePolicy.WARP && a.length > 3 && dp != null) i = dp.sleepPoint;
        return i >= 0 ? f.points.get(i) : null;
    }

    /** Puts the first steps of the warp forks before fork {@code j} of {@code w} to sleep at {@code p} (in order). */
    private void addSiblingSteps(Frame f, Work w, int j, SleepSet.Point p) {
        for (; w.stepsAdded < j; w.stepsAdded++) {
            Fork o = w.forks.get(w.stepsAdded);
            if (o.a[1] != SchedulePolicy.WARP || o.a.length <= 3) continue;
            if (!o.stepKnown) {
                o.step = ex.runners().get(0).forkStep(f.plan.with(o.a[0], (char) o.a[1], o.a[2]), ex.forkCheckpoint(f, o.a[0]), o.a[0],
                        ex.maxSteps());
                o.stepKnown = true;
            }
            if (o.step != null) p.siblings.add(o.step);
        }
    }

    private static long lastPoint(Frame f) {
        long last = -1;
        if (!f.dpor.points.isEmpty()) last = f.dpor.points.lastKey();
        if (!f.dpor.work.isEmpty()) last = Math.max(last, f.dpor.work.lastKey());
        return last;
    }

    /** A race from a run at or below {@code f} asks for one of {@code initials} at warp decision {@code p}. */
    private void request(Frame f, long p, long[] initials, int preferred, long step) {
        races++;
        Frame g = f;
        if (p < 0) {
            // No decision before the first step (one warp could run, or a copy landed in a local step): all of its run.
            while (g.dpor.parent != null && step < g.dpor.forkStepNo) g = g.dpor.parent;
            drop(g, Long.MAX_VALUE);
            return;
        }
        while (g.dpor.parent != null && p <= g.after) g = g.dpor.parent;
        State s = g.dpor;
        Point dp = s.points.get(p);
        if (dp == null) {
            drop(g, p);
            return;
        }
        Work w = s.work.get(p);
        // Already covered: the run's own choice, a sleeping warp, a fork made, or a symmetric warp skipped (offered, not a candidate, not asleep).
        if (WarpBits.get(initials, dp.chosen) || WarpBits.intersects(initials, dp.asleep) || (w != null && WarpBits.intersects(initials, w.warps))) return;
        long[] cand = dp.candMask();
        for (int q = WarpBits.next(initials, 0); q >= 0; q = WarpBits.next(initials, q + 1)) {
            if (WarpBits.get(dp.offered, q) && !WarpBits.get(cand, q)) return;
        }
        int q = WarpBits.get(initials, preferred) && WarpBits.get(cand, preferred) ? preferred : -1;
        for (int r = WarpBits.next(initials, 0); q < 0 && r >= 0; r = WarpBits.next(initials, r + 1)) if (WarpBits.get(cand, r)) q = r;
        if (q < 0) {
            addAll(s, dp); // none of them can run there: every alternative
            return;
        }
        add(s, dp, q);
    }

    private void add(State s, Point dp, int q) {
        Work w = work(s, dp.idx);
        if (WarpBits.get(w.warps, q)) return;
        WarpBits.set(w.warps, q);
        w.forks.add(new Fork(new long[] {dp.idx, SchedulePolicy.WARP, q, dp.sleepPoint}));
    }

    private void addAll(State s, Point dp) {
        for (long q : dp.cand) add(s, dp, (int) q);
    }

    /** A race below decision {@code upTo} of {@code g} could not be followed: its decisions up to there, and its ancestors' on the path, take all alternatives. */
    private void drop(Frame g, long upTo) {
        dropped++;
        for (Frame h = g; h != null; h = h.dpor.parent) {
            h.dpor.fullUpTo = Math.max(h.dpor.fullUpTo, upTo);
            upTo = h.after;
        }
    }
}
