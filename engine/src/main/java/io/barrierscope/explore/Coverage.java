package io.barrierscope.explore;

/**
 * What an exploration covered: schedules run (systematic and random), distinct outcomes (outcome
 * plus cause, or final buffers for completed runs), decision alternatives the policy offered in
 * the default schedule (before any reduction, so the same with and without it), schedules pruned
 * because they reached an already explored state, the deepest deviation bound finished (non-default
 * decisions of any kind, not preemptions alone), why it
 * stopped, and the alternatives skipped as symmetric warps: each is one fork (with its subtree in
 * the deeper bounds) not made, summed over every run whose alternatives were enumerated.
 * {@code allSchedules}: the systematic search ran out of schedules (no alternative at all, or a
 * bound whose every schedule reached an explored state), so no deeper bound holds anything new.
 * {@code skippedByPartialOrder}: forks not made by the partial-order reduction (their warp was
 * asleep, or no race asked for them) and leaves cut as reorderings of an explored schedule.
 * {@code boundedPartialOrder}: that reduction used a rule sound within the deviation bound (the
 * command line's default: bounded sleep sets, {@link SleepSet#bounded}; or {@link BoundedPartialOrder}),
 * so a completed bound covers every interleaving within it up to equivalence.
 */
public record Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                       long prunedByState, int deviationBoundCompleted, String stoppedBy, long warpSteps,
                       long skippedBySymmetry, boolean allSchedules, long skippedByPartialOrder, boolean boundedPartialOrder) {
    public static final String EXHAUSTED = "exhausted";
    public static final String SCHEDULE_BUDGET = "schedule-budget";
    public static final String TIME_LIMIT = "time-limit";
    /** {@link Explorer#cancel} was called (the window's Cancel). */
    public static final String CANCELLED = "cancelled";

    /**
     * What a search that found nothing shows, in words: every schedule with up to K non-default
     * decisions was run or reached an explored state (pruning by state is exact up to 64-bit hash
     * collisions), up to symmetric warps when that reduction skipped any (a heuristic, see
     * docs/explore.md); "all schedules" when a bound had nothing new to add (or there was no
     * alternative at all). The choices are those the engine models. With the partial-order
     * reduction's count above zero, an exhausted search holds "all interleavings, up to
     * equivalence": a schedule not run reorders independent steps of one that was (docs/explore.md
     * says what that assumes); a bounded one "every interleaving with at most K deviations, up to
     * equivalence" only under the rule sound within the bound ({@link #boundedPartialOrder}), else
     * only what the reduced search forked, since with source or sleep sets the equivalent of a
     * skipped schedule may need more non-default decisions than the bound. Empty when not even bound
     * 1 was completed.
     */
    public String proven(boolean symmetry) {
        if (deviationBoundCompleted < 1 && !allSchedules) return "";
        String upTo = symmetry && skippedBySymmetry > 0 ? ", up to symmetric warps (a heuristic; --no-symmetry searches them all)" : "";
        String what = " (warp order at visible instructions, convergence groups, copy latencies 1/default/late, try_wait early returns)";
        String por = skippedByPartialOrder > 0 ? ", or only reorders independent steps of one that was (all interleavings, up to "
                + "equivalence: partial-order reduction, see docs/explore.md; --no-por runs every order)" : "";
        if (allSchedules) return "all schedules" + what + ": each was run or reached an already explored state" + por + upTo;
        if (skippedByPartialOrder > 0 && boundedPartialOrder) {
            // Each skipped schedule has an equivalent within the bound that was run (docs/explore.md, "Sleep sets within the bound").
            return "every interleaving with at most " + deviationBoundCompleted + (deviationBoundCompleted == 1 ? " deviation" : " deviations") + ", up to equivalence" + what
                    + ": each schedule with up to " + deviationBoundCompleted + " non-default decisions was run, reached an"
                    + " already explored state, or only reorders independent steps of one that was (bounded partial-order"
                    + " reduction, see docs/explore.md)" + upTo;
        }
        if (skippedByPartialOrder > 0) {
            // The equivalent run of a skipped schedule may need more non-default decisions than it (docs/explore.md, "Within a bound").
            return "bound " + deviationBoundCompleted + " of the partial-order-reduced search" + what
                    + ": every schedule with up to " + deviationBoundCompleted + " non-default decisions that it forked was run or"
                    + " reached an already explored state; a schedule it skipped is covered only if an equivalent one within the bound"
                    + " was run, which a bound does not guarantee (see docs/explore.md; --no-por covers every schedule with up to "
                    + deviationBoundCompleted + ")" + upTo;
        }
        return "every schedule with up to " + deviationBoundCompleted + " non-default decisions" + what
                + " was run or reached an already explored state" + upTo;
    }

    /** Source sets, sleep sets or none (not the rule sound within the bound). */
    public Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                    long prunedByState, int deviationBoundCompleted, String stoppedBy, long warpSteps, long skippedBySymmetry,
                    boolean allSchedules, long skippedByPartialOrder) {
        this(schedules, systematic, random, distinctOutcomes, decisionPoints, prunedByState, deviationBoundCompleted, stoppedBy,
                warpSteps, skippedBySymmetry, allSchedules, skippedByPartialOrder, false);
    }

    /** Without the partial-order count (nothing pruned by it). */
    public Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                    long prunedByState, int deviationBoundCompleted, String stoppedBy, long warpSteps, long skippedBySymmetry,
                    boolean allSchedules) {
        this(schedules, systematic, random, distinctOutcomes, decisionPoints, prunedByState, deviationBoundCompleted, stoppedBy,
                warpSteps, skippedBySymmetry, allSchedules, 0);
    }

    /** Not known to have exhausted every schedule. */
    public Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                    long prunedByState, int deviationBoundCompleted, String stoppedBy, long warpSteps, long skippedBySymmetry) {
        this(schedules, systematic, random, distinctOutcomes, decisionPoints, prunedByState, deviationBoundCompleted, stoppedBy,
                warpSteps, skippedBySymmetry, false);
    }

    /** Without the symmetric-warp count (nothing skipped). */
    public Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                    long prunedByState, int deviationBoundCompleted, String stoppedBy, long warpSteps) {
        this(schedules, systematic, random, distinctOutcomes, decisionPoints, prunedByState, deviationBoundCompleted, stoppedBy,
                warpSteps, 0);
    }

    /** The old name of {@link #deviationBoundCompleted} (it never counted preemptions alone); kept for callers of it. */
    @Deprecated
    /**
     * What the completed deviation bound is complete up to, as the console and the window say it
     * (" up to symmetric warps and up to equivalence", or empty): a bound of the source-set search
     * covers only what it forked (docs/explore.md, "Within a bound").
     */
    public String boundCompleteUpTo() {
        return (skippedBySymmetry > 0 ? " up to symmetric warps" : "")
                + (skippedByPartialOrder > 0 ? (skippedBySymmetry > 0 ? " and" : "")
                        + (allSchedules() || boundedPartialOrder ? " up to equivalence" : " in the partial-order-reduced search") : "");
    }

    public int preemptionBoundCompleted() { return deviationBoundCompleted; }

    /**
     * "deviation bound K (non-default decisions) complete" and what it is complete up to, as the console
     * and the window say it; when the search stopped before its default schedule ended (a time limit
     * or Cancel during it: {@code deviationBoundCompleted} is -1), that no bound is complete.
     */
    public String boundText() { return boundText(true); }

    /** {@link #boundText()}, saying what a deviation is ("(non-default decisions)") only when {@code explained}. */
    public String boundText(boolean explained) {
        if (deviationBoundCompleted < 0) return "no deviation bound complete (stopped before the default schedule ended)";
        return "deviation bound " + deviationBoundCompleted + (explained ? " (non-default decisions)" : "") + " complete"
                + boundCompleteUpTo();
    }
}
