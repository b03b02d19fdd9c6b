package io.barrierscope.app.threads;

import io.barrierscope.app.session.Inspection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The registers of the inspected thread, named as in the PTX, with hex and decimal values; a
 * value that changed since the last look at the same thread is flagged, as debuggers do.
 */
public final class RegistersViewModel {
    /** One register row. */
    public record Row(String name, String type, String hex, String decimal, boolean changed) {}

    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Registers");
    private final ReadOnlyIntegerWrapper updates = new ReadOnlyIntegerWrapper();
    private int slot = -1;
    private Map<String, Long> previous = Map.of();

    public void update(Inspection i) {
        if (i == null) {
            clear();
            return;
        }
        boolean sameThread = i.slot() == slot;
        Map<String, Long> now = new HashMap<>();
        List<Row> next = new ArrayList<>(i.registers().size());
        for (Inspection.RegisterValue r : i.registers()) {
            Long before = previous.get(r.name());
            boolean changed = sameThread && before != null && before != r.bits();
            next.add(new Row(r.name(), "." + r.type().ptxName(), RegisterFormat.hex(r.type(), r.bits()),
                    RegisterFormat.decimal(r.type(), r.bits()), changed));
            now.put(r.name(), r.bits());
        }
        slot = i.slot();
        previous = now;
        title.set("Registers of " + i.threadName() + (i.function().isEmpty() ? "" : " in " + i.function()));
        replace(next);
        updates.set(updates.get() + 1);
    }

    public void clear() {
        slot = -1;
        previous = Map.of();
        rows.clear();
        title.set("Registers");
        updates.set(updates.get() + 1);
    }

    /** Row by row, so the table keeps its scroll position and selection while values change. */
    private void replace(List<Row> next) {
        if (rows.size() != next.size()) {
            rows.setAll(next);
            return;
        }
        for (int k = 0; k < next.size(); k++) if (!rows.get(k).equals(next.get(k))) rows.set(k, next.get(k));
    }

    public ObservableList<Row> rows() { return readOnlyRows; }
    /** Counts the updates: changes once after all of an update's rows changed (the rows change one by one). */
    public ReadOnlyIntegerProperty updatesProperty() { return updates.getReadOnlyProperty(); }
    /** E.g. "Registers of CTA (0,0,0) thread (5,0,0) in block_reduce". */
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
}
