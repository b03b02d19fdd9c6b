package io.barrierscope.app.threads;

import io.barrierscope.app.classroom.FixedRows;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * The global-memory tab: a buffer chooser, the buffer as a typed array with the values changed since the
 * previous stop marked, and "Go to the step that wrote it" (button, context menu, or a double click).
 */
final class GlobalMemoryPane {
    private GlobalMemoryPane() {}

    static Node of(GlobalMemoryViewModel vm) {
        ComboBox<String> buffer = new ComboBox<>(vm.names());
        buffer.setId("globalBuffer");
        buffer.valueProperty().bindBidirectional(vm.bufferProperty());
        TableView<GlobalMemoryViewModel.Row> table = FixedRows.table();
        table.setItems(vm.rows());
        table.setId("globalTable");
        table.setPlaceholder(new Label("Open a launch with buffers to see them here."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(InspectorView.column("Index", 60, r -> Long.toString(r.index())));
        table.getColumns().add(InspectorView.column("Address", 120, GlobalMemoryViewModel.Row::address));
        table.getColumns().add(InspectorView.column("Value", 140, GlobalMemoryViewModel.Row::value));
        table.getColumns().add(InspectorView.column("Before", 140, GlobalMemoryViewModel.Row::before));
        Runnable goToWriter = () -> {
            GlobalMemoryViewModel.Row r = table.getSelectionModel().getSelectedItem();
            if (r != null) vm.goToWriter(r.index());
        };
        MenuItem writer = new MenuItem("Go to the step that wrote it");
        writer.setOnAction(e -> goToWriter.run());
        table.setContextMenu(new ContextMenu(writer));
        table.setRowFactory(t -> {
            TableRow<GlobalMemoryViewModel.Row> row = new TableRow<>() {
                @Override
                protected void updateItem(GlobalMemoryViewModel.Row r, boolean empty) {
                    super.updateItem(r, empty);
                    pseudoClassStateChanged(javafx.css.PseudoClass.getPseudoClass("changed"), !empty && r != null && r.changed());
                }
            };
            row.setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && !row.isEmpty()) vm.goToWriter(row.getItem().index());
            });
            return row;
        });
        Button go = new Button("Go to the step that wrote it");
        go.setId("globalGoToWriter");
        go.setTooltip(new Tooltip("Goes back to the last step that wrote the selected element (searches at most 100 000 steps back)"));
        go.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        go.setOnAction(e -> goToWriter.run());
        Label status = new Label();
        status.setId("globalStatus");
        status.getStyleClass().add("pane-note");
        status.textProperty().bind(vm.statusProperty());
        Node top = InspectorView.titled(vm.titleProperty(), "globalTitle", new HBox(8, buffer, go), null);
        return new BorderPane(table, top, null, status, null);
    }
}
