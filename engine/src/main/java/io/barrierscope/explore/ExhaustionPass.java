package io.barrierscope.explore;

import static io.barrierscope.explore.ExploreTuning.EXHAUST_MAX_BOUND;
import static io.barrierscope.explore.ExploreTuning.EXHAUST_SHARE;

/**
 * Tries to prove "all interleavings, up to equivalence" on a small kernel within the default search
 * (docs/explore.md, "Exhausting small kernels"). The bounded sleep sets exhaust a search only when
 * every leaf of a bound was pruned or cut at its own fork, which small kernels with exchanging warps
 * rarely give; source sets exhaust them in a few schedules, and with no bound they are sound. So,
 * after bound 1 of the bounded search, this runs an unbounded source-set search (bounds 1, 2, ...,
 * as {@code --source-sets} would, with its own explored states) under {@link ExploreTuning#EXHAUST_SHARE}
 * of the budgets. Exhausted: the search ends there, every cause of every interleaving found.
 * Otherwise the bounded search goes on from bound 2 exactly as without it (its explored states, the
 * counts its claim reads and its share of the budgets are put back), and only the findings stay:
 * real schedules, filed once per cause as any other. Deterministic: it starts at a fixed point and
 * stops on a schedule count, and the source-set search gives the same with any number of jobs.
 */
final class ExhaustionPass {
    private ExhaustionPass() {}

    /** Runs the pass in {@code ex}'s search on a launch of {@code warps} warps; whether it exhausted the search. */
    static boolean run(Explorer ex, int warps) {
        if (!SourceSets.fits(warps)) return false; // the race analysis' memory: the bounded search alone
        java.util.Set<Long> visited = ex.visited;
        // What the claim reads, put back when the pass does not exhaust.
        long[] claim = {ex.skippedBySymmetry, ex.skippedByPartialOrder, ex.cutLeaves, ex.cutHiding, ex.blockedInner};
        long schedules0 = ex.schedules();
        long millis0 = ex.elapsed();
        double share = ex.share; // 1.0 in measurements (Explorer.systematicOnly): the pass may take the whole budget too
        ex.visited = java.util.concurrent.ConcurrentHashMap.newKeySet();
        mode(ex, false);
        ex.share = share >= 1.0 ? 1.0 : EXHAUST_SHARE;
        ex.shareFromSchedules = schedules0;
        ex.shareFromMillis = millis0;
        Deepening deep = new Deepening(ex, new SourceSetSearch(ex, warps, false), false);
        for (int bound = 1; bound <= EXHAUST_MAX_BOUND && deep.bound(bound); bound++) {}
        mode(ex, true);
        if (deep.exhausted) return true; // the counts stay those of the search that proved the claim
        ex.visited = visited;
        ex.skippedBySymmetry = claim[0];
        ex.skippedByPartialOrder = claim[1];
        ex.cutLeaves = claim[2];
        ex.cutHiding = claim[3];
        ex.blockedInner = claim[4];
        ex.share = share;
        ex.shareFromSchedules = ex.schedules() - schedules0;
        ex.shareFromMillis = ex.elapsed() - millis0;
        return false;
    }

    /** The bounded sleep sets (on) or source sets over unbounded sleep sets (off), in the explorer and every runner. */
    private static void mode(Explorer ex, boolean bounded) {
        ex.reductions.bounded = bounded;
        for (ScheduleRunner r : ex.runners()) r.boundedSleep = ex.boundedSleep();
    }
}
