package io.barrierscope.explore;

/**
 * The systematic phase's iterative deepening over the deviation bound (docs/explore.md, "explore"):
 * for each bound, the default run again, then its subtree down to that depth ({@link SourceSetSearch}
 * or {@link SleepSetSearch}); until a bound adds nothing new (exhausted), a budget share is spent or
 * a limit cuts a run. One search may deepen twice: the bounded search and, between its bounds, the
 * unbounded one of {@link ExhaustionPass}.
 */
final class Deepening {
    private final Explorer ex;
    /** The source-set search, or null (the sleep-set search walks the tree). */
    private final SourceSetSearch dpor;
    /** Whether bound 1 counts the default run (not when an earlier pass of the same search counted it). */
    private final boolean countDefault;
    /** The deepest bound completed (0: none yet). */
    int boundDone;
    /** A bound had nothing new (or the default run offered no alternative): deeper bounds hold nothing either. */
    boolean exhausted;

    Deepening(Explorer ex, SourceSetSearch dpor, boolean countDefault) {
        this.ex = ex;
        this.dpor = dpor;
        this.countDefault = countDefault;
    }

    /** Searches bound {@code bound} (after bound - 1); false when the search stops here: exhausted, a budget spent, a limit. */
    boolean bound(int bound) {
        Frame base = new Frame(Schedule.EMPTY, -1);
        if (dpor != null) base.dpor = new SourceSetSearch.State(null);
        ex.execute(Schedule.EMPTY, null, -1, base);
        if (ex.aborted()) return false;
        ex.keepSymmetricIfRaced(base);
        if (ex.aborted()) return false;
        if (bound == 1) {
            if (countDefault) ex.countDefault(base);
            if (dpor != null) dpor.filed.add(Schedule.EMPTY.toString());
        }
        if (base.alternatives.isEmpty() && (dpor == null || base.dpor.points.values().stream().allMatch(p -> p.cand.length == 0))) {
            exhausted = true;
            return false;
        }
        long before = ex.schedules();
        long cutBefore = ex.cutHiding;
        if (!(dpor != null ? dpor.expand(base, 1, bound) : new SleepSetSearch(ex).expand(base, 1, bound))) return false;
        boundDone = bound;
        // Nothing new at this depth: deeper ones hold nothing either. A leaf cut as a reordering does not
        // say so: its own forks (one decision deeper) were not made and may reach new classes; unless the
        // bounded sleep sets cut it at its fork's own step, which covers every schedule through the fork.
        if (ex.schedules() == before && ex.cutHiding == cutBefore) {
            exhausted = true;
            return false;
        }
        return true;
    }
}
