package io.barrierscope.app.timeline;

/**
 * Reusable buffers for one row's (or the completions') level-of-detail answer: per pixel column,
 * the states present, the markers and the completions. Allocated once per view width so drawing a
 * frame allocates nothing.
 *
 * <p>Column {@code c} covers the fractional step interval {@code [bounds[c], bounds[c+1])} (the
 * model fills the bounds for either axis). Its state set holds the states of every step
 * overlapping that interval (at least the step it starts in); its markers are those at steps s
 * with {@code bounds[c] <= s + 0.5 < bounds[c+1]}, so each marker lands in exactly one column.
 */
public final class TimelineColumns {
    public final int width;
    /** Column boundaries in fractional steps, {@code width + 1} of them, non-decreasing. */
    public final double[] bounds;
    /** Per column: the OR of {@code 1 << WarpState.ordinal()} of the states present; 0 where nothing is known. */
    public final int[] states;
    /** Per marker kind and column: how many markers. */
    public final int[][] markers;
    /** Per column: completions, and the lowest and highest lane they released (valid when the count is non-zero). */
    public final int[] completions;
    public final int[] completionLo;
    public final int[] completionHi;

    public TimelineColumns(int width) {
        this.width = width;
        bounds = new double[width + 1];
        states = new int[width];
        markers = new int[MarkerKind.COUNT][width];
        completions = new int[width];
        completionLo = new int[width];
        completionHi = new int[width];
    }

    /** Clears the per-row results (not the bounds). */
    void clearRow() {
        java.util.Arrays.fill(states, 0);
        for (int[] m : markers) java.util.Arrays.fill(m, 0);
    }
}
