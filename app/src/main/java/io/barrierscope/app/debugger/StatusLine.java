package io.barrierscope.app.debugger;

import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableStringValue;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Separator;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Region;
import org.controlsfx.control.StatusBar;

/**
 * The ControlsFX status bar: the outcome (coloured by kind) and the last action on the left,
 * the position in the recording and the cycle count, the followed warp, the run's policy and seed
 * and the diagnostics count on the right, and the progress of a run (a busy indicator while its end is unknown).
 */
final class StatusLine {
    private StatusLine() {}

    static Node of(DebuggerViewModel vm) {
        StatusBar bar = new StatusBar();
        bar.setId("statusBar");
        bar.textProperty().bind(vm.messageProperty());
        // While a file loads: a busy indicator and Cancel (the session shown stays usable meanwhile).
        bar.progressProperty().bind(Bindings.when(vm.openingProperty()).then(-1.0).otherwise(vm.progressProperty()));
        javafx.scene.control.Button cancel = new javafx.scene.control.Button("Cancel");
        cancel.setId("cancelOpen");
        cancel.setTooltip(new Tooltip("Stop opening the file; the session shown stays as it is"));
        cancel.setOnAction(e -> vm.cancelOpen());
        cancel.visibleProperty().bind(vm.openingProperty());
        cancel.managedProperty().bind(cancel.visibleProperty());
        // As tall as the bar's row, no taller: a bar that grew while a file loads moved every pane by
        // a pixel, so the first and the last frame of each open repainted the whole window
        // (docs/performance.md, "Opening and Continue, bounded").
        cancel.setMinHeight(0);
        cancel.setPrefHeight(0);
        cancel.setMaxHeight(Double.MAX_VALUE);

        Label outcome = label("outcomeLabel", vm.outcomeProperty());
        outcome.getStyleClass().add("outcome");
        // The outcome's name doubles as a style class (completed, deadlock, ...) for its colour.
        Consumer<String> restyle = s -> {
            outcome.getStyleClass().removeIf(c -> !c.equals("label") && !c.equals("outcome"));
            outcome.getStyleClass().add(s.replace(' ', '-'));
        };
        vm.outcomeProperty().addListener((o, a, s) -> restyle.accept(s));
        restyle.accept(vm.outcomeProperty().get());
        outcome.setTooltip(new Tooltip("How the run stands: ready, paused, running, pausing (Pause asked, the run stops at its next check), completed, deadlock, diagnosed, step-limit"));
        bar.getLeftItems().addAll(outcome, cancel);

        Label steps = label("stepsLabel", vm.stepsProperty());
        steps.setTooltip(new Tooltip("The position (warp steps executed) of the furthest step recorded so far: \"(end)\" once "
                + "the recording reached the run's end, \"(frontier)\" while more may follow; then virtual time in cycles"));
        Label position = label("positionLabel", vm.positionProperty());
        position.setTooltip(new Tooltip("The followed warp (the one that moved last), its state and PTX line"));
        position.getStyleClass().add("status-position");
        Label policy = label("policyLabel", vm.runPolicyProperty());
        policy.setTooltip(new Tooltip("How the open run schedules its warps: round-robin takes turns (no seed); random and "
                + "adversarial draw from the seed, so the same seed gives the same run. Re-run (Ctrl+Shift+R) with another "
                + "policy or seed from the toolbar"));
        Label diagnostics = label("diagnosticsLabel", vm.diagnosticsProperty());
        bar.getRightItems().addAll(steps, new Separator(javafx.geometry.Orientation.VERTICAL), position,
                new Separator(javafx.geometry.Orientation.VERTICAL), policy,
                new Separator(javafx.geometry.Orientation.VERTICAL), diagnostics);
        bar.getStyleClass().add("status-line");
        // ControlsFX gives the bar its own stylesheet, which outranks the window's: the dark theme
        // reaches it inline.
        bar.styleProperty().bind(Bindings.when(vm.appearance().darkProperty())
                .then("-fx-background-color: #44474d, #2b2d31; -fx-background-insets: 0, 1 0 0 0;").otherwise(""));
        return bar;
    }

    private static Label label(String id, ObservableStringValue text) {
        Label l = new Label();
        l.setId(id);
        l.textProperty().bind(text);
        l.setMinWidth(Region.USE_PREF_SIZE);
        return l;
    }
}
