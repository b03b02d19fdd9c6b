package io.barrierscope.app.diagnostics;

import io.barrierscope.check.Diagnostic;
import io.barrierscope.ptx.CudaLoc;
import io.barrierscope.ptx.SourcePos;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Every diagnostic of the run with its code, severity, the step it fired at, its message and
 * its locations. Activating one (double-click, Enter) sends the panes to its first location.
 */
public final class DiagnosticsViewModel {
    /** One diagnostic as the table shows it; {@code ptxLine} is where activating it goes (0: nowhere). */
    public record Row(String code, String severity, long step, String message, String locations, int ptxLine,
                      String summary) {}

    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObservableList<Row> readOnlyRows = FXCollections.unmodifiableObservableList(rows);
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Diagnostics");
    private List<Diagnostic> shown = List.of();
    private Consumer<Row> onActivate = r -> {};

    public void update(List<Diagnostic> diagnostics) {
        if (diagnostics.equals(shown)) return; // most steps add none: keep the table as it is
        shown = List.copyOf(diagnostics);
        List<Row> next = new ArrayList<>(diagnostics.size());
        for (Diagnostic d : diagnostics) next.add(row(d));
        rows.setAll(next);
        title.set(diagnostics.isEmpty() ? "Diagnostics" : "Diagnostics (" + diagnostics.size() + ")");
    }

    public void clear() { update(List.of()); }

    /** The user asked to go to a diagnostic's place. */
    public void activate(Row r) {
        if (r != null) onActivate.accept(r);
    }

    public void setOnActivate(Consumer<Row> action) { onActivate = action == null ? r -> {} : action; }

    static Row row(Diagnostic d) {
        StringBuilder where = new StringBuilder();
        for (SourcePos p : d.ptxLocations()) {
            if (where.length() > 0) where.append(", ");
            where.append("PTX ").append(p.line());
        }
        for (CudaLoc c : d.cudaLocations()) where.append(where.length() > 0 ? ", " : "").append(c);
        int line = d.ptxLocations().isEmpty() ? 0 : d.ptxLocations().get(0).line();
        return new Row(d.code().code(), d.severity().jsonName(), d.step(), d.message(), where.toString(), line,
                d.code().summary());
    }

    public ObservableList<Row> rows() { return readOnlyRows; }
    /** "Diagnostics" or "Diagnostics (3)", for the tab. */
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
}
