package io.barrierscope.app.barriers;

import io.barrierscope.app.classroom.FixedRows;
import io.barrierscope.app.classroom.Glossary;
import io.barrierscope.app.session.BarrierDetail;
import io.barrierscope.app.session.MbarrierRow;
import io.barrierscope.app.session.PanelRow;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The barriers pane: a headline and one table of the CTA barriers in use, the valid mbarriers and
 * the cluster barriers in use, each with a gauge of its arrivals (red when the run deadlocked with
 * threads waiting on it); an mbarrier with transactions this phase also gets a gauge of its bytes.
 */
public final class BarriersView {
    private final BorderPane root = new BorderPane();
    private final TableView<PanelRow> table;

    public BarriersView(BarriersViewModel vm) {
        // Rows are one line high until an mbarrier's phase has transactions (its gauge gets a second line).
        table = FixedRows.table(() -> vm.rows().stream().noneMatch(r -> r instanceof MbarrierRow m && m.hasTx()));
        Label title = new Label();
        title.setId("barriersHeadline");
        title.getStyleClass().add("pane-title");
        title.setMaxWidth(Double.MAX_VALUE);
        title.textProperty().bind(vm.headlineProperty());

        table.setId("barrierTable");
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No barrier used yet.\nStep or run to see bar.sync, mbarrier and barrier.cluster arrivals."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(column("Kind", 64, PanelRow::kind));
        table.getColumns().add(column("CTA", 84, PanelRow::ctaName));
        table.getColumns().add(column("Barrier", 140, PanelRow::label));
        TableColumn<PanelRow, String> phase = column("Phase", 84, PanelRow::phaseText);
        explain(phase, Glossary.GENERATION, Glossary.PHASE, Glossary.PARITY, Glossary.CLUSTER_BARRIER);
        table.getColumns().add(phase);
        TableColumn<PanelRow, PanelRow> arrived = column("Arrivals", 200, r -> r);
        arrived.setCellFactory(c -> new GaugeCell());
        explain(arrived, Glossary.WARP_ARRIVAL, Glossary.BARRIER_COUNT, Glossary.PENDING, Glossary.EXPECTED, Glossary.TX_COUNT);
        table.getColumns().add(arrived);
        TableColumn<PanelRow, PanelRow> detail = column("Warps / tx-count", 130, r -> r);
        detail.setCellFactory(c -> new DetailCell());
        explain(detail, Glossary.WARP_ARRIVAL, Glossary.TX_COUNT, Glossary.EXPECT_TX, Glossary.COMPLETE_TX);
        table.getColumns().add(detail);

        table.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> {
            if (!syncing) vm.select(row);
        });
        // New rows drop the table's selection; the view model kept the barrier: select its new row.
        vm.rows().addListener((ListChangeListener<PanelRow>) c -> {
            int i = vm.selectedIndex();
            if (i >= 0 && table.getSelectionModel().getSelectedIndex() != i) table.getSelectionModel().select(i);
        });
        // Selected from elsewhere (a thread waiting on it, a diagnostic): its row, or none while it is not in use.
        vm.selectedProperty().addListener((o, a, key) -> showSelected(vm));

        root.setTop(title);
        Node lists = lists(vm);
        // The table never collapses under the roster: its header and two rows at least.
        table.setMinHeight(TABLE_MIN_HEIGHT);
        SplitPane split = new SplitPane(table, detail(vm, lists));
        split.setId("barrierSplit");
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(ROSTER_AT);
        root.setCenter(split);
        // The pane is short in the window: with nothing selected the roster's empty lists would
        // hide all but a row or two, so only its hint stays, and a selection brings them back
        // where the user last left the divider.
        vm.selectedProperty().addListener((o, was, now) -> showRoster(split, lists, now != null));
        showRoster(split, lists, vm.selectedProperty().get() != null);
    }

    private boolean syncing;

    private void showSelected(BarriersViewModel vm) {
        int i = vm.selectedIndex();
        if (table.getSelectionModel().getSelectedIndex() == i) return;
        syncing = true;
        try {
            if (i >= 0) {
                table.getSelectionModel().select(i);
                table.scrollTo(i);
            } else {
                table.getSelectionModel().clearSelection();
            }
        } finally {
            syncing = false;
        }
    }

    /** The table's least height: its header and two rows (at presentation mode's size too). */
    static final double TABLE_MIN_HEIGHT = 96;

    private static final double ROSTER_AT = 0.55;
    private double rosterAt = ROSTER_AT;

    private void showRoster(SplitPane split, Node lists, boolean on) {
        if (on == lists.isManaged()) return;
        if (!on) rosterAt = split.getDividerPositions()[0];
        lists.setManaged(on);
        lists.setVisible(on);
        split.setDividerPositions(on ? rosterAt : 1); // 1: as low as the hint's height allows
    }

    /** The selected barrier: title, summary and its lists (or, with nothing selected, the hint). */
    private static VBox detail(BarriersViewModel vm, Node lists) {
        Label title = new Label();
        title.setId("barrierDetailTitle");
        title.getStyleClass().add("pane-title");
        title.textProperty().bind(vm.detailTitleProperty());
        title.setWrapText(true);
        title.setMinHeight(Label.USE_PREF_SIZE);
        Label summary = new Label();
        summary.setId("barrierDetailSummary");
        summary.setWrapText(true);
        summary.textProperty().bind(vm.detailSummaryProperty());
        summary.managedProperty().bind(summary.textProperty().isNotEmpty());
        summary.visibleProperty().bind(summary.managedProperty());
        VBox.setVgrow(lists, Priority.ALWAYS);
        VBox box = new VBox(4, title, summary, lists);
        box.setId("barrierDetail");
        box.setPadding(new Insets(4));
        return box;
    }

    /** Who arrived, who has not, and the completions (each a place to go to). */
    private static Node lists(BarriersViewModel vm) {
        ListView<String> arrived = list("barrierArrived", vm.arrived(), "Nobody arrived yet.");
        ListView<String> missing = list("barrierMissing", vm.missing(), "Nobody missing.");
        // An entry names a warp or thread: a click or Enter selects it everywhere.
        pickable(arrived, vm::pickArrived, "Click an entry to select its warp or thread everywhere.");
        pickable(missing, vm::pickMissing, "Click an entry to select its warp or thread everywhere.");
        ListView<BarrierDetail.Completion> history = list("barrierHistory", vm.history(), "No completion yet.");
        history.setTooltip(new Tooltip("Click a completion to go to the step right after it."));
        history.setOnMouseClicked(e -> vm.seekTo(history.getSelectionModel().getSelectedItem()));
        history.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) vm.seekTo(history.getSelectionModel().getSelectedItem());
        });
        return new HBox(6, column("Arrived this phase", arrived), column("Not arrived", missing),
                column("Completions (click to go there)", history));
    }

    private static void pickable(ListView<String> l, java.util.function.IntConsumer pick, String tip) {
        l.setTooltip(new Tooltip(tip));
        l.setOnMouseClicked(e -> pick.accept(l.getSelectionModel().getSelectedIndex()));
        l.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) pick.accept(l.getSelectionModel().getSelectedIndex());
        });
    }

    private static <T> ListView<T> list(String id, ObservableList<T> items, String empty) {
        ListView<T> l = new ListView<>(items);
        l.setId(id);
        // Entries wrap within the column (a missing warp says why): a long one must not widen
        // its list and squeeze the other columns.
        l.setCellFactory(v -> new javafx.scene.control.ListCell<>() {
            {
                setWrapText(true);
                setPrefWidth(0);
            }

            @Override protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty || item == null ? null : item.toString());
            }
        });
        l.setPlaceholder(new Label(empty));
        l.setPrefHeight(120);
        l.setMinHeight(66); // two or three entries at least, however small the pane
        return l;
    }

    private static Node column(String heading, ListView<?> list) {
        VBox v = new VBox(2, new Label(heading), list);
        VBox.setVgrow(list, Priority.ALWAYS);
        HBox.setHgrow(v, Priority.ALWAYS);
        v.setPrefWidth(1);
        return v;
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

    /**
     * Arrivals as a gauge plus "3/4 warps" or "1 of 129 pending"; under it, for an mbarrier whose
     * phase has seen transactions, its bytes as a second gauge: "tx +512 of 1024 bytes" beside a
     * half-full bar (the mbarrier's two lines).
     */
    private static final class GaugeCell extends TableCell<PanelRow, PanelRow> {
        private final ProgressBar bar = new ProgressBar();
        private final Label text = new Label();
        private final ProgressBar bytes = new ProgressBar();
        private final Label bytesText = new Label();
        private final HBox tx = new HBox(6, bytes, bytesText);
        private final VBox box = new VBox(2, new HBox(6, bar, text), tx);
        private final Tooltip tip = new Tooltip();

        GaugeCell() {
            bar.getStyleClass().add("barrier-gauge");
            bytes.getStyleClass().addAll("barrier-gauge", "tx-gauge");
            for (Node n : box.getChildren()) ((HBox) n).setAlignment(Pos.CENTER_LEFT);
            // The gauge stays the cell's graphic, hidden while the cell is empty: a new graphic
            // makes the cell's skin replace its children, and CSS style the gauge (and its
            // progress bars make their animation) again, at every stop that refills the table.
            setGraphic(box);
        }

        @Override
        protected void updateItem(PanelRow row, boolean empty) {
            super.updateItem(row, empty);
            box.setVisible(!empty && row != null);
            if (empty || row == null) {
                // The hidden gauge still sizes the cell: an emptied row drops its bytes line, or stays two lines high.
                tx.setVisible(false);
                tx.setManaged(false);
                setTooltip(null);
                return;
            }
            bar.setProgress(row.fraction());
            stuck(bar, row.stuck());
            text.setText(row.gaugeText());
            boolean hasTx = row instanceof MbarrierRow m && m.hasTx();
            tx.setVisible(hasTx);
            tx.setManaged(hasTx);
            if (hasTx) {
                MbarrierRow m = (MbarrierRow) row;
                bytes.setProgress(m.txFraction());
                // Red only while bytes are still owed: those are what a deadlocked waiter lacks.
                stuck(bytes, m.stuck() && m.tx() > 0);
                bytesText.setText(m.detail());
                tip.setText(m.txCompleted() + " of " + m.txExpected() + " expected bytes completed in phase " + m.phase()
                        + "; tx-count " + (m.tx() > 0 ? "+" : "") + m.tx());
            }
            setTooltip(hasTx ? tip : null); // set once: null then the tip again would uninstall and reinstall it
        }
    }

    /** The row's detail, whole in a tooltip (the column is narrow); an mbarrier's bytes are in its gauge cell instead. */
    private static final class DetailCell extends TableCell<PanelRow, PanelRow> {
        private final Tooltip tip = new Tooltip();

        @Override
        protected void updateItem(PanelRow row, boolean empty) {
            super.updateItem(row, empty);
            String text = empty || row == null || row instanceof MbarrierRow m && m.hasTx() ? "" : row.detail();
            setText(text);
            tip.setText(text);
            setTooltip(text.isEmpty() ? null : tip);
        }
    }

    private static void stuck(ProgressBar bar, boolean stuck) {
        if (stuck == bar.getStyleClass().contains("stuck")) return;
        if (stuck) bar.getStyleClass().add("stuck");
        else bar.getStyleClass().remove("stuck");
    }
}
