package io.barrierscope.app.debugger;

import java.util.ArrayList;
import java.util.List;
import javafx.animation.AnimationTimer;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;

/**
 * A pane with its "as of step N — running" marker on top: a translucent veil that dims it and a
 * badge in its top right corner, shown while the pane keeps an older moment than the status line
 * ({@link FrozenPanesViewModel}). The veil lets clicks and scrolling through to the pane. Only
 * its visibility changes (no style class or pseudo-class), so showing it restyles nothing.
 *
 * <p>Showing a veil repaints everything under it, and the software renderer took 50-70 ms of CPU
 * for the frame that showed all of them at once, the first frame of every Continue, while the FX
 * thread waited for it (docs/performance.md, "Opening and Continue, bounded"). So the veils of
 * one window come in one per frame ({@link Veils}), the first at once; all that are still to come
 * show at once as soon as the position shown in the status line moves, so a pane never passes
 * off an older moment as the present. Hiding is at once.
 */
final class FrozenMarker {
    private FrozenMarker() {}

    /** The veils of one window: shows the ones asked for one per pulse, in the order they were made. */
    static final class Veils {
        private final List<StackPane> all = new ArrayList<>();
        private final List<Boolean> wanted = new ArrayList<>();
        private final AnimationTimer timer = new AnimationTimer() {
            @Override public void handle(long now) {
                if (pending()) showNext();
                else stop();
            }
        };
        private boolean ticking;

        /** @param position the position the status line shows: when it moves, every veil asked for shows at once */
        Veils(ObservableValue<?> position) {
            position.addListener((o, a, b) -> showAll());
        }

        /** {@code pane} under the marker whose text is {@code marker} ("" hides it); {@code id} names the veil. */
        StackPane over(Node pane, ReadOnlyStringProperty marker, String id) {
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
            int i = all.size();
            all.add(veil);
            wanted.add(false);
            veil.setVisible(false);
            marker.addListener((o, a, text) -> want(i, !text.isEmpty()));
            want(i, !marker.get().isEmpty());
            return new StackPane(pane, veil);
        }

        private void want(int i, boolean on) {
            wanted.set(i, on);
            StackPane veil = all.get(i);
            if (!on) {
                veil.setVisible(false);
            } else if (!veil.isVisible() && !ticking) {
                // The first one in this event's frame, the others one per pulse after it.
                ticking = true;
                showNext();
                timer.start();
            }
        }

        /** Shows the next veil asked for and not shown; those out of the window (a hidden tab) cost no frame and go along. */
        private void showNext() {
            boolean painted = false;
            for (int i = 0; i < all.size(); i++) {
                StackPane veil = all.get(i);
                if (!wanted.get(i) || veil.isVisible()) continue;
                if (painted && veil.getScene() != null) continue;
                veil.setVisible(true);
                painted |= veil.getScene() != null;
            }
        }

        private void showAll() {
            for (int i = 0; i < all.size(); i++) if (wanted.get(i)) all.get(i).setVisible(true);
            stop();
        }

        private boolean pending() {
            for (int i = 0; i < all.size(); i++) if (wanted.get(i) && !all.get(i).isVisible()) return true;
            return false;
        }

        private void stop() {
            if (!ticking) return;
            ticking = false;
            timer.stop();
        }
    }
}
