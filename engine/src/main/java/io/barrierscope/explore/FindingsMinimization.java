package io.barrierscope.explore;

import static io.barrierscope.explore.ExploreTuning.MAX_MINIMIZE_REPLAYS;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Minimising a search's findings after it (docs/explore.md, "Minimal counterexamples"): each in
 * turn with its {@link Minimizer}, within an equal share of the time left of the minimising time
 * (and {@link ExploreTuning#MAX_MINIMIZE_REPLAYS} replays); a cancel stops it, leaving the rest
 * unminimised. The explorer's schedule deadline is set to each finding's share, so a replay stops
 * mid-run as a schedule of the search would.
 */
final class FindingsMinimization {
    private final Minimizer mz;
    private final LongSupplier clock;
    private final BooleanSupplier cancelled;
    private final Explorer.Progress progress;
    private final LongConsumer deadline;

    FindingsMinimization(Minimizer mz, LongSupplier clock, BooleanSupplier cancelled, Explorer.Progress progress, LongConsumer deadline) {
        this.mz = mz;
        this.clock = clock;
        this.cancelled = cancelled;
        this.progress = progress;
        this.deadline = deadline;
    }

    /** Replaces each finding of {@code fs} by itself with its minimisation, within {@code minimizeMillis} (0: replays only). */
    void minimizeAll(List<Finding> fs, long minimizeMillis) {
        long begin = clock.getAsLong();
        for (int i = 0; i < fs.size() && !cancelled.getAsBoolean(); i++) {
            long end;
            if (minimizeMillis == 0) {
                end = Long.MAX_VALUE;
            } else {
                long left = begin + minimizeMillis - clock.getAsLong();
                if (left <= 0) break;
                end = clock.getAsLong() + left / (fs.size() - i);
            }
            deadline.accept(end);
            Finding f = fs.get(i);
            int index = i;
            mz.onProgress(progress == null ? null : (r, b) -> progress.minimizing(index, fs.size(), r, b));
            Minimization mn = mz.minimize(f.schedule(), f.cause(), MAX_MINIMIZE_REPLAYS, () -> cancelled.getAsBoolean() || clock.getAsLong() >= end);
            fs.set(i, f.withMinimization(mn));
        }
    }
}
