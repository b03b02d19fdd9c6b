package io.barrierscope.app.breakpoints;

import io.barrierscope.app.session.BreakpointRow;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The breakpoints panel: a kind chooser, a field for any spec and an Add button, the engine's
 * message when it refuses one, and the table (enabled box, spec, kind, conditions, hits, delete),
 * with the breakpoint the run stopped at marked.
 */
public final class BreakpointsView {
    private static final PseudoClass HIT = PseudoClass.getPseudoClass("hit");
    private static final PseudoClass DISABLED_BP = PseudoClass.getPseudoClass("off");

    private final BorderPane root = new BorderPane();
    private final TextField field = new TextField();
    private final TableView<BreakpointRow> table = new TableView<>();

    public BreakpointsView(BreakpointsViewModel vm) {
        ComboBox<String> kind = new ComboBox<>();
        kind.setId("breakpointKind");
        kind.getItems().setAll(BreakpointsViewModel.KINDS);
        kind.valueProperty().bindBidirectional(vm.kindProperty());
        kind.setTooltip(new Tooltip("The kind of event to stop at; the field then takes its argument and conditions"));
        field.setId("breakpointSpec");
        field.textProperty().bindBidirectional(vm.textProperty());
        field.setPromptText("line:42 · line:kernel.cu:17 · barrier · mbarrier:full,phase=1 · tx-zero · arrive,warp=2 · "
                + "park · deadlock");
        field.setOnAction(e -> vm.add());
        field.setTooltip(new Tooltip("KIND[:ARG][,KEY=VALUE]...  kinds: line, barrier, mbarrier[:VAR], tx-zero[:VAR], arrive, "
                + "wait-false, park, deadlock, diagnostic[:CODE]\nkeys: cluster, cta, warp, thread, phase, hits (stop at the N-th hit)"));
        HBox.setHgrow(field, Priority.ALWAYS);
        Button add = new Button("Add");
        add.setId("addBreakpoint");
        add.setOnAction(e -> vm.add());
        add.setFocusTraversable(false);
        HBox bar = new HBox(6, kind, field, add);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add("pane-toolbar");
        Label error = new Label();
        error.setId("breakpointError");
        error.getStyleClass().add("breakpoint-error");
        error.setWrapText(true);
        error.textProperty().bind(vm.errorProperty());
        error.visibleProperty().bind(vm.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());

        table.setId("breakpointTable");
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("No breakpoints. Click in the gutter of a source pane, or write one above."));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<BreakpointRow, BreakpointRow> on = column("On", 40, r -> r);
        on.setCellFactory(c -> new EnabledCell(vm));
        table.getColumns().add(on);
        table.getColumns().add(column("Spec", 180, BreakpointRow::spec));
        table.getColumns().add(column("Kind", 150, BreakpointRow::kind));
        table.getColumns().add(column("Conditions", 110, BreakpointRow::conditions));
        table.getColumns().add(column("Hits", 50, BreakpointRow::hits));
        TableColumn<BreakpointRow, BreakpointRow> delete = column("", 40, r -> r);
        delete.setCellFactory(c -> new DeleteCell(vm));
        table.getColumns().add(delete);
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(BreakpointRow r, boolean empty) {
                super.updateItem(r, empty);
                pseudoClassStateChanged(HIT, !empty && r != null && r.id() == vm.hitProperty().get());
                pseudoClassStateChanged(DISABLED_BP, !empty && r != null && !r.enabled());
            }
        });
        vm.hitProperty().addListener((o, a, b) -> table.refresh());

        FlowPane fields = new FlowPane(8, 4);
        fields.setId("breakpointFields");
        fields.getStyleClass().add("pane-toolbar");
        Label preview = new Label();
        preview.setId("breakpointPreview");
        Runnable showFields = () -> {
            fields.getChildren().clear();
            String k = vm.kindProperty().get();
            for (BreakpointForm.Field f : BreakpointForm.fields(k)) {
                TextField t = new TextField();
                t.setId("bpField-" + f.key().replace(":", ""));
                t.setPromptText(f.prompt());
                t.setPrefColumnCount(f.number() ? 5 : 10);
                t.textProperty().bindBidirectional(vm.form().value(f));
                t.textProperty().addListener((o, a, b) -> preview.setText(previewText(vm)));
                t.setOnAction(e -> vm.add());
                HBox one = new HBox(4, new Label(f.label()), t);
                one.setAlignment(Pos.CENTER_LEFT);
                fields.getChildren().add(one);
            }
            if (BreakpointForm.knows(k)) fields.getChildren().add(preview);
            preview.setText(previewText(vm));
            fields.setVisible(BreakpointForm.knows(k));
            fields.setManaged(fields.isVisible());
        };
        vm.kindProperty().addListener((o, a, b) -> showFields.run());
        vm.textProperty().addListener((o, a, b) -> preview.setText(previewText(vm)));
        showFields.run();

        root.setTop(new VBox(bar, fields, error));
        root.setCenter(table);
        root.getStyleClass().add("breakpoints-view");
    }

    public Node root() { return root; }

    /** What Add will send from the fields (the typed text wins when there is some). */
    private static String previewText(BreakpointsViewModel vm) {
        String typed = vm.textProperty().get() == null ? "" : vm.textProperty().get().strip();
        if (!typed.isEmpty()) return "Add sends: " + BreakpointsViewModel.compose(vm.kindProperty().get(), typed);
        String spec = vm.formSpec();
        return spec.isEmpty() ? "" : "Add sends: " + spec;
    }

    /** Puts the keyboard in the add field (Ctrl+B). */
    public void focusField() { field.requestFocus(); }

    private static <T> TableColumn<BreakpointRow, T> column(String name, double width, Function<BreakpointRow, T> f) {
        TableColumn<BreakpointRow, T> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false); // in the order they were set
        c.setCellValueFactory(p -> new ReadOnlyObjectWrapper<>(f.apply(p.getValue())));
        return c;
    }

    private static final class EnabledCell extends TableCell<BreakpointRow, BreakpointRow> {
        private final CheckBox box = new CheckBox();
        private BreakpointRow row;

        EnabledCell(BreakpointsViewModel vm) {
            box.setFocusTraversable(false);
            box.setOnAction(e -> vm.setEnabled(row, box.isSelected()));
            box.setTooltip(new Tooltip("Enabled: a disabled breakpoint stays listed but does not stop the run"));
        }

        @Override
        protected void updateItem(BreakpointRow r, boolean empty) {
            super.updateItem(r, empty);
            row = empty ? null : r;
            if (row == null) {
                setGraphic(null);
                return;
            }
            box.setSelected(r.enabled());
            box.setId("breakpointEnabled" + r.id());
            setGraphic(box);
        }
    }

    private static final class DeleteCell extends TableCell<BreakpointRow, BreakpointRow> {
        private final Button button = new Button("✕");
        private BreakpointRow row;

        DeleteCell(BreakpointsViewModel vm) {
            button.getStyleClass().add("delete-button");
            button.setFocusTraversable(false);
            button.setTooltip(new Tooltip("Delete this breakpoint"));
            button.setOnAction(e -> vm.remove(row));
        }

        @Override
        protected void updateItem(BreakpointRow r, boolean empty) {
            super.updateItem(r, empty);
            row = empty ? null : r;
            if (row != null) button.setId("breakpointDelete" + r.id());
            setGraphic(row == null ? null : button);
        }
    }
}
