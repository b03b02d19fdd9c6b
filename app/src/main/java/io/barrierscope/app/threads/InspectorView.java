package io.barrierscope.app.threads;

import io.barrierscope.app.LayoutNow;
import io.barrierscope.app.classroom.FixedRows;
import io.barrierscope.app.classroom.Glossary;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/**
 * What the selected thread holds: its registers, and the shared memory of its CTA with the
 * mbarrier objects decoded. Two tabs under the threads tree.
 */
public final class InspectorView {
    private final TabPane root = new TabPane();

    public InspectorView(RegistersViewModel registers, SharedMemoryViewModel shared) { this(registers, shared, null); }

    /** With the global-memory tab beside the shared memory when {@code global} is given. */
    public InspectorView(RegistersViewModel registers, SharedMemoryViewModel shared, GlobalMemoryViewModel global) {
        this(registers, shared, global, null);
    }

    /** With a Tensor tab when {@code tensor} is not null. */
    public InspectorView(RegistersViewModel registers, SharedMemoryViewModel shared, GlobalMemoryViewModel global,
                         io.barrierscope.app.tensor.TensorViewModel tensor) {
        Tab regs = new Tab("Registers", registersPane(registers));
        regs.setId("registersTab");
        Tab mem = new Tab("Shared memory", sharedPane(shared));
        mem.setId("sharedTab");
        root.getTabs().addAll(regs, mem);
        if (global != null) {
            Tab g = new Tab("Global memory", GlobalMemoryPane.of(global));
            g.setId("globalTab");
            root.getTabs().add(g);
        }
        if (tensor != null) {
            Tab t = new Tab("Tensor", new io.barrierscope.app.tensor.TensorView(tensor).root());
            t.setId("tensorTab");
            tensor.activeProperty().bind(t.selectedProperty());
            root.getTabs().add(t);
            // From the registers or shared memory, the fragments they hold as the matrix they belong to.
            for (Tab from : java.util.List.of(regs, mem)) {
                javafx.scene.control.MenuItem show = new javafx.scene.control.MenuItem("Show tensor-core operands as matrices (Tensor tab)");
                show.setOnAction(e -> root.getSelectionModel().select(t));
                ((javafx.scene.control.Control) from.getContent().lookup(".table-view")).setContextMenu(new javafx.scene.control.ContextMenu(show));
            }
        }
        root.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        root.getStyleClass().add("inspector");
        io.barrierscope.app.SelectedTabContent.only(root); // hidden tabs out of the scene graph (docs/performance.md)
    }

    public Node root() { return root; }

    private static Node registersPane(RegistersViewModel vm) {
        TableView<RegistersViewModel.Row> table = FixedRows.table();
        table.setItems(vm.rows());
        table.setId("registerTable");
        table.setPlaceholder(new Label("Select a thread to see its registers."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(column("Register", 70, RegistersViewModel.Row::name));
        table.getColumns().add(column("Type", 50, RegistersViewModel.Row::type));
        table.getColumns().add(column("Hex", 150, RegistersViewModel.Row::hex));
        table.getColumns().add(column("Decimal", 150, RegistersViewModel.Row::decimal));
        // Values that changed since the last step stand out, as in every debugger.
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(RegistersViewModel.Row r, boolean empty) {
                super.updateItem(r, empty);
                pseudoClassStateChanged(javafx.css.PseudoClass.getPseudoClass("changed"), !empty && r != null && r.changed());
            }
        });
        // The rows in view take their new values (and their "changed" style) in the update's own event.
        vm.updatesProperty().addListener((o, a, b) -> LayoutNow.ifShown(table));
        return titled(vm.titleProperty(), "registersTitle", table, null);
    }

    private static Node sharedPane(SharedMemoryViewModel vm) {
        TableView<Integer> table = FixedRows.table();
        table.setItems(vm.offsets());
        table.setId("sharedTable");
        table.setPlaceholder(new Label("Select a thread to see its CTA's shared memory."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(sharedColumn(vm, "Offset", 60, SharedMemoryViewModel.Row::offsetText));
        table.getColumns().add(sharedColumn(vm, "Variable", 90, SharedMemoryViewModel.Row::variable));
        table.getColumns().add(sharedColumn(vm, "Bytes", 190, SharedMemoryViewModel.Row::hex));
        table.getColumns().add(sharedColumn(vm, "As s32", 90, SharedMemoryViewModel.Row::words));
        TableColumn<Integer, String> mbar = sharedColumn(vm, "mbarrier", 260, SharedMemoryViewModel.Row::mbarrier);
        Label head = new Label("mbarrier");
        head.setTooltip(new Tooltip(Glossary.MBARRIER.tooltip() + "\nThe engine keeps the object beside its 8 bytes, "
                + "whose hardware encoding is opaque (PTX ISA 9.7.13.15.2); this column decodes the object.\n"
                + Glossary.PHASE.name() + ": " + Glossary.PHASE.tooltip() + "\n" + Glossary.PENDING.name() + ": "
                + Glossary.PENDING.tooltip() + "\n" + Glossary.TX_COUNT.name() + ": " + Glossary.TX_COUNT.tooltip()));
        mbar.setText("");
        mbar.setGraphic(head);
        table.getColumns().add(mbar);
        table.setRowFactory(t -> new MbarrierRow(vm));
        CheckBox inUse = new CheckBox("Only words in use");
        inUse.setId("sharedInUse");
        inUse.selectedProperty().bindBidirectional(vm.onlyInUseProperty());
        inUse.setTooltip(new Tooltip("Hide rows that are zero, outside a variable's first word and hold no mbarrier."));
        return titled(vm.titleProperty(), "sharedTitle", table, inUse);
    }

    static Node titled(javafx.beans.value.ObservableStringValue title, String id, Node content, Node extra) {
        Label l = new Label();
        l.setId(id);
        l.getStyleClass().add("pane-note");
        l.textProperty().bind(title);
        l.setMinWidth(0);
        HBox top = extra == null ? new HBox(l) : new HBox(12, l, extra);
        top.getStyleClass().add("pane-toolbar");
        return new BorderPane(content, top, null, null, null);
    }

    static <T> TableColumn<T, String> column(String name, double width, Function<T, String> f) {
        TableColumn<T, String> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false);
        c.setCellValueFactory(p -> new ReadOnlyStringWrapper(f.apply(p.getValue())));
        return c;
    }

    private static TableColumn<Integer, String> sharedColumn(SharedMemoryViewModel vm, String name, double width,
                                                             Function<SharedMemoryViewModel.Row, String> f) {
        TableColumn<Integer, String> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false);
        // Same rows, new bytes: each cell's value follows the revision, so nothing is rebuilt.
        c.setCellValueFactory(p -> Bindings.createStringBinding(() -> f.apply(vm.row(p.getValue())), vm.revisionProperty()));
        c.setCellFactory(col -> new TipCell<>());
        return c;
    }

    /** Text with the whole text in a tooltip when it is long; one tooltip per cell, reused. */
    static final class TipCell<S> extends TableCell<S, String> {
        private final Tooltip tip = new Tooltip();

        @Override
        protected void updateItem(String s, boolean empty) {
            super.updateItem(s, empty);
            setText(empty ? null : s);
            boolean long_ = !empty && s != null && s.length() >= 24;
            tip.setText(long_ ? s : "");
            setTooltip(long_ ? tip : null);
        }
    }

    /** A shared-memory row, tinted when it holds a valid mbarrier (re-checked on every update). */
    private static final class MbarrierRow extends TableRow<Integer> {
        private static final javafx.css.PseudoClass MBARRIER = javafx.css.PseudoClass.getPseudoClass("mbarrier");
        private final SharedMemoryViewModel vm;

        MbarrierRow(SharedMemoryViewModel vm) {
            this.vm = vm;
            vm.revisionProperty().addListener(new javafx.beans.WeakInvalidationListener(refresh));
        }

        private final javafx.beans.InvalidationListener refresh = o -> restyle();

        @Override
        protected void updateItem(Integer off, boolean empty) {
            super.updateItem(off, empty);
            restyle();
        }

        private void restyle() {
            Integer off = getItem();
            pseudoClassStateChanged(MBARRIER, !isEmpty() && off != null && vm.row(off).isMbarrier());
        }
    }
}
