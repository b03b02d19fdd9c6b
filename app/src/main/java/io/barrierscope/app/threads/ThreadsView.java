package io.barrierscope.app.threads;

import io.barrierscope.app.LayoutNow;
import io.barrierscope.app.classroom.FixedRows;
import io.barrierscope.app.classroom.Glossary;
import io.barrierscope.app.classroom.StateNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * The threads tree with a filter box. Rows are reused by key across snapshots, so expansion and
 * selection survive stepping; thread rows are made only when their warp is opened, so a launch of
 * 64 Ki threads costs TreeItems only for what is on show.
 */
public final class ThreadsView {
    private final ThreadsViewModel vm;
    private final BorderPane root = new BorderPane();
    private final TextField filter = new TextField();
    private final TreeTableView<ThreadNode> tree = FixedRows.tree(); // every row one line
    private final TreeItem<ThreadNode> top = new TreeItem<>();
    private Map<String, NodeItem> byKey = new HashMap<>();
    private Map<String, NodeItem> seen = new HashMap<>();
    private boolean syncing;
    private int appliedFilter;

    public ThreadsView(ThreadsViewModel vm) {
        this.vm = vm;
        filter.setId("threadFilter");
        filter.setPromptText("Filter (Ctrl+F): parked · warp 3 · line 42 · full · cta (1   (a comma means and)");
        filter.textProperty().bindBidirectional(vm.filterProperty());
        HBox.setHgrow(filter, Priority.ALWAYS);
        Label summary = new Label();
        summary.setId("threadSummary");
        summary.getStyleClass().add("pane-note");
        summary.textProperty().bind(vm.summaryProperty());
        summary.setMinWidth(0);
        HBox bar = new HBox(6, filter);
        bar.getStyleClass().add("pane-toolbar");

        tree.setId("threadTree");
        tree.setRoot(top);
        tree.setShowRoot(false);
        tree.setPlaceholder(new Label("No threads yet: open a launch file."));
        tree.setColumnResizePolicy(TreeTableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TreeTableColumn<ThreadNode, String> name = column("Thread", 140, ThreadNode::name);
        TreeTableColumn<ThreadNode, String> state = column("State", 130, ThreadNode::state);
        state.setCellFactory(c -> new StateCell());
        tree.getColumns().add(name);
        tree.getColumns().add(state);
        tree.getColumns().add(column("PC", 40, ThreadNode::pcText));
        tree.getColumns().add(column("Line", 44, ThreadNode::ptxLineText));
        tree.getColumns().add(column("CUDA", 108, ThreadNode::cuda));
        TreeTableColumn<ThreadNode, String> waits = column("Waits on", 260, ThreadNode::waitsOn);
        waits.setCellFactory(c -> new TipCell());
        tree.getColumns().add(waits);
        headerTip(state, "What the threads do now; hover a cell for the full sentence.");
        headerTip(waits, "The barrier id and generation, the mbarrier with its phase and the parity waited for, "
                + "the warp-sync mask or the async group a thread waits on.");
        tree.getSelectionModel().selectedItemProperty().addListener((o, a, item) -> {
            if (!syncing && item != null) vm.select(item.getValue());
        });

        vm.rootsProperty().addListener((o, a, roots) -> sync(roots));
        sync(vm.rootsProperty().get());
        vm.revealedProperty().addListener((o, a, path) -> reveal(path));
        root.setTop(new BorderPane(bar, null, null, summary, null));
        root.setCenter(tree);
        root.getStyleClass().add("threads-view");
    }

    public Node root() { return root; }

    /** Puts the keyboard in the filter box (Ctrl+F). */
    public void focusFilter() {
        filter.requestFocus();
        filter.selectAll();
    }

    private void sync(List<ThreadNode> roots) {
        syncing = true;
        try {
            // A new filter opens the way to its matches; clearing it leaves the rows as they are.
            boolean refilter = vm.filterRevisionProperty().get() != appliedFilter && !vm.filterProperty().get().isBlank();
            appliedFilter = vm.filterRevisionProperty().get();
            seen = new HashMap<>();
            setChildren(top, roots, refilter);
            byKey = seen;
            reselect();
        } finally {
            syncing = false;
        }
        LayoutNow.ifShown(tree); // the rows in view show their new states (and styles) in this event
    }

    /** Reuses the item of each key; replaces the children list only when the keys changed. */
    private void setChildren(TreeItem<ThreadNode> parent, List<ThreadNode> nodes, boolean refilter) {
        List<TreeItem<ThreadNode>> items = new ArrayList<>(nodes.size());
        for (ThreadNode n : nodes) {
            NodeItem it = byKey.get(n.key());
            boolean fresh = it == null;
            if (fresh) it = new NodeItem(n);
            else if (!it.getValue().sameRow(n)) it.setValue(n);
            it.latest = n; // the newest children, without repainting a row whose cells are the same
            seen.put(n.key(), it);
            if (fresh || refilter) it.setExpanded(n.expand());
            // Children of a closed row are made when it opens (see NodeItem).
            if (it.isExpanded()) {
                setChildren(it, n.children(), refilter);
                it.stale = false;
            } else {
                it.stale = true;
            }
            items.add(it);
        }
        if (!parent.getChildren().equals(items)) parent.getChildren().setAll(items);
    }

    private void reselect() {
        String key = vm.selectedKeyProperty().get();
        NodeItem it = key.isEmpty() ? null : byKey.get(key);
        if (it != null && tree.getSelectionModel().getSelectedItem() != it) tree.getSelectionModel().select(it);
        // No thread chosen any more (a breakpoint hit follows its own warp), or the chosen one has no
        // row (the filter hides it): no other row stays marked, so clicking it again still selects it.
        if ((key.isEmpty() || it == null) && tree.getSelectionModel().getSelectedItem() != null) {
            boolean outer = syncing;
            syncing = true;
            try {
                tree.getSelectionModel().clearSelection();
            } finally {
                syncing = outer;
            }
        }
    }

    /** Opens the rows above a row something else selected, selects it and scrolls it into view. */
    private void reveal(List<String> path) {
        if (path.isEmpty()) {
            reselect();
            return;
        }
        boolean outer = syncing;
        syncing = true;
        try {
            NodeItem it = null;
            for (int i = 0; i < path.size(); i++) {
                it = byKey.get(path.get(i));
                if (it == null) return;
                if (i < path.size() - 1) it.setExpanded(true); // makes its children
            }
            tree.getSelectionModel().select(it);
            int row = tree.getRow(it);
            if (row >= 0 && !inView(row)) tree.scrollTo(Math.max(0, row - 3)); // a row in view stays where it is
        } finally {
            syncing = outer;
        }
    }

    /** Whether a row is on screen whole (false before the tree is laid out). */
    private boolean inView(int row) {
        if (!(tree.lookup(".virtual-flow") instanceof javafx.scene.control.skin.VirtualFlow<?> flow)) return false;
        var first = flow.getFirstVisibleCell();
        var last = flow.getLastVisibleCell();
        return first != null && last != null && row > first.getIndex() && row < last.getIndex();
    }

    /** A row whose children appear when it is opened. */
    private final class NodeItem extends TreeItem<ThreadNode> {
        boolean stale = true;
        ThreadNode latest;

        NodeItem(ThreadNode n) {
            super(n);
            latest = n;
            expandedProperty().addListener((o, was, open) -> {
                if (open && stale) {
                    boolean outer = syncing;
                    syncing = true;
                    try {
                        setChildren(this, latest.children(), false);
                        byKey.putAll(seen);
                    } finally {
                        syncing = outer;
                    }
                    stale = false;
                }
            });
        }

        @Override
        public boolean isLeaf() { return latest.children().isEmpty(); }
    }

    private static TreeTableColumn<ThreadNode, String> column(String name, double width, Function<ThreadNode, String> f) {
        TreeTableColumn<ThreadNode, String> c = new TreeTableColumn<>(name);
        c.setPrefWidth(width);
        c.setSortable(false); // the tree's order is the hardware's order
        c.setCellValueFactory(p -> new ReadOnlyStringWrapper(p.getValue().getValue() == null ? "" : f.apply(p.getValue().getValue())));
        return c;
    }

    private static void headerTip(TreeTableColumn<ThreadNode, String> c, String tip) {
        Label l = new Label(c.getText());
        l.setTooltip(new Tooltip(tip));
        c.setText("");
        c.setGraphic(l);
    }

    /** The state, coloured by kind, with the engine's sentence and the glossary's in a tooltip. */
    private static final class StateCell extends TreeTableCell<ThreadNode, String> {
        private final Tooltip tip = new Tooltip();

        @Override
        protected void updateItem(String s, boolean empty) {
            super.updateItem(s, empty);
            ThreadNode n = empty || getTableRow() == null ? null : getTableRow().getItem();
            if (empty || s == null || n == null) {
                kind(null);
                setText(null);
                setTooltip(null);
                return;
            }
            setText(s);
            if (n.status() < 0) {
                kind(null);
                setTooltip(null);
                return;
            }
            kind(StateNames.waiting(n.status()) ? "state-waiting"
                    : n.status() == io.barrierscope.exec.ThreadStatus.RUNNABLE ? "state-runnable" : "state-exited");
            String tip = StateNames.longName(n.status());
            tip += Glossary.forStatus(n.status()).map(t -> "\n" + t.name() + ": " + t.tooltip()).orElse("");
            this.tip.setText(tip);
            setTooltip(this.tip);
        }

        /** Changes the kind's style class only when it differs: a change makes CSS style the cell again. */
        private void kind(String kind) {
            var classes = getStyleClass();
            for (String k : KINDS) if (!k.equals(kind) && classes.contains(k)) classes.remove(k);
            if (kind != null && !classes.contains(kind)) classes.add(kind);
        }

        private static final String[] KINDS = {"state-waiting", "state-exited", "state-runnable"};
    }

    /** Long texts get their whole text in a tooltip. */
    private static final class TipCell extends TreeTableCell<ThreadNode, String> {
        private final Tooltip tip = new Tooltip();

        @Override
        protected void updateItem(String s, boolean empty) {
            super.updateItem(s, empty);
            setText(empty ? null : s);
            boolean some = !empty && s != null && !s.isEmpty();
            tip.setText(some ? s : "");
            setTooltip(some ? tip : null);
        }
    }
}
