package io.barrierscope.explore;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The minimiser's tie-break once a schedule's size is minimal: among schedules with no more
 * decisions that end in the same cause, prefer fewer preemptions (a switch away from a warp that
 * could go on, as {@link SchedulePolicy} counts them). ddmin only drops decisions and moves them
 * earlier, so it can end at a preemption where a free choice would do: in {@code try-wait-once}
 * preempting the producer before its arrive ({@code s1:9w0,32t1}) where letting the producer run
 * first to the {@code __syncthreads} ({@code s1:0w1,14t1}) lets the consumer reach its wait first.
 *
 * <p>For each preempting decision in turn, it is replaced by a choice at a <em>free</em> point of
 * the run without it (a warp decision where the running warp blocked, exited or used up its fair
 * streak, or the first one: no preemption), nearest first, each runnable warp other than the
 * default (the preempting decision's warp first). The decisions after it no longer fall on the
 * same decision indices, so each is re-anchored by what it decided on: the same kind of decision,
 * with the same warp running at the same instruction, for the same time (else the first such one
 * after the decision before it), found by replaying the candidate up to there. A candidate is kept
 * when it ends in the same cause with no more decisions and fewer preemptions. Bounded: at most
 * {@link #MAX_POINTS} free points per decision and {@link #MAX_REPLAYS} replays per pass, within
 * the minimiser's budget; deterministic (no clock unless the budget has one).
 */
final class FewerPreemptions {
    /** Free points tried per preempting decision, nearest to it first. */
    static final int MAX_POINTS = 16;
    /** Replays one pass may use (on top of the minimiser's cap, which still holds). */
    static final int MAX_REPLAYS = 256;

    private final Interpreter x;
    private final SchedulePolicy policy;
    private final Minimizer mz;

    FewerPreemptions(Interpreter x, SchedulePolicy policy, Minimizer mz) {
        this.x = x;
        this.policy = policy;
        this.mz = mz;
    }

    /** What a decision decided on: its kind, the warp running (-1 before the first) and that warp's instruction. */
    private record Sig(char kind, int warp, int pc) {}

    /** One decision of an observed run; {@code occurrence}: decisions with the same {@link Sig} before it. */
    private record Point(long index, Sig sig, int occurrence, boolean free, boolean preemption, long def, int[] runnable) {}

    /** An observed replay: its decisions, its preemptions, whether it ended in the cause, and what it took. */
    private record Observed(List<Point> points, int preemptions, boolean met, Schedule taken) {}

    /**
     * A schedule with at most {@code c}'s decisions and fewer preemptions that ends in {@code cause},
     * or null (none found, or the budget ran out).
     */
    Schedule find(Schedule c, String cause, int maxReplays, BooleanSupplier over) {
        if (c.size() == 0 || mz.spent(maxReplays, over)) return null;
        int limit = Math.min(maxReplays, mz.replays() + MAX_REPLAYS);
        Observed base = observe(c, cause);
        if (base == null || !base.met() || base.preemptions() == 0) return null;
        for (int j = 0; j < c.size(); j++) {
            Point at = at(base, c.index(j));
            if (at == null || !at.preemption()) continue;
            Schedule prefix = c.before(c.index(j));
            if (spent(limit, maxReplays, over)) return null;
            Observed pre = observe(prefix, cause);
            if (pre == null) return null;
            if (better(pre, c, base)) return pre.taken();
            long lower = j > 0 ? c.index(j - 1) : -1;
            long target = c.index(j);
            List<Point> free = new ArrayList<>();
            for (Point p : pre.points()) if (p.free() && p.index() > lower && p.runnable().length > 1) free.add(p);
            free.sort(Comparator.comparingLong((Point p) -> Math.abs(p.index() - target)).thenComparingLong(Point::index));
            for (Point f : free.subList(0, Math.min(MAX_POINTS, free.size()))) {
                for (int v : values(f, (int) c.value(j))) {
                    Schedule cand = prefix.with(f.index(), SchedulePolicy.WARP, v);
                    boolean placed = true;
                    for (int i = j + 1; i < c.size() && placed; i++) {
                        if (spent(limit, maxReplays, over)) return null;
                        Observed r = observe(cand, cause);
                        if (r == null) return null;
                        if (better(r, c, base)) return r.taken();
                        Point same = anchor(r, at(base, c.index(i)), cand.index(cand.size() - 1));
                        if (same == null) placed = false;
                        else cand = cand.with(same.index(), c.kind(i), c.value(i));
                    }
                    if (!placed) continue;
                    if (spent(limit, maxReplays, over)) return null;
                    Observed r = observe(cand, cause);
                    if (r == null) return null;
                    if (better(r, c, base)) return r.taken();
                }
            }
        }
        return null;
    }

    private boolean spent(int limit, int maxReplays, BooleanSupplier over) {
        return mz.replays() >= limit || mz.spent(maxReplays, over);
    }

    /** Kept: same cause, no more decisions, fewer preemptions. */
    private static boolean better(Observed r, Schedule c, Observed base) {
        return r.met() && r.taken().size() <= c.size() && r.preemptions() < base.preemptions();
    }

    /** The decision at {@code index} of an observed run, or null. */
    private static Point at(Observed r, long index) {
        int lo = 0;
        int hi = r.points().size() - 1;
        while (lo <= hi) { // points come in decision order
            int mid = (lo + hi) >>> 1;
            long i = r.points().get(mid).index();
            if (i == index) return r.points().get(mid);
            if (i < index) lo = mid + 1;
            else hi = mid - 1;
        }
        return null;
    }

    /**
     * Where {@code original}'s decision falls in {@code r}: the decision after {@code after} with the
     * same signature for the same time, else the first with that signature after {@code after}; null if none.
     */
    private static Point anchor(Observed r, Point original, long after) {
        if (original == null) return null;
        Point first = null;
        for (Point p : r.points()) {
            if (p.index() <= after || !p.sig().equals(original.sig())) continue;
            if (p.occurrence() == original.occurrence()) return p;
            if (first == null) first = p;
        }
        return first;
    }

    /** The warps to choose at free point {@code f}: {@code preferred} first, then the others in order; never the default. */
    private static List<Integer> values(Point f, int preferred) {
        List<Integer> out = new ArrayList<>();
        for (int w : f.runnable()) if (w == preferred && w != f.def()) out.add(w);
        for (int w : f.runnable()) if (w != preferred && w != f.def()) out.add(w);
        return out;
    }

    /** Replays {@code s} leniently, recording each decision; null when a limit cut the replay. */
    private Observed observe(Schedule s, String cause) {
        List<Point> points = new ArrayList<>();
        Map<Sig, Integer> seen = new HashMap<>(); // looked up only: its order never matters
        int[] preemptions = {0};
        Machine m = x.machine();
        boolean whole = mz.replayLeniently(s, (idx, kind, def, chosen, preemption) -> {
            if (preemption) preemptions[0]++;
            int w = policy.currentWarp();
            Sig sig = new Sig(kind, w, Minimizer.lanePc(m, w, -1));
            int occurrence = seen.merge(sig, 1, Integer::sum) - 1;
            boolean free = kind == SchedulePolicy.WARP && !policy.preemptible();
            points.add(new Point(idx, sig, occurrence, free, preemption, def, free ? runnable(m) : null));
        });
        if (!whole) return null;
        return new Observed(points, preemptions[0], mz.met(cause), policy.taken());
    }

    private static int[] runnable(Machine m) {
        int n = 0;
        for (int w = 0; w < m.warps; w++) if (m.runMask[w] != 0) n++;
        int[] out = new int[n];
        n = 0;
        for (int w = 0; w < m.warps; w++) if (m.runMask[w] != 0) out[n++] = w;
        return out;
    }
}
