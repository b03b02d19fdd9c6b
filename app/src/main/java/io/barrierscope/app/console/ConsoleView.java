package io.barrierscope.app.console;

import io.barrierscope.app.session.ConsoleLine;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The console: a filter box, how many lines are shown, and the printf lines in a virtualized
 * table (step, thread, text). A click or Enter on a line goes to the step that printed it and
 * selects its thread. While the last line is in view, new lines scroll into view, as a terminal
 * does; scrolled up, the view stays where it is.
 */
public final class ConsoleView {
    private final BorderPane root = new BorderPane();
    private final TableView<ConsoleLine> table = new TableView<>();

    public ConsoleView(ConsoleViewModel vm) {
        TextField filter = new TextField();
        filter.setId("consoleFilter");
        filter.setPromptText("Filter: words of the text, a thread such as thread (5, or step 120   (a comma means and)");
        filter.textProperty().bindBidirectional(vm.filterProperty());
        HBox.setHgrow(filter, Priority.ALWAYS);
        HBox bar = new HBox(6, filter);
        bar.getStyleClass().add("pane-toolbar");
        Label summary = new Label();
        summary.setId("consoleSummary");
        summary.getStyleClass().add("pane-note");
        summary.textProperty().bind(vm.summaryProperty());
        summary.setMinWidth(0);

        table.setId("consoleTable");
        table.getStyleClass().add("console-table");
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No printf output before this step."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(column("Step", 64, l -> Long.toString(l.step())));
        table.getColumns().add(column("Thread", 200, ConsoleLine::thread));
        TableColumn<ConsoleLine, String> text = column("Output", 400, l -> oneLine(l.text()));
        text.setCellFactory(c -> new TableCell<>() {
            private final Tooltip tip = new Tooltip();

            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                ConsoleLine l = empty || getTableRow() == null ? null : getTableRow().getItem();
                if (l == null) {
                    setTooltip(null);
                    return;
                }
                tip.setText(l.text().stripTrailing() + "\n" + l.thread() + " · step " + l.step()
                        + (l.ptxLine() > 0 ? " · PTX line " + l.ptxLine() : "") + "\nClick to go there.");
                setTooltip(tip);
            }
        });
        table.getColumns().add(text);
        table.setRowFactory(t -> {
            TableRow<ConsoleLine> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && !row.isEmpty()) vm.activate(row.getItem());
            });
            return row;
        });
        table.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) vm.activate(table.getSelectionModel().getSelectedItem());
        });
        // Terminal-like: lines printed while the end is in view bring the view along.
        vm.rows().addListener((ListChangeListener<ConsoleLine>) c -> {
            int size = c.getList().size();
            int before = size;
            while (c.next()) before += c.getRemovedSize() - c.getAddedSize();
            if (size > before && lastVisible() >= before - 1) table.scrollTo(size - 1);
        });

        root.setTop(new BorderPane(bar, null, null, summary, null));
        root.setCenter(table);
        root.getStyleClass().add("console-view");
    }

    public Node root() { return root; }

    /** The index of the last row in view, -1 before the table is laid out or when it is empty. */
    private int lastVisible() {
        if (!(table.lookup(".virtual-flow") instanceof VirtualFlow<?> flow)) return -1;
        var cell = flow.getLastVisibleCell();
        return cell == null ? -1 : cell.getIndex();
    }

    /** Newlines inside one printf call shown as ⏎, so a call is one row; the whole text is in the tooltip. */
    static String oneLine(String text) {
        return text.stripTrailing().replace("\r", "").replace("\n", " ⏎ ");
    }

    private static TableColumn<ConsoleLine, String> column(String name, double width, Function<ConsoleLine, String> f) {
        TableColumn<ConsoleLine, String> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false); // in the order they were printed
        c.setCellValueFactory(p -> new ReadOnlyObjectWrapper<>(f.apply(p.getValue())));
        return c;
    }
}
