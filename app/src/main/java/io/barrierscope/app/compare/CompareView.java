package io.barrierscope.app.compare;

import io.barrierscope.app.timeline.TimelineView;
import io.barrierscope.app.timeline.TimelineViewModel;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * Two runs left and right (or, toggled, one above the other so their step axes line up): each
 * run's timeline under its name, cursor step and the PTX line it is at there, the differences the engine found (divergence first) in a list, and "Go to
 * divergence". Clicking in either timeline moves both cursors (the view model aligns them).
 * Code-behind only: the state is in the {@link CompareViewModel}.
 */
public final class CompareView {
    private final BorderPane root = new BorderPane();

    public CompareView(CompareViewModel vm) {
        Label status = new Label();
        status.setId("compareStatus");
        status.setWrapText(true);
        status.textProperty().bind(vm.statusProperty());
        Button divergence = new Button("Go to divergence");
        divergence.setId("compareGoToDivergence");
        divergence.disableProperty().bind(vm.divergenceProperty().lessThan(0));
        divergence.setOnAction(e -> vm.goToDivergence());
        divergence.setTooltip(new Tooltip("Both cursors on the first step where the runs part"));
        HBox.setHgrow(status, Priority.ALWAYS);
        status.setMaxWidth(Double.MAX_VALUE);
        ToggleButton stacked = new ToggleButton("Stacked");
        stacked.setId("compareLayout");
        stacked.setTooltip(new Tooltip("One run above the other (their step axes in line), or left and right"));
        stacked.setSelected(vm.layoutProperty().get() == CompareViewModel.Layout.STACKED);
        stacked.selectedProperty().addListener((o, was, on) ->
                vm.layoutProperty().set(on ? CompareViewModel.Layout.STACKED : CompareViewModel.Layout.SIDE_BY_SIDE));
        vm.layoutProperty().addListener((o, was, l) -> stacked.setSelected(l == CompareViewModel.Layout.STACKED));
        HBox top = new HBox(8, status, stacked, divergence);
        top.setAlignment(Pos.CENTER_LEFT);
        top.setPadding(new Insets(4));

        Node a = side("compareA", vm.labelAProperty(), vm.cursorAProperty().asString(), vm.positionAProperty(), vm.timelineAProperty());
        Node b = side("compareB", vm.labelBProperty(), vm.cursorBProperty().asString(), vm.positionBProperty(), vm.timelineBProperty());
        SplitPane runs = new SplitPane(a, b);
        runs.setId("compareRuns");
        runs.orientationProperty().bind(Bindings.when(vm.layoutProperty().isEqualTo(CompareViewModel.Layout.STACKED))
                .then(Orientation.VERTICAL).otherwise(Orientation.HORIZONTAL));
        ListView<String> diffs = new ListView<>(vm.differences());
        diffs.setId("compareDifferences");
        diffs.setPlaceholder(new Label("Comparing ..."));
        SplitPane split = new SplitPane(runs, diffs);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.75);
        root.setTop(top);
        root.setCenter(split);
        root.setId("compareWindow");
    }

    public Node root() { return root; }

    private static Node side(String id, ReadOnlyStringProperty label, javafx.beans.binding.StringExpression cursor,
                             ReadOnlyStringProperty position, ReadOnlyObjectProperty<TimelineViewModel> timeline) {
        Label name = new Label();
        name.setId(id + "Label");
        name.setStyle("-fx-font-weight: bold");
        name.textProperty().bind(label.concat(" · step ").concat(cursor));
        Label at = new Label();
        at.setId(id + "Position");
        at.setStyle("-fx-font-family: monospace");
        at.textProperty().bind(position);
        StackPane slot = new StackPane(new Label("Running ..."));
        slot.setId(id + "Timeline");
        timeline.addListener((o, old, t) -> slot.getChildren().setAll(t == null ? new Label("Running ...") : new TimelineView(t)));
        VBox box = new VBox(2, name, at, slot);
        VBox.setVgrow(slot, Priority.ALWAYS);
        box.setPadding(new Insets(2, 4, 2, 4));
        return box;
    }
}
