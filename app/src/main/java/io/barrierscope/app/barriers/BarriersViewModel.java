package io.barrierscope.app.barriers;

import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.Snapshot;
import java.util.List;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** The barriers pane: every CTA barrier in use, with a one-line headline. */
public final class BarriersViewModel {
    private final ObservableList<BarrierRow> rows = FXCollections.observableArrayList();
    private final ObservableList<BarrierRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper headline = new ReadOnlyStringWrapper(headline(List.of()));

    public void update(Snapshot s) {
        // Replace only on change: setAll on every step would reset the table's selection.
        if (!rows.equals(s.barriers())) rows.setAll(s.barriers());
        headline.set(headline(s.barriers()));
    }

    public void clear() {
        rows.clear();
        headline.set(headline(List.of()));
    }

    static String headline(List<BarrierRow> rows) {
        long waiting = rows.stream().filter(BarrierRow::waiting).count();
        if (rows.isEmpty()) return "CTA barriers: none used yet";
        return "CTA barriers: " + rows.size() + " used, " + waiting + " with warps waiting";
    }

    public ObservableList<BarrierRow> rows() { return readOnlyRows; }
    public ReadOnlyStringProperty headlineProperty() { return headline.getReadOnlyProperty(); }
}
