package io.barrierscope.explore;

/**
 * What an exploration covered: schedules run (systematic and random), distinct outcomes (outcome
 * plus cause, or final buffers for completed runs), decision points seen in the runs whose
 * alternatives were enumerated, schedules pruned because they reached an already explored state,
 * the deepest preemption bound finished, and why it stopped.
 */
public record Coverage(long schedules, long systematic, long random, long distinctOutcomes, long decisionPoints,
                       long prunedByState, int preemptionBoundCompleted, String stoppedBy, long warpSteps) {
    public static final String EXHAUSTED = "exhausted";
    public static final String SCHEDULE_BUDGET = "schedule-budget";
    public static final String TIME_LIMIT = "time-limit";
    /** {@link Explorer#cancel} was called (the window's Cancel). */
    public static final String CANCELLED = "cancelled";
}
