package io.barrierscope.app.source;

import io.barrierscope.app.session.BreakpointRow;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.SourcePos;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntConsumer;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The PTX source pane's state: the text, the line the followed warp stands on, how many warps
 * stand on each line, the lines diagnostics point at, and the lines linked from elsewhere (a
 * click in the CUDA pane, a diagnostic, a thread). Lines are 1-based; 0 means none.
 */
public final class SourceViewModel {
    private final ReadOnlyStringWrapper sourceName = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<List<String>> lines = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyIntegerWrapper currentLine = new ReadOnlyIntegerWrapper(0);
    private final ReadOnlyObjectWrapper<Map<Integer, Integer>> warpsAtLine = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyObjectWrapper<Set<Integer>> diagnosticLines = new ReadOnlyObjectWrapper<>(Set.of());
    private final ReadOnlyObjectWrapper<Set<Integer>> linkedLines = new ReadOnlyObjectWrapper<>(Set.of());
    private final ReadOnlyObjectWrapper<Set<Integer>> waiterLines = new ReadOnlyObjectWrapper<>(Set.of());
    private final ReadOnlyObjectWrapper<Reveal> reveal = new ReadOnlyObjectWrapper<>(Reveal.NONE);
    private final ReadOnlyObjectWrapper<Map<Integer, Boolean>> breakpointLines = new ReadOnlyObjectWrapper<>(Map.of());
    private IntConsumer onLineClicked = l -> {};
    private IntConsumer onToggleBreakpoint = l -> {};

    /** Shows a newly opened file; the line markers wait for its first snapshot. */
    public void load(OpenedFile file) {
        currentLine.set(0);
        warpsAtLine.set(Map.of());
        diagnosticLines.set(Set.of());
        linkedLines.set(Set.of());
        waiterLines.set(Set.of());
        sourceName.set(file.ptxName());
        lines.set(file.ptxLines());
    }

    public void update(Snapshot s) {
        warpsAtLine.set(s.warpsAtLine());
        diagnosticLines.set(linesOf(s.diagnostics(), sourceName.get()));
        currentLine.set(s.focusLine());
    }

    /** Marks the lines where threads wait on the barrier selected in the barriers pane. */
    public void setWaiterLines(Set<Integer> ptxLines) { waiterLines.set(ptxLines == null ? Set.of() : Set.copyOf(ptxLines)); }

    /** The user clicked a line: it is linked, and whoever listens (the CUDA pane) follows. */
    public void clickLine(int line) {
        if (line < 1 || line > lines.get().size()) return;
        linkedLines.set(Set.of(line));
        onLineClicked.accept(line);
    }

    /** Links these lines (from a CUDA line, say) and brings the first into view. */
    public void showLinked(Collection<Integer> ptxLines) {
        linkedLines.set(Set.copyOf(ptxLines));
        if (!ptxLines.isEmpty()) reveal.set(reveal.get().next(new TreeSet<>(ptxLines).first()));
    }

    /** Links one line and brings it into view (a diagnostic or a thread points there). */
    public void reveal(int line) {
        if (line < 1) return;
        showLinked(List.of(line));
    }

    public void setOnLineClicked(IntConsumer action) { onLineClicked = action == null ? l -> {} : action; }

    /** A click in the gutter: asks for the line's breakpoint to be set or removed. */
    public void toggleBreakpoint(int line) {
        if (line >= 1 && line <= lines.get().size()) onToggleBreakpoint.accept(line);
    }

    public void setOnToggleBreakpoint(IntConsumer action) { onToggleBreakpoint = action == null ? l -> {} : action; }

    /** The session's breakpoints: the PTX line ones are marked in the gutter. */
    public void setBreakpoints(List<BreakpointRow> rows) {
        Map<Integer, Boolean> out = new HashMap<>();
        for (BreakpointRow r : rows) if (r.ptxLine() > 0) out.merge(r.ptxLine(), r.enabled(), Boolean::logicalOr);
        if (!out.equals(breakpointLines.get())) breakpointLines.set(Map.copyOf(out));
    }

    /** The gutter marker of a 1-based line: none, an enabled breakpoint, or only disabled ones. */
    public Marker breakpointMarker(int line) {
        Boolean on = breakpointLines.get().get(line);
        return on == null ? Marker.NONE : on ? Marker.ENABLED : Marker.DISABLED;
    }

    /** A breakpoint marker in a gutter; disabled breakpoints are drawn hollow. */
    public enum Marker { NONE, ENABLED, DISABLED }

    /** The gutter badge for a 1-based line: the number of warps standing there, or "". */
    public String warpBadge(int line) {
        Integer n = warpsAtLine.get().get(line);
        return n == null ? "" : n == 1 ? "1 warp" : n + " warps";
    }

    /** The PTX lines the diagnostics point at (in this PTX file). */
    private static Set<Integer> linesOf(List<Diagnostic> diagnostics, String ptxName) {
        Set<Integer> out = new TreeSet<>();
        for (Diagnostic d : diagnostics) {
            for (SourcePos p : d.ptxLocations()) {
                if (p.file() == null || ptxName.isEmpty() || sameFile(p.file(), ptxName)) out.add(p.line());
            }
        }
        return Set.copyOf(out);
    }

    private static boolean sameFile(String a, String b) {
        return a.equals(b) || a.endsWith("/" + b) || b.endsWith("/" + a);
    }

    public ReadOnlyStringProperty sourceNameProperty() { return sourceName.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<List<String>> linesProperty() { return lines.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty currentLineProperty() { return currentLine.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Map<Integer, Integer>> warpsAtLineProperty() { return warpsAtLine.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Set<Integer>> diagnosticLinesProperty() { return diagnosticLines.getReadOnlyProperty(); }
    /** Lines linked from elsewhere, highlighted apart from the current line. */
    /** Lines where threads wait on the selected barrier. */
    public ReadOnlyObjectProperty<Set<Integer>> waiterLinesProperty() { return waiterLines.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Set<Integer>> linkedLinesProperty() { return linkedLines.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Reveal> revealProperty() { return reveal.getReadOnlyProperty(); }
    /** Lines with breakpoints (true: at least one of them enabled). */
    public ReadOnlyObjectProperty<Map<Integer, Boolean>> breakpointLinesProperty() { return breakpointLines.getReadOnlyProperty(); }

    public List<String> getLines() { return lines.get(); }
    public int getCurrentLine() { return currentLine.get(); }
}
