package io.barrierscope.explore;

import java.util.List;

/**
 * One cause of failure found by exploration, reported once however many schedules reach it.
 * {@code cause} is the deduplication key: the diagnostic code and its CUDA lines (its PTX lines
 * when it has no CUDA location: nvcc often copies one source line for several paths), or the
 * deadlock's wait-for signature (the lines where threads wait), or the lines a step-limit run
 * was spinning at. {@code step} is the warp step it fails at under {@code schedule}.
 */
public record Finding(String kind, String code, String cause, String message, long step, Schedule schedule,
                      long foundAtSchedule, List<Integer> ptxLines, String outcome) {
    public static final String DIAGNOSTIC = "diagnostic";
    public static final String DEADLOCK = "deadlock";
    public static final String STEP_LIMIT = "step-limit";
}
