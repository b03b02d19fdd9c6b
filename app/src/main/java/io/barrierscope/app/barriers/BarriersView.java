package io.barrierscope.app.barriers;

import io.barrierscope.app.session.BarrierRow;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/** The barriers pane: a headline and a table of the CTA barriers in use, each with a gauge. */
public final class BarriersView {
    private final BorderPane root = new BorderPane();
    private final TableView<BarrierRow> table = new TableView<>();

    public BarriersView(BarriersViewModel vm) {
        Label title = new Label();
        title.setId("barriersHeadline");
        title.getStyleClass().add("pane-title");
        title.setMaxWidth(Double.MAX_VALUE);
        title.textProperty().bind(vm.headlineProperty());

        table.setId("barrierTable");
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No CTA barrier used yet.\nStep or run to see bar.sync arrivals."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(column("CTA", 110, BarrierRow::ctaName));
        table.getColumns().add(column("Bar", 40, BarrierRow::id));
        table.getColumns().add(column("Gen", 45, BarrierRow::generation));
        TableColumn<BarrierRow, BarrierRow> arrived = column("Arrived", 170, r -> r);
        arrived.setCellFactory(c -> new GaugeCell());
        table.getColumns().add(arrived);
        table.getColumns().add(column("Which warps", 100, BarrierRow::arrivedWarps));

        root.setTop(title);
        root.setCenter(table);
    }

    public Node root() { return root; }

    private static <T> TableColumn<BarrierRow, T> column(String name, double width, Function<BarrierRow, T> value) {
        TableColumn<BarrierRow, T> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false); // rows come in CTA, barrier order, which is the order to read them
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.apply(f.getValue())));
        return c;
    }

    /** Arrived warps as a gauge plus "3/4 warps". */
    private static final class GaugeCell extends TableCell<BarrierRow, BarrierRow> {
        private final ProgressBar bar = new ProgressBar();
        private final Label text = new Label();
        private final HBox box = new HBox(6, bar, text);

        GaugeCell() {
            bar.getStyleClass().add("barrier-gauge");
            box.setAlignment(Pos.CENTER_LEFT);
        }

        @Override
        protected void updateItem(BarrierRow row, boolean empty) {
            super.updateItem(row, empty);
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            bar.setProgress(row.fraction());
            if (row.stuck() != bar.getStyleClass().contains("stuck")) {
                if (row.stuck()) bar.getStyleClass().add("stuck");
                else bar.getStyleClass().remove("stuck");
            }
            text.setText(row.waiting() ? row.arrivedText() : "idle (0/" + row.expected() + ")");
            setGraphic(box);
        }
    }
}
