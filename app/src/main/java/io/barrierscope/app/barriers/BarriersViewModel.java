package io.barrierscope.app.barriers;

import io.barrierscope.app.session.BarrierDetail;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.session.BarrierRow;
import io.barrierscope.app.session.ClusterBarrierRow;
import io.barrierscope.app.session.MbarrierRow;
import io.barrierscope.app.session.PanelRow;
import io.barrierscope.app.session.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The barriers pane: every CTA barrier in use, then every valid mbarrier, then every cluster's
 * barrier.cluster in use, with a one-line headline; and for the selected one its roster (who arrived in the current generation or phase,
 * who has not), its history of completions (each a place to seek to) and its waiters (PTX lines
 * and timeline lanes to highlight).
 */
public final class BarriersViewModel {
    private final ObservableList<PanelRow> rows = FXCollections.observableArrayList();
    private final ObservableList<PanelRow> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper headline = new ReadOnlyStringWrapper(headline(List.of(), List.of(), List.of()));

    private final ReadOnlyObjectWrapper<BarrierKey> selected = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper detailTitle = new ReadOnlyStringWrapper(NO_SELECTION);
    private final ReadOnlyStringWrapper detailSummary = new ReadOnlyStringWrapper("");
    private final ObservableList<String> arrived = FXCollections.observableArrayList();
    private final ObservableList<String> missing = FXCollections.observableArrayList();
    private final ObservableList<BarrierDetail.Completion> history = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<Set<Integer>> waiterLines = new ReadOnlyObjectWrapper<>(Set.of());
    private final ReadOnlyObjectWrapper<Set<Integer>> waiterWarps = new ReadOnlyObjectWrapper<>(Set.of());
    private List<BarrierDetail.Who> arrivedWho = List.of();
    private List<BarrierDetail.Who> missingWho = List.of();
    private Consumer<BarrierKey> onSelect = k -> {};
    private Consumer<BarrierDetail.Who> onPick = w -> {};
    private LongConsumer onSeek = s -> {};
    private boolean replacing;
    private List<BarrierRow> shownBarriers;
    private List<MbarrierRow> shownMbarriers;
    private List<ClusterBarrierRow> shownClusters;

    static final String NO_SELECTION = "Select a barrier to see who arrived, who is missing and its completions.";

    public void update(Snapshot s) {
        // The session hands on the same lists when no barrier changed: nothing to do.
        if (s.barriers() == shownBarriers && s.mbarriers() == shownMbarriers && s.clusterBarriers() == shownClusters) return;
        shownBarriers = s.barriers();
        shownMbarriers = s.mbarriers();
        shownClusters = s.clusterBarriers();
        List<PanelRow> next = new ArrayList<>(s.barriers().size() + s.mbarriers().size() + s.clusterBarriers().size());
        next.addAll(s.barriers());
        next.addAll(s.mbarriers());
        next.addAll(s.clusterBarriers());
        // Replace only on change: setAll on every step would reset the table's selection. When
        // they do change the table drops its selection; the selected barrier stays (the view
        // selects its new row).
        if (!rows.equals(next)) {
            replacing = true;
            try {
                rows.setAll(next);
            } finally {
                replacing = false;
            }
        }
        headline.set(headline(s.barriers(), s.mbarriers(), s.clusterBarriers()));
    }

    public void clear() {
        shownBarriers = null;
        shownMbarriers = null;
        shownClusters = null;
        rows.clear();
        headline.set(headline(List.of(), List.of(), List.of()));
        boolean had = selected.get() != null;
        selected.set(null);
        showDetail(null);
        if (had) onSelect.accept(null);
    }

    /** The user selected a row (null: none); the session is asked for its detail. */
    public void select(PanelRow row) {
        if (replacing && row == null) return; // the table lost its selection to new rows
        BarrierKey key = row == null ? null : BarrierKey.of(row);
        if (Objects.equals(key, selected.get())) return;
        selected.set(key);
        if (key == null) showDetail(null);
        onSelect.accept(key);
    }

    /**
     * Selects a barrier because something else pointed at it (a thread waiting on it, a
     * diagnostic): no callback (the caller asks the session for its detail); the view selects its row.
     */
    public void show(BarrierKey key) {
        if (Objects.equals(key, selected.get())) return;
        selected.set(key);
        if (key == null) showDetail(null);
    }

    /** The session's detail of the selected barrier; one of a barrier no longer selected is ignored. */
    public void showDetail(BarrierDetail d) {
        if (d != null && !d.key().equals(selected.get())) return;
        if (d == null) {
            detailTitle.set(selected.get() == null ? NO_SELECTION : "This barrier is not in the run at this step.");
            detailSummary.set("");
            arrived.clear();
            missing.clear();
            history.clear();
            arrivedWho = List.of();
            missingWho = List.of();
            waiterLines.set(Set.of());
            waiterWarps.set(Set.of());
            return;
        }
        detailTitle.set(d.title());
        detailSummary.set(d.summary());
        List<String> in = new ArrayList<>(d.arrived());
        in.addAll(d.tx());
        arrived.setAll(in);
        missing.setAll(d.missing());
        history.setAll(d.history());
        arrivedWho = d.arrivedWho();
        missingWho = d.missingWho();
        waiterLines.set(d.waiterLines());
        waiterWarps.set(d.waiterWarps());
    }

    /** The row of the selected barrier in {@link #rows}, or -1 (to select it again after the rows changed). */
    public int selectedIndex() {
        BarrierKey key = selected.get();
        if (key == null) return -1;
        for (int i = 0; i < rows.size(); i++) if (BarrierKey.of(rows.get(i)).equals(key)) return i;
        return -1;
    }

    /** The user picked a completion: the session goes to the step right after it. */
    public void seekTo(BarrierDetail.Completion c) {
        if (c != null) onSeek.accept(c.step());
    }

    /** The user picked entry {@code i} of {@link #arrived()}: its warp or thread is selected everywhere. */
    public void pickArrived(int i) { pick(arrivedWho, i); }

    /** The user picked entry {@code i} of {@link #missing()}. */
    public void pickMissing(int i) { pick(missingWho, i); }

    private void pick(List<BarrierDetail.Who> who, int i) {
        if (i >= 0 && i < who.size() && who.get(i).named()) onPick.accept(who.get(i));
    }

    /** Called with the warp or thread of a roster entry the user picked. */
    public void setOnPick(Consumer<BarrierDetail.Who> action) { onPick = action == null ? w -> {} : action; }

    public void setOnSelect(Consumer<BarrierKey> action) { onSelect = action == null ? k -> {} : action; }
    public void setOnSeek(LongConsumer action) { onSeek = action == null ? s -> {} : action; }

    static String headline(List<BarrierRow> barriers, List<MbarrierRow> mbarriers, List<ClusterBarrierRow> clusters) {
        long waiting = barriers.stream().filter(BarrierRow::waiting).count();
        String out = barriers.isEmpty() ? "CTA barriers: none used yet"
                : "CTA barriers: " + barriers.size() + " used, " + waiting + " with warps waiting";
        if (!mbarriers.isEmpty()) {
            long stuck = mbarriers.stream().filter(MbarrierRow::stuck).count();
            out += " · mbarriers: " + mbarriers.size() + " valid" + (stuck > 0 ? ", " + stuck + " deadlocked" : "");
        }
        if (!clusters.isEmpty()) {
            long stuck = clusters.stream().filter(ClusterBarrierRow::stuck).count();
            long open = clusters.stream().filter(ClusterBarrierRow::waiting).count();
            out += " · cluster barriers: " + clusters.size() + " used, " + open + " with a phase open"
                    + (stuck > 0 ? ", " + stuck + " deadlocked" : "");
        }
        return out;
    }

    /** CTA barriers by CTA and barrier, then mbarriers by CTA and offset, then cluster barriers by cluster. */
    public ObservableList<PanelRow> rows() { return readOnlyRows; }
    public ReadOnlyStringProperty headlineProperty() { return headline.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<BarrierKey> selectedProperty() { return selected.getReadOnlyProperty(); }
    public ReadOnlyStringProperty detailTitleProperty() { return detailTitle.getReadOnlyProperty(); }
    public ReadOnlyStringProperty detailSummaryProperty() { return detailSummary.getReadOnlyProperty(); }
    /** Who arrived in the current generation or phase (and, for an mbarrier, its tx events). */
    public ObservableList<String> arrived() { return arrived; }
    /** Who has not arrived: live warps of the CTA (CTA barrier), live threads of the CTA (mbarrier) or cluster (cluster barrier). */
    public ObservableList<String> missing() { return missing; }
    public ObservableList<BarrierDetail.Completion> history() { return history; }
    /** PTX lines where threads wait on the selected barrier. */
    public ReadOnlyObjectProperty<Set<Integer>> waiterLinesProperty() { return waiterLines.getReadOnlyProperty(); }
    /** Global warp numbers of those threads. */
    public ReadOnlyObjectProperty<Set<Integer>> waiterWarpsProperty() { return waiterWarps.getReadOnlyProperty(); }
}
