package io.barrierscope.explore;

import io.barrierscope.trace.Checkpoint;
import java.util.ArrayList;
import java.util.List;

/** Alternatives of one run, and the checkpoints to fork them from (the explorer's search tree). */
final class Frame {
    final Schedule plan;
    /** Alternatives are enumerated only after this decision (the plan's last entry), so no schedule twice. */
    final long after;
    final List<Long> cpAt = new ArrayList<>();
    final List<Checkpoint> cps = new ArrayList<>();
    final List<long[]> alternatives = new ArrayList<>();
    /**
     * Alternatives the symmetric-warp reduction dropped: counted, and listed only when
     * {@code listSkipped} (a second run of a frame that ended in a race, which puts them back).
     * Not kept otherwise: on a launch of hundreds of warps nearly every alternative is one.
     */
    final List<long[]> skipped = new ArrayList<>();
    long skippedCount;
    boolean listSkipped;
    /** Alternatives the policy offered, before the symmetric-warp reduction. */
    long offered;
    /** The sleep set this run starts with at its fork (partial-order reduction). */
    SleepSet.Sleeper[] sleep = SleepSet.NONE;
    /** The decisions with alternatives kept, by the alternatives' fourth entry. */
    final List<SleepSet.Point> points = new ArrayList<>();
    /** This run's own first step, when its fork is a warp decision and the step may sleep; else null. */
    SleepSet.Sleeper forkStep;

    /** Bounded sleep sets: this run's own steps while it runs, then the dependences {@link RaceFirst#reversible} finds in them (null: none). */
    TraceLog raceLog;
    long[][] raceReversible;

    /** The source-set reduction's state of this run (null when it is off). */
    SourceSetSearch.State dpor;

    Frame(Schedule plan, long after) {
        this.plan = plan;
        this.after = after;
    }

    /**
     * Drops every other checkpoint this run took itself (from index {@code inherited} on; the
     * first of them kept): half as many, twice as far apart, so a long run keeps a bounded number.
     */
    void thinCheckpoints(int inherited) {
        int kept = inherited;
        for (int k = inherited; k < cps.size(); k += 2) {
            cps.set(kept, cps.get(k));
            cpAt.set(kept, cpAt.get(k));
            kept++;
        }
        cps.subList(kept, cps.size()).clear();
        cpAt.subList(kept, cpAt.size()).clear();
    }

    /** Once its run ended: what {@link RaceFirst#reversible} finds in its race log, which is dropped. */
    void endRaceLog(int warps) {
        if (raceLog == null) return;
        raceReversible = RaceFirst.reversible(raceLog, warps);
        raceLog = null;
    }

    /**
     * A raced run keeps the symmetric alternatives {@code listed} by a second run of it: they join
     * its alternatives, in decision order (stable: kept ones first). Returns how many.
     */
    int keepSkipped(List<long[]> listed) {
        skipped.addAll(listed);
        int n = skipped.size();
        alternatives.addAll(skipped);
        skipped.clear();
        alternatives.sort(java.util.Comparator.comparingLong(a -> a[0]));
        return n;
    }

    /**
     * Bounded sleep sets: a run cut where a sleeping warp stepped lists no alternatives after that
     * step; those listed while its warp ran on (before the cut was known) are dropped.
     */
    void dropAlternativesFrom(long decision) {
        if (decision >= 0) alternatives.removeIf(a -> a[0] >= decision);
    }
}
