package io.barrierscope.app.diagnostics;

import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.SourcePos;
import io.barrierscope.exec.Dim3;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Every diagnostic of the run with its code, severity, the step it fired at, its message and
 * its locations: those fired up to the current position, and those the recording knows fire
 * later (after going back), marked so. Activating one (double-click, Enter) sends the panes to
 * its first location and the run to the step where it fired.
 */
public final class DiagnosticsViewModel {
    /**
     * One diagnostic as the table shows it; {@code ptxLine} is where activating it goes (0:
     * nowhere); {@code later}: it fires after the current position; {@code slot} the first thread
     * it names (-1: none) and {@code barrier} the barrier it concerns (null: none the barriers pane lists).
     */
    public record Row(String code, String severity, long step, String message, String locations, int ptxLine,
                      String summary, boolean later, int slot, BarrierKey barrier) {
        /** The position to go to for it: the state right after the step it fired in. */
        public long stopStep() { return step + 1; }
    }

    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Diagnostics");
    private List<Diagnostic> shown = List.of();
    private long fired = -1;
    private Dim3 grid;
    private Consumer<Row> onActivate = r -> {};

    /** The diagnostics that fired up to now (all of them when they are the recording's too). */
    public void update(List<Diagnostic> diagnostics) { update(diagnostics, Long.MAX_VALUE); }

    /** Every recorded diagnostic; those labelled at or after {@code now} are marked as later. */
    public void update(List<Diagnostic> recorded, long now) { update(recorded, now, grid); }

    /** The same, in a launch of {@code grid} CTAs (to name the barriers in the pane's terms). */
    public void update(List<Diagnostic> recorded, long now, Dim3 grid) {
        long firedNow = recorded.stream().filter(d -> d.step() < now).count();
        // most steps change nothing: keep the table
        if (recorded.equals(shown) && firedNow == fired && java.util.Objects.equals(grid, this.grid)) return;
        shown = List.copyOf(recorded);
        fired = firedNow;
        this.grid = grid;
        List<Row> next = new ArrayList<>(recorded.size());
        for (Diagnostic d : recorded) next.add(row(d, d.step() >= now, grid));
        rows.setAll(next);
        title.set(recorded.isEmpty() ? "Diagnostics" : "Diagnostics (" + recorded.size() + ")");
    }

    public void clear() { update(List.of()); }

    /** The user asked to go to a diagnostic's place. */
    public void activate(Row r) {
        if (r != null) onActivate.accept(r);
    }

    public void setOnActivate(Consumer<Row> action) { onActivate = action == null ? r -> {} : action; }

    static Row row(Diagnostic d, boolean later, Dim3 grid) {
        StringBuilder where = new StringBuilder();
        for (SourcePos p : d.ptxLocations()) {
            if (where.length() > 0) where.append(", ");
            where.append("PTX ").append(p.line());
        }
        for (CudaLoc c : d.cudaLocations()) where.append(where.length() > 0 ? ", " : "").append(c);
        int line = d.ptxLocations().isEmpty() ? 0 : d.ptxLocations().get(0).line();
        int slot = d.threads().isEmpty() ? -1 : d.threads().get(0);
        return new Row(d.code().code(), d.severity().jsonName(), d.step(), d.message(), where.toString(), line,
                d.code().summary(), later, slot, BarrierKey.of(d.barrierRef(), grid));
    }

    public ObservableList<Row> rows() { return readOnlyRows; }
    /** "Diagnostics" or "Diagnostics (3)", for the tab. */
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
}
