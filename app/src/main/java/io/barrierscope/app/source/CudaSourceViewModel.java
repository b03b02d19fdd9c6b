package io.barrierscope.app.source;

import io.barrierscope.app.session.BreakpointRow;
import io.barrierscope.app.session.CudaFile;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.SourceMap;
import io.barrierscope.diag.CudaLoc;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The CUDA source pane's state: the files the PTX's {@code .file} lines name, the one on show,
 * the line the followed warp's instruction came from ({@code .loc}), and the lines linked from
 * the PTX pane. When the followed warp moves into another file that is available, the pane
 * follows it. Lines are 1-based; 0 means none.
 */
public final class CudaSourceViewModel {
    private final ReadOnlyObjectWrapper<List<CudaFile>> files = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyObjectWrapper<CudaFile> shown = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<List<String>> lines = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("No file is open.");
    private final ReadOnlyStringWrapper focusNote = new ReadOnlyStringWrapper("");
    private final ReadOnlyIntegerWrapper currentLine = new ReadOnlyIntegerWrapper(0);
    private final ReadOnlyObjectWrapper<Set<Integer>> linkedLines = new ReadOnlyObjectWrapper<>(Set.of());
    private final ReadOnlyObjectWrapper<Reveal> reveal = new ReadOnlyObjectWrapper<>(Reveal.NONE);
    private SourceMap map = SourceMap.EMPTY;
    private CudaLoc focus;
    /** Where the focused instruction was inlined, when its own file is not available; else null. */
    private CudaLoc focusCall;
    private Consumer<List<Integer>> onLineClicked = l -> {};
    private final ReadOnlyObjectWrapper<Map<Integer, Boolean>> breakpointLines = new ReadOnlyObjectWrapper<>(Map.of());
    private List<BreakpointRow> breakpoints = List.of();
    private BiConsumer<String, Integer> onToggleBreakpoint = (f, l) -> {};

    public void load(OpenedFile f) {
        map = f.sourceMap();
        focus = null;
        files.set(f.cudaFiles());
        linkedLines.set(Set.of());
        currentLine.set(0);
        focusNote.set("");
        CudaFile first = f.cudaFiles().stream().filter(CudaFile::available).findFirst().orElse(null);
        show(first != null ? first : f.cudaFiles().isEmpty() ? null : f.cudaFiles().get(0));
        if (f.cudaFiles().isEmpty()) {
            message.set(map.isEmpty()
                    ? "No CUDA source: this PTX has no .loc line information (compile with nvcc -lineinfo)."
                    : "No CUDA source: this PTX names no .file.");
        }
    }

    /**
     * Follows the focused warp's CUDA location; inside an inlined function whose file is not
     * available, its call site (from the PTX line's {@code inlined_at}).
     */
    public void update(CudaLoc loc, int ptxLine) {
        focus = loc;
        focusCall = null;
        if (loc != null && !available(loc.file())) {
            CudaLoc call = map.callSiteOf(ptxLine);
            if (call != null && available(call.file())) focusCall = call;
        }
        CudaLoc target = focusCall != null ? focusCall : loc;
        if (target != null) {
            CudaFile f = file(target.file());
            if (f != null && f.available() && !f.equals(shown.get())) show(f);
        }
        showFocus();
    }

    private boolean available(String name) {
        CudaFile f = file(name);
        return f != null && f.available();
    }

    /** The user chose a file to look at. */
    public void showFile(CudaFile f) {
        if (f != null && !f.equals(shown.get())) {
            show(f);
            showFocus();
        }
    }

    /** The user clicked a line: it is linked here, and the PTX pane shows the lines that came from it. */
    public void clickLine(int line) {
        CudaFile f = shown.get();
        if (f == null || !f.available() || line < 1 || line > f.lines().size()) return;
        linkedLines.set(Set.of(line));
        onLineClicked.accept(map.ptxLinesOf(f.name(), line));
    }

    /** The PTX pane linked a line: show where it came from. */
    public void showPtxLine(int ptxLine) {
        CudaLoc loc = map.cudaOf(ptxLine);
        if (loc == null) {
            linkedLines.set(Set.of());
            return;
        }
        CudaFile f = file(loc.file());
        if (f != null && f.available() && !f.equals(shown.get())) {
            show(f);
            showFocus();
        }
        if (shown.get() != null && shown.get().name().equals(loc.file())) {
            linkedLines.set(Set.of(loc.line()));
            reveal.set(reveal.get().next(loc.line()));
        } else {
            linkedLines.set(Set.of());
        }
    }

    /** A click in the gutter: asks for a breakpoint on that line of the shown file to be set or removed. */
    public void toggleBreakpoint(int line) {
        CudaFile f = shown.get();
        if (f == null || !f.available() || line < 1 || line > f.lines().size()) return;
        onToggleBreakpoint.accept(f.name(), line);
    }

    /** Called with the file (as the PTX names it) and line of a gutter click. */
    public void setOnToggleBreakpoint(BiConsumer<String, Integer> action) {
        onToggleBreakpoint = action == null ? (f, l) -> {} : action;
    }

    /** The session's breakpoints: the CUDA line ones in the shown file are marked in the gutter. */
    public void setBreakpoints(List<BreakpointRow> rows) {
        breakpoints = List.copyOf(rows);
        markBreakpoints();
    }

    private void markBreakpoints() {
        CudaFile f = shown.get();
        Map<Integer, Boolean> out = new HashMap<>();
        for (BreakpointRow r : breakpoints) {
            if (f != null && r.cudaFile() != null && sameFile(r.cudaFile(), f.name())) {
                out.merge(r.cudaLine(), r.enabled(), Boolean::logicalOr);
            }
        }
        if (!out.equals(breakpointLines.get())) breakpointLines.set(Map.copyOf(out));
    }

    /** The gutter marker of a 1-based line of the shown file. */
    public SourceViewModel.Marker breakpointMarker(int line) {
        Boolean on = breakpointLines.get().get(line);
        return on == null ? SourceViewModel.Marker.NONE : on ? SourceViewModel.Marker.ENABLED : SourceViewModel.Marker.DISABLED;
    }

    private static boolean sameFile(String a, String b) {
        return a.equals(b) || a.endsWith("/" + b) || b.endsWith("/" + a);
    }

    /** Called with the PTX lines of a clicked CUDA line (empty if none came from it). */
    public void setOnLineClicked(Consumer<List<Integer>> action) { onLineClicked = action == null ? l -> {} : action; }

    /** The CUDA lines of the shown file that some instruction came from. */
    public Set<Integer> mappedLines() {
        CudaFile f = shown.get();
        return f == null ? Set.of() : map.mappedLines(f.name());
    }

    private CudaFile file(String name) {
        for (CudaFile f : files.get()) if (f.name().equals(name)) return f;
        return null;
    }

    private void show(CudaFile f) {
        linkedLines.set(Set.of());
        shown.set(f);
        lines.set(f != null && f.available() ? f.lines() : List.of());
        if (f == null) message.set("No CUDA source.");
        else if (!f.available()) message.set(f.name() + " is not available: " + f.problem()
                + (f.path() == null ? "" : " (looked for " + f.path() + ")") + ".");
        else message.set("");
        markBreakpoints();
    }

    private void showFocus() {
        CudaFile f = shown.get();
        if (focus == null) {
            currentLine.set(0);
            focusNote.set("");
        } else if (focusCall != null && f != null && f.name().equals(focusCall.file())) {
            currentLine.set(focusCall.line());
            focusNote.set("followed warp: in " + fileName(focus.file()) + ":" + focus.line() + ", inlined at line " + focusCall.line());
        } else if (f != null && f.name().equals(focus.file())) {
            currentLine.set(f.available() ? focus.line() : 0);
            focusNote.set("followed warp: " + focus);
        } else {
            currentLine.set(0);
            CudaFile other = file(focus.file());
            focusNote.set("followed warp: " + focus + (other != null && !other.available() ? " (file not available)" : ""));
        }
    }

    private static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The files the PTX names, most used first. */
    public ReadOnlyObjectProperty<List<CudaFile>> filesProperty() { return files.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<CudaFile> shownProperty() { return shown.getReadOnlyProperty(); }
    /** The shown file's text; empty when it is not available. */
    public ReadOnlyObjectProperty<List<String>> linesProperty() { return lines.getReadOnlyProperty(); }
    /** Why there is no text to show, or "" when there is. */
    public ReadOnlyStringProperty messageProperty() { return message.getReadOnlyProperty(); }
    /** Where the followed warp is in CUDA terms, e.g. "followed warp: kernel.cu:28:9". */
    public ReadOnlyStringProperty focusNoteProperty() { return focusNote.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty currentLineProperty() { return currentLine.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Set<Integer>> linkedLinesProperty() { return linkedLines.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Reveal> revealProperty() { return reveal.getReadOnlyProperty(); }
    /** Lines of the shown file with breakpoints (true: at least one of them enabled). */
    public ReadOnlyObjectProperty<Map<Integer, Boolean>> breakpointLinesProperty() { return breakpointLines.getReadOnlyProperty(); }
}
