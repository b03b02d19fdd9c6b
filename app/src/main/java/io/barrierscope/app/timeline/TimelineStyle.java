package io.barrierscope.app.timeline;

import io.barrierscope.trace.WarpState;

/**
 * The timeline's colours as hex strings and the severity order of states, with no JavaFX, so
 * exporters (SVG) share them with the canvas ({@link TimelinePalette} builds its colours from these).
 */
final class TimelineStyle {
    private TimelineStyle() {}

    /** States from least to most severe. */
    static final WarpState[] SEVERITY = {
        WarpState.EXITED, WarpState.RUNNING, WarpState.SLEEPING, WarpState.WARP_SYNC, WarpState.ASYNC,
        WarpState.MBARRIER, WarpState.CTA_BARRIER, WarpState.CLUSTER_BARRIER, WarpState.PARKED,
        WarpState.BLOCKED, WarpState.TRAPPED,
    };

    /** Per state bit set (see {@link TimelineColumns#states}): the ordinal of the most severe state in it, -1 for none. */
    static final byte[] SEVEREST = new byte[1 << WarpState.values().length];

    static {
        for (int mask = 0; mask < SEVEREST.length; mask++) {
            SEVEREST[mask] = -1;
            for (WarpState s : SEVERITY) if ((mask & (1 << s.ordinal())) != 0) SEVEREST[mask] = (byte) s.ordinal();
        }
    }

    static final String[] STATE = new String[WarpState.values().length];

    static {
        STATE[WarpState.RUNNING.ordinal()] = "#43a047";
        STATE[WarpState.CLUSTER_BARRIER.ordinal()] = "#d81b60";
        STATE[WarpState.CTA_BARRIER.ordinal()] = "#fb8c00";
        STATE[WarpState.MBARRIER.ordinal()] = "#5e35b1";
        STATE[WarpState.PARKED.ordinal()] = "#e53935";
        STATE[WarpState.ASYNC.ordinal()] = "#00acc1";
        STATE[WarpState.SLEEPING.ordinal()] = "#90a4ae";
        STATE[WarpState.WARP_SYNC.ordinal()] = "#fdd835";
        STATE[WarpState.BLOCKED.ordinal()] = "#616161";
        STATE[WarpState.EXITED.ordinal()] = "#e0e0e0";
        STATE[WarpState.TRAPPED.ordinal()] = "#212121";
    }

    static final String[] MARKER = new String[MarkerKind.COUNT];

    static {
        MARKER[MarkerKind.BAR_ARRIVE.ordinal()] = "#3e2723";
        MARKER[MarkerKind.MBAR_ARRIVE.ordinal()] = "#1a237e";
        MARKER[MarkerKind.CLUSTER_ARRIVE.ordinal()] = "#880e4f";
        MARKER[MarkerKind.EXPECT_TX.ordinal()] = "#0d47a1";
        MARKER[MarkerKind.COMPLETE_TX.ordinal()] = "#006064";
        MARKER[MarkerKind.WAIT_FALSE.ordinal()] = "#b71c1c";
        MARKER[MarkerKind.DIAGNOSTIC.ordinal()] = "#ff1744";
        MARKER[MarkerKind.DEVIATION.ordinal()] = "#ff9100";
    }

    static final String BACKGROUND = "#fafafa";
    static final String LABEL_BACKGROUND = "#eceff1";
    static final String GROUP_LABEL = "#37474f";
    static final String TEXT = "#263238";
    static final String GRID = "#cfd8dc";
    static final String COMPLETION = "#212121";
    static final String CURSOR = "#d50000";
    static final String SCRUBBER = "#b0bec5";
    static final String SCRUBBER_RANGE = "#546e7a";
    static final String SELECTION = "#2962ff";
    static final String HIGHLIGHT = "#ffd54f";
    /** The label of the selected warp's lane (its lane is framed in SELECTION). */
    static final String SELECTED_LANE = "#90caf9";

    /** Markers or completions in more than 1/DENSE of the columns are drawn thin, so the states stay readable. */
    private static final int DENSE = 4;

    /** Whether the non-zero entries of the first {@code width} columns are too many to draw at full size. */
    static boolean dense(int[] columns, int width) {
        int used = 0;
        for (int c = 0; c < width; c++) if (columns[c] != 0) used++;
        return used * DENSE > width;
    }

    /** Per marker kind, where it sits in a row of height {@code rowH}: {top offset, height, minimum width}. */
    static int[][] markerBoxes(int rowH) {
        int[][] out = new int[MarkerKind.COUNT][];
        for (int k = 0; k < MarkerKind.COUNT; k++) out[k] = markerBox(MarkerKind.of(k), rowH);
        return out;
    }

    private static int[] markerBox(MarkerKind kind, int rowH) {
        return switch (kind) {
            case BAR_ARRIVE, MBAR_ARRIVE, CLUSTER_ARRIVE -> new int[] {1, 6, 1};
            case EXPECT_TX, COMPLETE_TX -> new int[] {rowH - 7, 6, 1};
            case WAIT_FALSE -> new int[] {5, rowH - 10, 2};
            // a flag hanging from the top of the row, wider than arrivals, shorter than a diagnostic
            case DEVIATION -> new int[] {0, Math.max(4, rowH / 2), 4};
            default -> new int[] {0, rowH, 3};
        };
    }
}
