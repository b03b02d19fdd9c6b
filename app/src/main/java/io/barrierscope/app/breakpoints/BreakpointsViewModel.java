package io.barrierscope.app.breakpoints;

import io.barrierscope.app.session.BreakpointRow;
import java.util.List;
import java.util.Locale;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The breakpoints panel: every breakpoint with its kind, conditions, hits and enabled state; an
 * add field taking any spec the engine reads, with a kind chooser that writes the kind for you;
 * the engine's message when it refuses one; the breakpoint the last move stopped at. The
 * source gutters mark their lines themselves. The session owns the breakpoints: this asks it
 * through {@link Actions} and shows what it reports.
 */
public final class BreakpointsViewModel {
    /** What the panel asks of the session. */
    public interface Actions {
        void add(String spec);

        void remove(int id);

        void enable(int id, boolean on);
    }

    /** The chooser's first entry: the field holds a whole spec. */
    public static final String AS_TYPED = "spec as typed";
    /** The kinds the chooser offers, as the engine spells them. */
    public static final List<String> KINDS = List.of(AS_TYPED, "line", "barrier", "mbarrier", "tx-zero", "arrive",
            "wait-false", "park", "deadlock", "diagnostic");

    private final ObservableList<BreakpointRow> rows = FXCollections.observableArrayList();
    private final ObservableList<BreakpointRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final StringProperty text = new SimpleStringProperty("");
    private final ObjectProperty<String> kind = new SimpleObjectProperty<>(AS_TYPED);
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");
    private final ReadOnlyIntegerWrapper hit = new ReadOnlyIntegerWrapper(-1);
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Breakpoints");
    private final Actions actions;
    /** The spec last sent to the session: cleared from the field once the session accepts it. */
    private String sent;

    public BreakpointsViewModel(Actions actions) { this.actions = actions; }

    /** The chosen kind's fields (argument and conditions), used when the free-text field is empty. */
    private final BreakpointForm form = new BreakpointForm();

    /**
     * Adds what the field (and the chooser) says; with a kind chosen and the field empty, what the kind's
     * fields say. An empty field with "spec as typed" does nothing.
     */
    public void add() {
        String typed = text.get() == null ? "" : text.get().strip();
        String spec;
        if (typed.isEmpty() && BreakpointForm.knows(kind.get())) {
            try {
                spec = form.spec(kind.get());
            } catch (IllegalArgumentException e) {
                error.set(e.getMessage());
                return;
            }
        } else {
            spec = compose(kind.get(), text.get());
        }
        if (spec.isEmpty()) {
            error.set("Write a breakpoint, e.g. line:42, barrier, mbarrier:full,phase=1, tx-zero, park, deadlock");
            return;
        }
        error.set("");
        sent = spec;
        actions.add(spec);
    }

    public void remove(BreakpointRow r) {
        if (r != null) actions.remove(r.id());
    }

    public void setEnabled(BreakpointRow r, boolean on) {
        if (r != null && r.enabled() != on) actions.enable(r.id(), on);
    }

    /** The session's list after any change. */
    public void update(List<BreakpointRow> list) {
        if (sent != null && list.stream().anyMatch(r -> r.spec().equals(sent))) {
            text.set(""); // accepted: the field is ready for the next one
            sent = null;
            error.set("");
        }
        if (!rows.equals(list)) rows.setAll(list);
        title.set(list.isEmpty() ? "Breakpoints" : "Breakpoints (" + list.size() + ")");
    }

    /** The session refused a breakpoint: its message, shown under the field. */
    public void refused(String message) {
        sent = null;
        error.set(message == null ? "" : message);
    }

    /** The breakpoint the last move stopped at, or -1. */
    public void stoppedAt(int id) { hit.set(id); }

    /** A new file: no breakpoints, no message. */
    public void clear() {
        update(List.of());
        hit.set(-1);
        error.set("");
    }

    /**
     * The spec the field and the chooser make: the field as typed when it already starts with a
     * kind (or the chooser says so); else the chosen kind with the field as its argument
     * ({@code full,phase=1} after {@code mbarrier} gives {@code mbarrier:full,phase=1}) or as its
     * conditions ({@code warp=2} after {@code arrive} gives {@code arrive,warp=2}).
     */
    public static String compose(String kind, String text) {
        String t = text == null ? "" : text.strip();
        if (kind == null || kind.equals(AS_TYPED) || startsWithKind(t)) return t;
        if (t.isEmpty()) return kind;
        if (t.startsWith(",") || t.startsWith(":")) return kind + t;
        String head = t.split(",", 2)[0];
        return kind + (head.contains("=") ? "," : ":") + t;
    }

    private static boolean startsWithKind(String t) {
        String word = t.split("[:,]", 2)[0].strip().toLowerCase(Locale.ROOT);
        return KINDS.contains(word) && !word.equals(AS_TYPED);
    }

    public ObservableList<BreakpointRow> rows() { return readOnlyRows; }
    /** The kind's fields. */
    public BreakpointForm form() { return form; }

    /** The spec the kind's fields make now, or "" (as typed, or a field is wrong). */
    public String formSpec() {
        if (!BreakpointForm.knows(kind.get())) return "";
        try {
            return form.spec(kind.get());
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
    /** The add field. */
    public StringProperty textProperty() { return text; }
    /** The kind chooser: {@link #AS_TYPED} or a kind word. */
    public ObjectProperty<String> kindProperty() { return kind; }
    /** Why the last spec was refused, or "". */
    public ReadOnlyStringProperty errorProperty() { return error.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty hitProperty() { return hit.getReadOnlyProperty(); }
    /** "Breakpoints" or "Breakpoints (3)", for the tab. */
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
}
