package io.barrierscope.app.timeline;

import io.barrierscope.trace.WarpState;
import javafx.scene.paint.Color;

/**
 * The timeline's colours and which state a pixel column shows when several share it: the most
 * severe, so a short wait stays visible however far out one zooms (a run that is mostly running
 * but stops at a barrier every few steps reads as waiting, which is the point of the view).
 */
final class TimelinePalette {
    private TimelinePalette() {}

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

    static final Color[] STATE = new Color[WarpState.values().length];

    static {
        STATE[WarpState.RUNNING.ordinal()] = Color.web("#43a047");
        STATE[WarpState.CLUSTER_BARRIER.ordinal()] = Color.web("#d81b60");
        STATE[WarpState.CTA_BARRIER.ordinal()] = Color.web("#fb8c00");
        STATE[WarpState.MBARRIER.ordinal()] = Color.web("#5e35b1");
        STATE[WarpState.PARKED.ordinal()] = Color.web("#e53935");
        STATE[WarpState.ASYNC.ordinal()] = Color.web("#00acc1");
        STATE[WarpState.SLEEPING.ordinal()] = Color.web("#90a4ae");
        STATE[WarpState.WARP_SYNC.ordinal()] = Color.web("#fdd835");
        STATE[WarpState.BLOCKED.ordinal()] = Color.web("#616161");
        STATE[WarpState.EXITED.ordinal()] = Color.web("#e0e0e0");
        STATE[WarpState.TRAPPED.ordinal()] = Color.web("#212121");
    }

    static final Color[] MARKER = new Color[MarkerKind.COUNT];

    static {
        MARKER[MarkerKind.BAR_ARRIVE.ordinal()] = Color.web("#3e2723");
        MARKER[MarkerKind.MBAR_ARRIVE.ordinal()] = Color.web("#1a237e");
        MARKER[MarkerKind.CLUSTER_ARRIVE.ordinal()] = Color.web("#880e4f");
        MARKER[MarkerKind.EXPECT_TX.ordinal()] = Color.web("#0d47a1");
        MARKER[MarkerKind.COMPLETE_TX.ordinal()] = Color.web("#006064");
        MARKER[MarkerKind.WAIT_FALSE.ordinal()] = Color.web("#b71c1c");
        MARKER[MarkerKind.DIAGNOSTIC.ordinal()] = Color.web("#ff1744");
    }

    static final Color BACKGROUND = Color.web("#fafafa");
    static final Color LABEL_BACKGROUND = Color.web("#eceff1");
    static final Color GROUP_LABEL = Color.web("#37474f");
    static final Color TEXT = Color.web("#263238");
    static final Color GRID = Color.web("#cfd8dc");
    static final Color COMPLETION = Color.web("#212121");
    static final Color CURSOR = Color.web("#d50000");
    static final Color SCRUBBER = Color.web("#b0bec5");
    static final Color SCRUBBER_RANGE = Color.web("#546e7a");
    static final Color SELECTION = Color.web("#2962ff");
    /** Behind the label of a highlighted lane (a waiter of the selected barrier). */
    static final Color HIGHLIGHT = Color.web("#ffd54f");
}
