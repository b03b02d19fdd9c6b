package io.barrierscope.explore;

/**
 * What an exploration covered: schedules run (systematic and random), distinct outcomes (outcome
 * plus cause, or final buffers for completed runs), decision alternatives the policy offered in
 * the default schedule (before any reduction, so the same with and without it), schedules pruned
 * because they reached an already explored state, the deepest preemption bound finished, why it
 * stopped, and the alternatives skipped as symmetric warps: each is one fork (with its subtree in
 * the deeper bounds) not made, summed over every run whose alternatives were enumerated.
 */
public record Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                       long prunedByState, int preemptionBoundCompleted, String stoppedBy, long warpSteps,
                       long skippedBySymmetry) {
    public static final String EXHAUSTED = "exhausted";
    public static final String SCHEDULE_BUDGET = "schedule-budget";
    public static final String TIME_LIMIT = "time-limit";
    /** {@link Explorer#cancel} was called (the window's Cancel). */
    public static final String CANCELLED = "cancelled";

    /** Without the symmetric-warp count (nothing skipped). */
    public Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                    long prunedByState, int preemptionBoundCompleted, String stoppedBy, long warpSteps) {
        this(schedules, systematic, random, distinctOutcomes, decisionPoints, prunedByState, preemptionBoundCompleted, stoppedBy,
                warpSteps, 0);
    }
}
