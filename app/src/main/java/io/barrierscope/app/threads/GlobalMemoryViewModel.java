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
        status.set("");
        title.set("Global memory");
    }

    private void rebuild() {
        GlobalBuffers.Buffer b = shown == null || buffer.get() == null ? null : shown.buffer(buffer.get());
        if (b == null) {
            rows.clear();
            title.set(shown == null ? "Global memory" : "Global memory: the launch has no buffers");
            return;
        }
        GlobalBuffers.Buffer was = previous == null ? null : previous.buffer(b.name());
        boolean comparable = was != null && was.type() == b.type() && previous.step() != shown.step();
        List<Row> next = new ArrayList<>(b.values().size());
        int changed = 0;
        for (int i = 0; i < b.values().size(); i++) {
            String v = text(b.values().get(i));
            String old = comparable && i < was.values().size() ? text(was.values().get(i)) : null;
            boolean c = old != null && !old.equals(v);
            if (c) changed++;
            next.add(new Row(i, String.format("0x%x", b.base() + (long) i * b.type().bytes()), v, c, c ? old : ""));
        }
        rows.setAll(next);
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
