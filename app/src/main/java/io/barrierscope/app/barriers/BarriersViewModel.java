package io.barrierscope.app.barriers;

import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.MbarrierRow;
import io.barrierscope.app.session.PanelRow;
import io.barrierscope.app.session.Snapshot;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The barriers pane: every CTA barrier in use, then every valid mbarrier, with a one-line
 * headline.
 */
public final class BarriersViewModel {
    private final ObservableList<PanelRow> rows = FXCollections.observableArrayList();
    private final ObservableList<PanelRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper headline = new ReadOnlyStringWrapper(headline(List.of(), List.of()));

    public void update(Snapshot s) {
        List<PanelRow> next = new ArrayList<>(s.barriers().size() + s.mbarriers().size());
        next.addAll(s.barriers());
        next.addAll(s.mbarriers());
        // Replace only on change: setAll on every step would reset the table's selection.
        if (!rows.equals(next)) rows.setAll(next);
        headline.set(headline(s.barriers(), s.mbarriers()));
    }

    public void clear() {
        rows.clear();
        headline.set(headline(List.of(), List.of()));
    }

    static String headline(List<BarrierRow> barriers, List<MbarrierRow> mbarriers) {
        long waiting = barriers.stream().filter(BarrierRow::waiting).count();
        String cta = barriers.isEmpty() ? "CTA barriers: none used yet"
                : "CTA barriers: " + barriers.size() + " used, " + waiting + " with warps waiting";
        if (mbarriers.isEmpty()) return cta;
        long stuck = mbarriers.stream().filter(MbarrierRow::stuck).count();
        return cta + " · mbarriers: " + mbarriers.size() + " valid" + (stuck > 0 ? ", " + stuck + " deadlocked" : "");
    }

    /** CTA barriers by CTA and barrier, then mbarriers by CTA and offset. */
    public ObservableList<PanelRow> rows() { return readOnlyRows; }
    public ReadOnlyStringProperty headlineProperty() { return headline.getReadOnlyProperty(); }
}
