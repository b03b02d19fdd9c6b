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
            double[] s = sourcesAt;
            double[] m = mainAt;
            // At once, not after the next layout: that pulse's CSS pass, which comes before its
            // layout, gives the panes their normal minimum sizes back first, and sizes given after
            // the layout laid the whole window out again in one more frame (docs/performance.md,
            // "The presentation toggle's extra frames").
            if (s != null) sources.setDividerPositions(s);
            if (m != null) main.setDividerPositions(m);
        }
    }

    /**
     * Runs {@code r} once, after the next layout pass of {@code node}'s scene (at once without a
     * scene): a split pane re-spreads its dividers when its items or their minimum sizes change,
     * so sizes given back before that pass would be lost.
     */
    static void afterLayout(javafx.scene.Node node, Runnable r) {
        javafx.scene.Scene scene = node.getScene();
        if (scene == null) {
            r.run();
            return;
        }
        Runnable[] once = new Runnable[1];
        once[0] = () -> {
            scene.removePostLayoutPulseListener(once[0]);
            r.run();
        };
        scene.addPostLayoutPulseListener(once[0]);
        javafx.application.Platform.requestNextPulse();
    }
}
