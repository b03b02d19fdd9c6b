package io.barrierscope.app.threads;

import io.barrierscope.app.session.ThreadsState;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The threads pane: the tree of clusters, CTAs, warps, lane groups and threads with their state,
 * line and what they wait on, a filter, and the selected row (whose thread the inspector shows).
 */
public final class ThreadsViewModel {
    private final ReadOnlyObjectWrapper<List<ThreadNode>> roots = new ReadOnlyObjectWrapper<>(List.of());
    private final StringProperty filter = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("No run.");
    private final ReadOnlyStringWrapper selectedKey = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<List<String>> revealed = new ReadOnlyObjectWrapper<>(List.of());
    /** Bumped when the filter changes, so the view re-applies the rows' expand hints. */
    private final ReadOnlyIntegerWrapper filterRevision = new ReadOnlyIntegerWrapper();
    private List<ThreadNode> all = List.of();
    /** The rows of the last state, reused for the warps a move left as they were. */
    private ThreadTree.Memo memo = new ThreadTree.Memo();
    private ThreadsState state;
    private Consumer<ThreadNode> onSelect = n -> {};

    public ThreadsViewModel() {
        filter.addListener((o, a, b) -> {
            show();
            filterRevision.set(filterRevision.get() + 1);
        });
    }

    public void update(ThreadsState s) {
        if (s == state) return; // the session captured no change: the rows are those shown
        state = s;
        all = ThreadTree.build(s, memo);
        show();
    }

    public void clear() {
        all = List.of();
        memo = new ThreadTree.Memo();
        state = null;
        selectedKey.set("");
        show();
    }

    /** A row was selected in the view; null clears the selection. */
    public void select(ThreadNode n) {
        selectedKey.set(n == null ? "" : n.key());
        if (n != null) onSelect.accept(n);
    }

    /**
     * Selects a row because something else pointed at it (a diagnostic, a timeline lane, a
     * console line): no callback, and the view opens the rows above it and scrolls to it.
     * A row the filter hides stays selected without being shown.
     */
    public void reveal(String key) {
        selectedKey.set(key == null ? "" : key);
        List<String> path = key == null ? List.of() : ThreadTree.path(roots.get(), key).stream().map(ThreadNode::key).toList();
        // a new list each time: revealing the same row again scrolls to it again
        revealed.set(new java.util.ArrayList<>(path));
    }

    /** The row with {@code key} in the whole tree (filtered or not), or null. */
    public ThreadNode node(String key) {
        List<ThreadNode> p = ThreadTree.path(all, key);
        return p.isEmpty() ? null : p.get(p.size() - 1);
    }

    /** Called with every row the user selects (the debugger inspects its thread). */
    public void setOnSelect(Consumer<ThreadNode> action) { onSelect = action == null ? n -> {} : action; }

    private void show() {
        List<ThreadNode> shown = ThreadTree.filter(all, filter.get());
        roots.set(shown);
        int total = ThreadTree.threadCount(all);
        if (total == 0) {
            summary.set("No run.");
        } else if (shown == all) {
            summary.set(total + " threads: " + ThreadTree.summary(all));
        } else {
            summary.set(ThreadTree.threadCount(shown) + " of " + total + " threads match");
        }
    }

    /** The rows to show (filtered), top level first. */
    public ReadOnlyObjectProperty<List<ThreadNode>> rootsProperty() { return roots.getReadOnlyProperty(); }
    /** Words every shown row matches (its name, state, line, CUDA location, what it waits on). */
    public StringProperty filterProperty() { return filter; }
    /** E.g. "96 threads: 64 mbarrier wait · 32 runnable" or "12 of 96 threads match". */
    public ReadOnlyStringProperty summaryProperty() { return summary.getReadOnlyProperty(); }
    public ReadOnlyStringProperty selectedKeyProperty() { return selectedKey.getReadOnlyProperty(); }
    /** The keys from a top row down to the row last revealed (empty: none, or the filter hides it). */
    public ReadOnlyObjectProperty<List<String>> revealedProperty() { return revealed.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty filterRevisionProperty() { return filterRevision.getReadOnlyProperty(); }
}
