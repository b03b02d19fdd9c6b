package io.barrierscope.app.source;

import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.check.Diagnostic;
import io.barrierscope.ptx.SourcePos;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The PTX source pane's state: the text, the line the followed warp stands on, how many warps
 * stand on each line, and the lines diagnostics point at. Lines are 1-based; 0 means none.
 */
public final class SourceViewModel {
    private final ReadOnlyStringWrapper sourceName = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<List<String>> lines = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyIntegerWrapper currentLine = new ReadOnlyIntegerWrapper(0);
    private final ReadOnlyObjectWrapper<Map<Integer, Integer>> warpsAtLine = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyObjectWrapper<Set<Integer>> diagnosticLines = new ReadOnlyObjectWrapper<>(Set.of());

    /** Shows a newly opened file; the line markers wait for its first snapshot. */
    public void load(OpenedFile file) {
        currentLine.set(0);
        warpsAtLine.set(Map.of());
        diagnosticLines.set(Set.of());
        sourceName.set(file.ptxName());
        lines.set(file.ptxLines());
    }

    public void update(Snapshot s) {
        warpsAtLine.set(s.warpsAtLine());
        diagnosticLines.set(linesOf(s.diagnostics(), sourceName.get()));
        currentLine.set(s.focusLine());
    }

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

    public List<String> getLines() { return lines.get(); }
    public int getCurrentLine() { return currentLine.get(); }
}
