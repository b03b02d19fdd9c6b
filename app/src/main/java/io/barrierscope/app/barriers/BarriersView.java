package io.barrierscope.app.barriers;

import io.barrierscope.app.classroom.Glossary;
import io.barrierscope.app.session.PanelRow;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * The barriers pane: a headline and one table of the CTA barriers in use and the valid mbarriers,
 * each with a gauge of its arrivals (red when the run deadlocked with threads waiting on it).
 */
public final class BarriersView {
    private final BorderPane root = new BorderPane();
    private final TableView<PanelRow> table = new TableView<>();

    public BarriersView(BarriersViewModel vm) {
        Label title = new Label();
        title.setId("barriersHeadline");
        title.getStyleClass().add("pane-title");
        title.setMaxWidth(Double.MAX_VALUE);
        title.textProperty().bind(vm.headlineProperty());

        table.setId("barrierTable");
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No barrier used yet.\nStep or run to see bar.sync and mbarrier arrivals."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(column("Kind", 62, PanelRow::kind));
        table.getColumns().add(column("CTA", 80, PanelRow::ctaName));
        table.getColumns().add(column("Barrier", 120, PanelRow::label));
        TableColumn<PanelRow, String> phase = column("Phase", 80, PanelRow::phaseText);
        explain(phase, Glossary.GENERATION, Glossary.PHASE, Glossary.PARITY);
        table.getColumns().add(phase);
        TableColumn<PanelRow, PanelRow> arrived = column("Arrivals", 200, r -> r);
        arrived.setCellFactory(c -> new GaugeCell());
        explain(arrived, Glossary.WARP_ARRIVAL, Glossary.BARRIER_COUNT, Glossary.PENDING, Glossary.EXPECTED);
        table.getColumns().add(arrived);
        TableColumn<PanelRow, String> detail = column("Warps / tx-count", 80, PanelRow::detail);
        explain(detail, Glossary.TX_COUNT, Glossary.EXPECT_TX, Glossary.COMPLETE_TX);
        table.getColumns().add(detail);

        root.setTop(title);
        root.setCenter(table);
    }

    public Node root() { return root; }

    /** A header that explains its barrier terms, one sentence each with the PTX ISA section. */
    private static void explain(TableColumn<PanelRow, ?> c, Glossary.Term... terms) {
        StringBuilder tip = new StringBuilder();
        for (Glossary.Term t : terms) tip.append(tip.length() > 0 ? "\n" : "").append(t.name()).append(": ").append(t.tooltip());
        Label head = new Label(c.getText());
        Tooltip tooltip = new Tooltip(tip.toString());
        tooltip.setWrapText(true);
        tooltip.setMaxWidth(520);
        head.setTooltip(tooltip);
        c.setText("");
        c.setGraphic(head);
    }

    private static <T> TableColumn<PanelRow, T> column(String name, double width, Function<PanelRow, T> value) {
        TableColumn<PanelRow, T> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false); // rows come in kind, CTA, barrier order, which is the order to read them
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.apply(f.getValue())));
        return c;
    }

    /** Arrivals as a gauge plus "3/4 warps" or "1 of 129 pending". */
    private static final class GaugeCell extends TableCell<PanelRow, PanelRow> {
        private final ProgressBar bar = new ProgressBar();
        private final Label text = new Label();
        private final HBox box = new HBox(6, bar, text);

        GaugeCell() {
            bar.getStyleClass().add("barrier-gauge");
            box.setAlignment(Pos.CENTER_LEFT);
        }

        @Override
        protected void updateItem(PanelRow row, boolean empty) {
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
            text.setText(row.gaugeText());
            setGraphic(box);
        }
    }
}
