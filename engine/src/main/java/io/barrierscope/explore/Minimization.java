package io.barrierscope.explore;

import java.util.List;

/**
 * What minimising a finding's schedule gave: the smallest schedule found that still ends in the
 * same cause ({@code minimal}), its size (non-default decisions) and preemptions next to the
 * schedule the search found, and the decisive decisions, each in words. {@code complete}: the
 * delta debugging finished, so dropping any one decision of {@code minimal} loses the cause (each
 * is decisive); false when its time or replay budget cut it (then {@code minimal} is only smaller).
 * {@code failingStep}: the warp step at which the minimal schedule's replay fails with the cause,
 * numbered as {@link Finding#step} (a diagnostic's step, else the run's last step); -1 when that
 * replay was cut by a limit.
 */
public record Minimization(Schedule minimal, int foundSize, int minimalSize, int foundPreemptions, int minimalPreemptions,
                           List<Decision> decisive, boolean complete, int replays,
                           long failingStep) {
    /** One non-default decision of the minimal schedule: its index, the warp step it precedes, its kind and what it did. */
    public record Decision(long index, long step, char kind, String text) {}
}
