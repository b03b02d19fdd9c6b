package io.barrierscope.app.source;

import java.util.function.IntConsumer;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.beans.value.WeakChangeListener;
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
 * (the PTX pane's warp badge, the CUDA pane's dot), laid out by hand in one region. RichTextFX
 * makes a line's gutter anew each time the line comes into view or its paragraph style changes
 * (the current line moving), and every node of it is styled by CSS for the first time then
 * (docs/performance.md, "Window responsiveness"). So a gutter is two nodes, this region and the
 * number's {@code Text} (not a {@code Label}: a control, with a skin and a text node of its own),
 * and the dot and the slot's node exist only on lines that show them. A click anywhere on it sets
 * or removes the line's breakpoint.
 */
final class Gutter extends Region {
    private static final PseudoClass OFF = PseudoClass.getPseudoClass("off");
    /** The breakpoint dot's column: the dot (radius 5, stroke 1.5) with a little room each side. */
    static final double MARK_WIDTH = 14;
    private static final double NUMBER_PAD = 5;

    private final double slotWidth;
    private final Text number;
    private Circle mark; // only while the line has a breakpoint
    private Node slot; // only while the line shows something there
    private final java.util.List<ChangeListener<?>> listeners = new java.util.ArrayList<>(2);

    /**
     * @param line      the 1-based line
     * @param digits    the width of the pane's largest line number, so every gutter is as wide
     * @param slotWidth the width of the slot at the right, kept whether or not it shows something
     */
    Gutter(int line, int digits, double slotWidth, IntConsumer toggle) {
        this.slotWidth = slotWidth;
        number = new Text(String.format("%" + Math.max(1, digits) + "d", line));
        number.getStyleClass().add("lineno-number");
        number.setTextOrigin(VPos.TOP);
        getChildren().add(number);
        getStyleClass().addAll("lineno", "breakpoint-gutter");
        setUserData(line);
        setCursor(Cursor.HAND);
        // The tooltip is made when the pointer first comes over the gutter, not with it: a Tooltip
        // (a popup control) is dear to make, and a far jump makes every visible line's gutter anew.
        addEventHandler(MouseEvent.MOUSE_ENTERED, new javafx.event.EventHandler<>() {
            @Override
            public void handle(MouseEvent e) {
                removeEventHandler(MouseEvent.MOUSE_ENTERED, this);
                Tooltip.install(Gutter.this, new Tooltip("Click to set or remove a breakpoint on line " + line));
            }
        });
        setOnMouseClicked(e -> {
            if (e.getButton() != MouseButton.PRIMARY) return;
            e.consume(); // a gutter click is not a click on the line's text
            toggle.accept(line);
        });
    }

    /** Shows the line's breakpoint: none, a filled dot (enabled) or a hollow one (all disabled). */
    void setMarker(SourceViewModel.Marker m) {
        if (m == SourceViewModel.Marker.NONE) {
            if (mark != null) getChildren().remove(mark);
            mark = null;
            return;
        }
        if (mark == null) {
            mark = new Circle(5);
            mark.getStyleClass().add("breakpoint-marker");
            getChildren().add(mark);
        }
        mark.pseudoClassStateChanged(OFF, m == SourceViewModel.Marker.DISABLED);
    }

    /** What the slot at the right shows (centred in it), or null for nothing. */
    void setSlot(Node n) {
        if (n == slot) return;
        if (slot != null) getChildren().remove(slot);
        slot = n;
        if (n != null) getChildren().add(n);
    }

    Node slot() { return slot; }

    /**
     * Runs {@code update} whenever {@code value} changes, for as long as this gutter lives: the
     * value (the view model's) is observed weakly, so gutters RichTextFX drops are collected.
     */
    <T> void follow(ObservableValue<T> value, Runnable update) {
        ChangeListener<T> l = (o, a, b) -> update.run();
        listeners.add(l); // held here: the weak listener alone would let it go at once
        value.addListener(new WeakChangeListener<>(l));
    }

    private double numberWidth() { return number.getLayoutBounds().getWidth() + 2 * NUMBER_PAD; }

    @Override
    protected double computePrefWidth(double height) {
        return snappedLeftInset() + MARK_WIDTH + numberWidth() + slotWidth + snappedRightInset();
    }

    @Override
    protected double computePrefHeight(double width) {
        double h = number.getLayoutBounds().getHeight();
        if (slot != null) h = Math.max(h, slot.prefHeight(-1));
        return snappedTopInset() + h + snappedBottomInset();
    }

    @Override
    protected double computeMinWidth(double height) { return computePrefWidth(height); }

    @Override
    protected void layoutChildren() {
        double x = snappedLeftInset();
        double y = snappedTopInset();
        double h = getHeight() - y - snappedBottomInset();
        if (mark != null) layoutInArea(mark, x, y, MARK_WIDTH, h, 0, HPos.CENTER, VPos.CENTER);
        x += MARK_WIDTH;
        layoutInArea(number, x + NUMBER_PAD, y, numberWidth() - 2 * NUMBER_PAD, h, 0, HPos.LEFT, VPos.CENTER);
        x += numberWidth();
        if (slot != null) layoutInArea(slot, x, y, slotWidth, h, 0, HPos.CENTER, VPos.CENTER);
    }
}
