package io.barrierscope.app.source;

import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.ObjectBinding;
import javafx.beans.value.ObservableValue;
import javafx.css.PseudoClass;
import javafx.scene.Cursor;
import javafx.scene.Node;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.shape.Circle;

/**
 * The breakpoint part of a source gutter: a red dot on lines with an enabled breakpoint, a
 * hollow one where all are disabled; a click anywhere in the gutter sets or removes it.
 */
final class BreakpointMarker {
    private static final PseudoClass OFF = PseudoClass.getPseudoClass("off");

    /** Around the dot in its gutter: 14 px wide with it, as the lines' other marks expect. */
    static final javafx.geometry.Insets MARGIN = new javafx.geometry.Insets(0, 1.25, 0, 1.25);

    private BreakpointMarker() {}

    /**
     * @param marker  the marker of a line, re-read whenever {@code changes} changes
     * @param gutter  the whole gutter node of the line, which takes the clicks
     */
    static Node of(int line, IntFunction<SourceViewModel.Marker> marker, ObservableValue<?> changes,
                   Node gutter, IntConsumer toggle) {
        Circle dot = new Circle(5);
        dot.getStyleClass().add("breakpoint-marker");
        // The binding observes the VM weakly, so recycled gutter nodes are collected.
        ObjectBinding<SourceViewModel.Marker> m = Bindings.createObjectBinding(() -> marker.apply(line), changes);
        dot.visibleProperty().bind(m.isNotEqualTo(SourceViewModel.Marker.NONE));
        dot.pseudoClassStateChanged(OFF, m.get() == SourceViewModel.Marker.DISABLED);
        m.addListener((o, a, b) -> dot.pseudoClassStateChanged(OFF, b == SourceViewModel.Marker.DISABLED));
        gutter.getStyleClass().add("breakpoint-gutter");
        gutter.setUserData(line);
        gutter.setCursor(Cursor.HAND);
        // The tooltip is made when the pointer first comes over the gutter, not with it: a far jump
        // makes every visible line's gutter anew, and a Tooltip (a popup control) is dear to make.
        gutter.addEventHandler(MouseEvent.MOUSE_ENTERED, new javafx.event.EventHandler<>() {
            @Override
            public void handle(MouseEvent e) {
                gutter.removeEventHandler(MouseEvent.MOUSE_ENTERED, this);
                Tooltip.install(gutter, new Tooltip("Click to set or remove a breakpoint on line " + line));
            }
        });
        gutter.setOnMouseClicked(e -> {
            if (e.getButton() != MouseButton.PRIMARY) return;
            e.consume(); // a gutter click is not a click on the line's text
            toggle.accept(line);
        });
        return dot;
    }
}
