package io.barrierscope.app.debugger;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;

/**
 * A pane with its "as of step N — running" marker on top: a translucent veil that dims it and a
 * badge in its top right corner, shown while the pane keeps an older moment than the status line
 * ({@link FrozenPanesViewModel}). The veil lets clicks and scrolling through to the pane. Only
 * its visibility changes (no style class or pseudo-class), so showing it restyles nothing.
 */
final class FrozenMarker {
    private FrozenMarker() {}

    /** {@code pane} under the marker whose text is {@code marker} ("" hides it); {@code id} names the veil. */
    static StackPane over(Node pane, ReadOnlyStringProperty marker, String id) {
        Label badge = new Label();
        badge.getStyleClass().add("frozen-badge");
        badge.textProperty().bind(marker);
        badge.setMinWidth(0);
        StackPane veil = new StackPane(badge);
        veil.setId(id);
        veil.getStyleClass().add("frozen-veil");
        StackPane.setAlignment(badge, Pos.TOP_RIGHT);
        veil.setMouseTransparent(true);
        veil.setMinSize(0, 0);
        veil.visibleProperty().bind(marker.isNotEmpty());
        return new StackPane(pane, veil);
    }
}
