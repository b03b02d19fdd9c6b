package io.barrierscope.app.diagnostics;

import io.barrierscope.app.classroom.FixedRows;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;

/**
 * The diagnostics table; double-click or Enter on a row jumps the source panes to it and the
 * run to the step where it fired. Rows that fire after the current position are greyed.
 */
public final class DiagnosticsView {
    private static final javafx.css.PseudoClass LATER = javafx.css.PseudoClass.getPseudoClass("later");
    private final TableView<DiagnosticsViewModel.Row> table = FixedRows.table(); // one line a row

    public DiagnosticsView(DiagnosticsViewModel vm) {
        table.setId("diagnosticTable");
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No diagnostics: nothing undefined or suspicious has happened so far."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<DiagnosticsViewModel.Row, String> code = column("Code", 150, DiagnosticsViewModel.Row::code);
        code.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                DiagnosticsViewModel.Row r = empty || getTableRow() == null ? null : getTableRow().getItem();
                setTooltip(r == null ? null : new Tooltip(r.summary() + (r.later() ? "\n(fires later than the current step)" : "")));
            }
        });
        table.getColumns().add(code);
        table.getColumns().add(column("Severity", 64, DiagnosticsViewModel.Row::severity));
        table.getColumns().add(column("Step", 56, DiagnosticsViewModel.Row::step));
        table.getColumns().add(column("Where", 120, DiagnosticsViewModel.Row::locations));
        TableColumn<DiagnosticsViewModel.Row, String> message = column("Message", 400, DiagnosticsViewModel.Row::message);
        message.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                setTooltip(empty || s == null ? null : wrapped(s));
            }
        });
        table.getColumns().add(message);
        table.setRowFactory(t -> {
            TableRow<DiagnosticsViewModel.Row> row = new TableRow<>() {
                @Override
                protected void updateItem(DiagnosticsViewModel.Row r, boolean empty) {
                    super.updateItem(r, empty);
                    pseudoClassStateChanged(LATER, !empty && r != null && r.later());
                }
            };
            row.setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && !row.isEmpty()) vm.activate(row.getItem());
            });
            return row;
        });
        table.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) vm.activate(table.getSelectionModel().getSelectedItem());
        });
    }

    public Node root() { return table; }

    private static Tooltip wrapped(String s) {
        Tooltip t = new Tooltip(s);
        t.setWrapText(true);
        t.setMaxWidth(600);
        return t;
    }

    private static <T> TableColumn<DiagnosticsViewModel.Row, T> column(String name, double width,
                                                                     Function<DiagnosticsViewModel.Row, T> f) {
        TableColumn<DiagnosticsViewModel.Row, T> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false); // in the order they fired
        c.setCellValueFactory(p -> new ReadOnlyObjectWrapper<>(f.apply(p.getValue())));
        return c;
    }
}
