package io.barrierscope.app.threads;

import io.barrierscope.app.session.GlobalBuffers;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The launch's global buffers beside the shared memory: one buffer at a time, by name, as a typed
 * array; the elements whose value differs from the previous stop are marked (when that stop was
 * one step earlier, they are what the last step changed), and "go to the step that wrote it" asks
 * the session for the last write of an element.
 */
public final class GlobalMemoryViewModel {
    /** One element: index, address, value as its type prints, whether it changed, and the value before. */
    public record Row(long index, String address, String value, boolean changed, String before) {}

    private final ObservableList<String> names = FXCollections.observableArrayList();
    private final StringProperty buffer = new SimpleStringProperty();
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Global memory");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private GlobalBuffers shown;
    private GlobalBuffers previous;
    private BiConsumer<String, Long> writerFinder = (b, i) -> { };
    /** Up to this many changed rows are replaced one by one; more, the list at once. */
    private static final int FEW = 64;
    /** The buffer the rows show (name, base, type), to keep rows that did not change. */
    private String rowsName;
    private long rowsBase;
    private io.barrierscope.ptx.ScalarType rowsType;
    /** The values the rows were made from. */
    private List<Number> rowsValues = List.of();

    public GlobalMemoryViewModel() {
        buffer.addListener((o, a, b) -> rebuild());
    }

    /** A new stop's buffers; the last ones become what changes are measured against. */
    public void update(GlobalBuffers g) {
        if (g != null && shown != null && g.step() == shown.step()) {
            shown = g; // the same stop again (e.g. a re-post): nothing changed since the previous one
        } else {
            previous = shown;
            shown = g;
        }
        List<String> n = new ArrayList<>();
        if (g != null) for (GlobalBuffers.Buffer b : g.buffers()) n.add(b.name());
        if (!names.equals(n)) names.setAll(n);
        if (buffer.get() == null || !n.contains(buffer.get())) buffer.set(n.isEmpty() ? null : n.get(0));
        else rebuild();
    }

    /** A new file: nothing to compare with. */
    public void clear() {
        shown = null;
        previous = null;
        names.clear();
        buffer.set(null);
        rows.clear();
        rowsName = null;
        status.set("");
        title.set("Global memory");
    }

    private void rebuild() {
        GlobalBuffers.Buffer b = shown == null || buffer.get() == null ? null : shown.buffer(buffer.get());
        if (b == null) {
            rows.clear();
            rowsName = null;
            title.set(shown == null ? "Global memory" : "Global memory: the launch has no buffers");
            return;
        }
        GlobalBuffers.Buffer was = previous == null ? null : previous.buffer(b.name());
        boolean comparable = was != null && was.type() == b.type() && previous.step() != shown.step();
        // Rows of the same buffer are kept where they read the same: a step changes few elements,
        // and a table of thousands must not be remade (nor its addresses formatted) each step.
        boolean sameBuffer = b.name().equals(rowsName) && b.base() == rowsBase && b.type() == rowsType
                && rows.size() == b.values().size();
        List<Row> next = new ArrayList<>(b.values().size());
        int changed = 0;
        for (int i = 0; i < b.values().size(); i++) {
            Number value = b.values().get(i);
            Number before = comparable && i < was.values().size() ? was.values().get(i) : null;
            boolean c = before != null && !before.equals(value); // equal numbers print the same
            if (c) changed++;
            Row cur = sameBuffer ? rows.get(i) : null;
            if (cur != null && !c && !cur.changed() && value.equals(rowsValues.get(i))) {
                next.add(cur); // the same value, unmarked before and now: nothing to print again
                continue;
            }
            String v = text(value);
            String old = c ? text(before) : "";
            next.add(cur != null && cur.value().equals(v) && cur.changed() == c && cur.before().equals(old) ? cur
                    : new Row(i, cur != null ? cur.address() : String.format("0x%x", b.base() + (long) i * b.type().bytes()),
                            v, c, old));
        }
        rowsValues = b.values();
        int differ = 0;
        if (sameBuffer) for (int i = 0; i < next.size(); i++) if (next.get(i) != rows.get(i)) differ++;
        if (sameBuffer && differ <= FEW) {
            for (int i = 0; i < next.size() && differ > 0; i++) {
                if (next.get(i) != rows.get(i)) {
                    rows.set(i, next.get(i));
                    differ--;
                }
            }
        } else if (!sameBuffer || differ > 0) {
            rows.setAll(next); // one change event rather than many
        }
        rowsName = b.name();
        rowsBase = b.base();
        rowsType = b.type();
        String since = !comparable ? ""
                : previous.step() == shown.step() - 1 ? ", " + changed + " changed by the last step"
                : ", " + changed + " changed since step " + previous.step();
        title.set(b.name() + ": " + b.elements() + " × ." + b.type().ptxName() + " at 0x" + Long.toHexString(b.base())
                + (b.values().size() < b.elements() ? " (first " + b.values().size() + " shown)" : "") + " · step " + shown.step() + since);
    }

    private static String text(Number n) {
        if (n instanceof Double d) return Double.toString(d);
        if (n instanceof Float f) return Float.toString(f);
        return n.toString();
    }

    /** Where "go to the step that wrote it" sends its question (the session). */
    public void setWriterFinder(BiConsumer<String, Long> finder) { writerFinder = finder; }

    /** Asks for the step that last wrote the element at {@code index} of the buffer shown. */
    public void goToWriter(long index) {
        if (buffer.get() == null || index < 0) return;
        status.set("Searching for the last write to " + buffer.get() + "[" + index + "] ...");
        writerFinder.accept(buffer.get(), index);
    }

    /** What the search found (the session's answer). */
    public void told(String text) { status.set(text); }

    public ObservableList<String> names() { return names; }
    /** The buffer shown, by name. */
    public StringProperty bufferProperty() { return buffer; }
    public ObservableList<Row> rows() { return rows; }
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
}
