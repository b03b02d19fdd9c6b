package io.barrierscope.explore;

import java.util.List;

/**
 * One cause of failure found by exploration, reported once however many schedules reach it.
 * {@code cause} is the deduplication key: the diagnostic code and its CUDA lines (its PTX lines
 * when it has no CUDA location: nvcc often copies one source line for several paths), or the
 * deadlock's wait-for signature (the lines where threads wait), or the lines a step-limit run
 * was spinning at. {@code step} is the warp step it fails at under {@code schedule}, the schedule
 * the search found; {@code minimized} is its minimisation (null when minimisation was off).
 */
public record Finding(String kind, String code, String cause, String message, long step, Schedule schedule,
                      long foundAtSchedule, List<Integer> ptxLines, String outcome, Minimization minimized) {
    public static final String DIAGNOSTIC = "diagnostic";
    public static final String DEADLOCK = "deadlock";
    public static final String STEP_LIMIT = "step-limit";

    /** Not minimised. */
    public Finding(String kind, String code, String cause, String message, long step, Schedule schedule,
                   long foundAtSchedule, List<Integer> ptxLines, String outcome) {
        this(kind, code, cause, message, step, schedule, foundAtSchedule, ptxLines, outcome, null);
    }

    /** The schedule to replay: the minimal one when there is one, else the one found. */
    public Schedule replaySchedule() { return minimized != null ? minimized.minimal() : schedule; }

    /**
     * The step the replayed schedule fails at: the minimal schedule's failing step when it was
     * minimised (and that replay finished), else {@link #step}.
     */
    public long minimalStep() { return minimized != null && minimized.failingStep() >= 0 ? minimized.failingStep() : step; }

    Finding withMinimization(Minimization m) {
        return new Finding(kind, code, cause, message, step, schedule, foundAtSchedule, ptxLines, outcome, m);
    }
}
