package io.barrierscope.app.source;

import java.util.function.IntConsumer;
import javafx.css.PseudoClass;
import javafx.geometry.HPos;
import javafx.geometry.VPos;
import javafx.scene.Cursor;
import javafx.scene.Node;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Region;
import javafx.scene.shape.Circle;
import javafx.scene.text.Text;

/**
 * One line's gutter in a source pane: the breakpoint dot, the line number and a slot at the right
 * (the PTX pane's warp badge, the CUDA pane's dot), laid out by hand in one region. A gutter
 * belongs to a reused line cell ({@link CodeList}): a new line sets its number and what it shows,
 * and the dot and the slot's node, once made, are hidden rather than removed, so moving the
 * panes makes and styles no node (docs/performance.md, "Reused source-pane lines"). The number is
 * a {@code Text}, not a {@code Label} (a control, with a skin and a text node of its own). A click
 * anywhere on it sets or removes the line's breakpoint.
 */
final class Gutter extends Region {
    private static final PseudoClass OFF = PseudoClass.getPseudoClass("off");
    /** The breakpoint dot's column: the dot (radius 5, stroke 1.5) with a little room each side. */
    static final double MARK_WIDTH = 14;
    private static final double NUMBER_PAD = 5;

    private final double slotWidth;
    private final Text number = new Text();
    private Circle mark; // made with the first breakpoint shown, then hidden while there is none
    private Node slot; // made when the slot first shows something, then hidden while it shows nothing
    private int line;
    private Tooltip tip; // made when the pointer first comes over the gutter

    /**
     * @param slotWidth the width of the slot at the right, kept whether or not it shows something
     * @param toggle    called with the line on a click
     */
    Gutter(double slotWidth, IntConsumer toggle) {
        this.slotWidth = slotWidth;
        number.getStyleClass().add("lineno-number");
        number.setTextOrigin(VPos.TOP);
        getChildren().add(number);
        getStyleClass().addAll("lineno", "breakpoint-gutter");
        setCursor(Cursor.HAND);
        // The tooltip is made when the pointer first comes over the gutter, not with it: a Tooltip
        // (a popup control) is dear to make.
        addEventHandler(MouseEvent.MOUSE_ENTERED, e -> {
            if (tip != null) return;
            tip = new Tooltip(tipText());
            Tooltip.install(Gutter.this, tip);
        });
        setOnMouseClicked(e -> {
            if (e.getButton() != MouseButton.PRIMARY) return;
            e.consume(); // a gutter click is not a click on the line's text
            if (line > 0) toggle.accept(line);
        });
    }

    /**
     * Shows a 1-based line's number, as wide as the pane's largest ({@code digits}), so every
     * gutter is as wide.
     */
    void setLine(int line, int digits) {
        if (line == this.line && number.getText().length() == Math.max(1, digits)) return;
        this.line = line;
        number.setText(String.format("%" + Math.max(1, digits) + "d", line));
        setUserData(line);
        if (tip != null) tip.setText(tipText());
    }

    private String tipText() { return "Click to set or remove a breakpoint on line " + line; }

    /** Shows the line's breakpoint: none, a filled dot (enabled) or a hollow one (all disabled). */
    void setMarker(SourceViewModel.Marker m) {
        if (m == SourceViewModel.Marker.NONE) {
            if (mark != null) mark.setVisible(false);
            return;
        }
        if (mark == null) {
            mark = new Circle(5);
            mark.getStyleClass().add("breakpoint-marker");
            getChildren().add(mark);
        }
        mark.setVisible(true);
        mark.pseudoClassStateChanged(OFF, m == SourceViewModel.Marker.DISABLED);
    }

    /** What the slot at the right shows (centred in it), or null for nothing (the node it had is hidden). */
    void setSlot(Node n) {
        if (n == null) {
            if (slot != null) slot.setVisible(false);
            return;
        }
        if (n != slot) {
            if (slot != null) getChildren().remove(slot);
            slot = n;
            getChildren().add(n);
        }
        n.setVisible(true);
    }

    /** The slot's node, shown or hidden, to be reused; null if none was made. */
    Node slot() { return slot; }

    private double numberWidth() { return number.getLayoutBounds().getWidth() + 2 * NUMBER_PAD; }

    @Override
    protected double computePrefWidth(double height) {
        return snappedLeftInset() + MARK_WIDTH + numberWidth() + slotWidth + snappedRightInset();
    }

    @Override
    protected double computePrefHeight(double width) {
        double h = number.getLayoutBounds().getHeight();
        if (slot != null && slot.isVisible()) h = Math.max(h, slot.prefHeight(-1));
        return snappedTopInset() + h + snappedBottomInset();
    }

    @Override
    protected double computeMinWidth(double height) { return computePrefWidth(height); }

    @Override
    protected void layoutChildren() {
        double x = snappedLeftInset();
        double y = snappedTopInset();
        double h = getHeight() - y - snappedBottomInset();
        if (mark != null && mark.isVisible()) layoutInArea(mark, x, y, MARK_WIDTH, h, 0, HPos.CENTER, VPos.CENTER);
        x += MARK_WIDTH;
        layoutInArea(number, x + NUMBER_PAD, y, numberWidth() - 2 * NUMBER_PAD, h, 0, HPos.LEFT, VPos.CENTER);
        x += numberWidth();
        if (slot != null && slot.isVisible()) layoutInArea(slot, x, y, slotWidth, h, 0, HPos.CENTER, VPos.CENTER);
    }
}
