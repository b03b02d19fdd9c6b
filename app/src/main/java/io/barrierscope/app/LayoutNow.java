package io.barrierscope.app;

import javafx.scene.control.Control;

/**
 * Lays a list, table or tree out within the event that changed its items, before the next
 * pulse's CSS pass, rather than in that pulse's layout pass (docs/performance.md, "A step's second
 * frame" and "A step's whole-window frame"): the virtual flow styles each cell it gives an item,
 * and a style change during layout leaves the branch above the cell marked for CSS, so JavaFX runs
 * another pulse that changes no node and yet repaints the whole window. Done here, the pulse's own
 * CSS pass clears that branch, and the pulse's layout finds the control clean.
 */
public final class LayoutNow {
    private LayoutNow() {}

    /** Lays {@code c} out now if it is shown with a skin and a size; before that, its first layout stays the pulse's. */
    public static void ifShown(Control c) {
        if (c.getScene() != null && c.getSkin() != null && c.getWidth() > 0 && c.getHeight() > 0) c.layout();
    }
}
