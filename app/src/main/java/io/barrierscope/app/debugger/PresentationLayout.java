package io.barrierscope.app.debugger;

import javafx.geometry.Orientation;
import javafx.scene.control.SplitPane;

/**
 * How presentation mode rearranges the panes so a projector at 1280x800 or 1440x900 shows at
 * least 60 characters of code per source pane: the PTX and CUDA panes stack (each gets the
 * sources' full width instead of half) and the sources take {@link #SOURCES_SHARE} of the
 * window. Leaving it puts back the sizes the user had given the split panes.
 */
final class PresentationLayout {
    /** The sources' share of the width in presentation mode. */
    static final double SOURCES_SHARE = 0.62;

    private final SplitPane main;
    private final SplitPane sources;
    private double[] mainAt;
    private double[] sourcesAt;
    private boolean on;

    PresentationLayout(SplitPane main, SplitPane sources) {
        this.main = main;
        this.sources = sources;
    }

    void apply(boolean present) {
        if (present == on) return;
        on = present;
        if (present) {
            mainAt = main.getDividerPositions();
            sourcesAt = sources.getDividerPositions();
            sources.setOrientation(Orientation.VERTICAL);
            sources.setDividerPositions(0.5);
            main.setDividerPositions(SOURCES_SHARE);
        } else {
            sources.setOrientation(Orientation.HORIZONTAL);
            if (sourcesAt != null) sources.setDividerPositions(sourcesAt);
            if (mainAt != null) main.setDividerPositions(mainAt);
        }
    }
}
