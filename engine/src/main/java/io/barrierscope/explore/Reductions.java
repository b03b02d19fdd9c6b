package io.barrierscope.explore;

/**
 * Which partial-order reduction an {@link Explorer}'s search uses (docs/explore.md): none, source
 * sets over sleep sets, sleep sets alone, or a rule sound within the deviation bound (bounded sleep
 * sets, their forks race-first or in decision order, or {@link BoundedPartialOrder}); and whether
 * the {@link ExhaustionPass} runs. Set before a search; the pass switches {@link #bounded} off for
 * its own search and back.
 */
final class Reductions {
    boolean partialOrder = true;
    /** With {@link #partialOrder}: source sets on top of the sleep sets. */
    boolean sourceSets = true;
    /** A rule sound within the bound instead of source and sleep sets (off during ExhaustionPass). */
    boolean bounded;
    /** That rule: bounded sleep sets ({@link SleepSet#bounded}), else {@link BoundedPartialOrder}. */
    boolean boundedSleepSets = true;
    boolean raceFirst = true;
    boolean exhaustionPass;

    /** Whether the runs keep sleep sets (bounded or not). */
    boolean sleepSets() { return partialOrder && (!bounded || boundedSleepSets); }

    /** Whether the sleep sets are those sound within the deviation bound ({@link SleepSet#bounded}). */
    boolean boundedSleep() { return partialOrder && bounded && boundedSleepSets; }

    /** Whether the bounded sleep sets make the race-reversing forks of a run first ({@link RaceFirst}). */
    boolean raceFirstOrder() { return boundedSleep() && raceFirst; }

    /** Whether the rule sound within the bound is in force (what the coverage reports). */
    boolean boundedRule() { return partialOrder && bounded; }

    /**
     * The source-set search {@code ex} runs on a launch of {@code warps} warps, or null: the bounded
     * sleep sets, no reduction, sleep sets alone, or more warps than the race analysis handles.
     */
    SourceSetSearch sourceSetSearch(Explorer ex, int warps) {
        if (!partialOrder || bounded && boundedSleepSets) return null;
        if (bounded) return new SourceSetSearch(ex, warps, true);
        return sourceSets && SourceSets.fits(warps) ? new SourceSetSearch(ex, warps, false) : null;
    }
}
