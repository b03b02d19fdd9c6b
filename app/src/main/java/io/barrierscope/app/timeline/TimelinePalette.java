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
    static final WarpState[] SEVERITY = TimelineStyle.SEVERITY;

    /** Per state bit set (see {@link TimelineColumns#states}): the ordinal of the most severe state in it, -1 for none. */
    static final byte[] SEVEREST = TimelineStyle.SEVEREST;

    static final Color[] STATE = colors(TimelineStyle.STATE);
    static final Color[] MARKER = colors(TimelineStyle.MARKER);

    private static Color[] colors(String[] hex) {
        Color[] out = new Color[hex.length];
        for (int i = 0; i < hex.length; i++) out[i] = hex[i] == null ? null : Color.web(hex[i]);
        return out;
    }

    static final Color BACKGROUND = Color.web(TimelineStyle.BACKGROUND);
    static final Color LABEL_BACKGROUND = Color.web(TimelineStyle.LABEL_BACKGROUND);
    static final Color GROUP_LABEL = Color.web(TimelineStyle.GROUP_LABEL);
    static final Color TEXT = Color.web(TimelineStyle.TEXT);
    static final Color GRID = Color.web(TimelineStyle.GRID);
    static final Color COMPLETION = Color.web(TimelineStyle.COMPLETION);
    static final Color CURSOR = Color.web(TimelineStyle.CURSOR);
    static final Color SCRUBBER = Color.web(TimelineStyle.SCRUBBER);
    static final Color SCRUBBER_RANGE = Color.web(TimelineStyle.SCRUBBER_RANGE);
    static final Color SELECTION = Color.web(TimelineStyle.SELECTION);
    /** Behind the label of a highlighted lane (a waiter of the selected barrier). */
    static final Color HIGHLIGHT = Color.web(TimelineStyle.HIGHLIGHT);
    static final Color SELECTED_LANE = Color.web(TimelineStyle.SELECTED_LANE);
}
