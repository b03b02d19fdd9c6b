package io.barrierscope.app.source;

import io.barrierscope.app.LayoutNow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;
import javafx.collections.FXCollections;
import javafx.css.PseudoClass;
import javafx.geometry.Bounds;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.shape.Path;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import org.fxmisc.richtext.model.StyleSpan;
import org.fxmisc.richtext.model.StyleSpans;

/**
 * A read-only source text as a virtualized list of line cells that are reused: a cell keeps its
 * gutter and its text nodes and, when it is given another line, only sets their texts and style
 * classes (docs/performance.md, "Reused source-pane lines"). A line's marks (the current line, a
 * linked line, ...) are pseudo-classes on its cell, so moving them makes no node. Items are the
 * 1-based line numbers. Selected lines are copied with Ctrl+C. The public methods read it, for
 * tests; the views change it through {@link CodePane}.
 */
public final class CodeList extends ListView<Integer> {
    /** The line marks the panes use; each is a pseudo-class of the same name on a line's cell. */
    private static final List<String> MARKS = List.of("current-line", "diagnostic-line", "linked-line", "barrier-waiter-line");

    private String[] lines = new String[0];
    /** Per line, its style spans as (end column, style classes) pairs, from {@link CompactSpans}. */
    private List<List<Span>> spans = List.of();
    private final Map<String, Set<Integer>> marks = new LinkedHashMap<>();
    /** The cells made so far (held weakly: the list may drop cells, e.g. when the font changes). */
    private final Set<LineCell> cells = java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>());
    private int version; // bumped with new text: a cell showing the same line number shows it anew
    private Supplier<Gutter> gutterMaker;
    private ObjIntConsumer<Gutter> gutterFill = (g, l) -> {};
    private IntConsumer clicked = l -> {};

    private record Span(int end, List<String> style) {}

    CodeList() {
        getStyleClass().add("code-area");
        getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        for (String m : MARKS) marks.put(m, new TreeSet<>());
        setCellFactory(l -> new LineCell());
        addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.isShortcutDown() && e.getCode() == KeyCode.C) {
                copySelection();
                e.consume();
            }
        });
    }

    void setGutter(Supplier<Gutter> make, ObjIntConsumer<Gutter> fill) {
        gutterMaker = make;
        gutterFill = fill;
    }

    void onLineClicked(IntConsumer action) { clicked = action; }

    private Runnable resized = () -> {};
    private double laidOutHeight = -1;
    private double laidOutRow = -1;

    /** Runs after a layout that changed the list's height or its rows' height (a pane resized, presentation mode's font). */
    void onResized(Runnable action) { resized = action; }

    @Override
    protected void layoutChildren() {
        super.layoutChildren();
        // Every line is one row high: with that height fixed, the virtual flow places and scrolls
        // by arithmetic instead of giving a spare cell line after line to measure (each measure
        // styled and laid out the cell: most of a stop's or a far jump's FX time), and its
        // scroll range is exact, so a pane scrolled to its end shows the last line whole.
        double natural = naturalRowHeight();
        if (natural > 0 && natural != getFixedCellSize()) setFixedCellSize(natural);
        double row = rowHeight(-1);
        if (getHeight() != laidOutHeight || row != laidOutRow) {
            boolean first = laidOutHeight < 0;
            laidOutHeight = getHeight();
            laidOutRow = row;
            // After this pass: the cells in view are known then.
            if (!first) javafx.application.Platform.runLater(resized);
        }
    }

    /** The height a line's cell asks for (its gutter and text; the same for all lines), or 0 before any shows a line. */
    private double naturalRowHeight() {
        double h = 0;
        for (LineCell c : cells) {
            if (c.line > 0 && c.getParent() != null && c.isVisible()) {
                h = Math.max(h, snapSizeY(c.snappedTopInset() + c.box.prefHeight(-1) + c.snappedBottomInset()));
            }
        }
        return h;
    }

    /** The height of a laid-out line cell (all lines are one row high), or {@code none} before any is laid out. */
    private double rowHeight(double none) {
        if (getFixedCellSize() > 0) return getFixedCellSize(); // a cell dropped by the flow may keep an older font's height
        for (LineCell c : cells) if (c.line > 0 && c.getHeight() > 0) return c.getHeight();
        return none;
    }

    void setText(String text, StyleSpans<Collection<String>> styleSpans) {
        lines = text.split("\n", -1); // no text is one empty line, as in a text area
        spans = splitSpans(styleSpans);
        for (Set<Integer> s : marks.values()) s.clear();
        version++;
        getSelectionModel().clearSelection();
        List<Integer> items = new ArrayList<>(lines.length);
        for (int i = 1; i <= lines.length; i++) items.add(i);
        getItems().setAll(FXCollections.observableArrayList(items));
        refreshCells();
    }

    /** Per line spans: a span running over a line end is cut there. */
    private List<List<Span>> splitSpans(StyleSpans<Collection<String>> styleSpans) {
        List<List<Span>> out = new ArrayList<>(lines.length);
        for (int i = 0; i < lines.length; i++) out.add(new ArrayList<>(2));
        if (styleSpans == null || lines.length == 0) return out;
        int line = 0;
        int col = 0; // column in the line where the current span's rest starts
        for (StyleSpan<Collection<String>> s : styleSpans) {
            int left = s.getLength();
            List<String> style = List.copyOf(s.getStyle());
            while (left > 0 && line < lines.length) {
                int room = lines[line].length() - col;
                if (left <= room) {
                    col += left;
                    add(out.get(line), col, style);
                    left = 0;
                } else {
                    if (room > 0) add(out.get(line), lines[line].length(), style);
                    left -= room + 1; // the line end
                    line++;
                    col = 0;
                }
            }
        }
        return out;
    }

    private static void add(List<Span> line, int end, List<String> style) {
        if (!line.isEmpty() && line.get(line.size() - 1).style.equals(style)) line.set(line.size() - 1, new Span(end, style));
        else line.add(new Span(end, style));
    }

    void setMark(int line, String mark, boolean on) {
        Set<Integer> s = marks.get(mark);
        if (s == null || !(on ? s.add(line) : s.remove(line))) return;
        for (LineCell c : cells) if (c.line == line) c.showMarks();
    }

    /** Fills every cell's gutter again (the breakpoints or the warps changed). */
    void refreshGutters() {
        for (LineCell c : cells) if (c.line > 0 && c.gutter != null) gutterFill.accept(c.gutter, c.line);
    }

    private void refreshCells() {
        for (LineCell c : cells) if (c.line > 0) c.show(c.line);
    }

    private void copySelection() {
        List<Integer> sel = new ArrayList<>(getSelectionModel().getSelectedItems());
        if (sel.isEmpty()) return;
        sel.sort(null);
        StringBuilder b = new StringBuilder();
        for (int l : sel) b.append(b.length() > 0 ? "\n" : "").append(lineText(l));
        ClipboardContent c = new ClipboardContent();
        c.putString(b.toString());
        Clipboard.getSystemClipboard().setContent(c);
    }

    // ---- reading ----

    private boolean isEmptyText() { return lines.length == 1 && lines[0].isEmpty(); }

    public int lineCount() { return lines.length; }

    public String lineText(int line) { return lines[line - 1]; }

    public String text() { return String.join("\n", lines); }

    /** The marks of a 1-based line (the model's; cells in view show the same, see {@link #shownMarks}). */
    public Set<String> marks(int line) {
        Set<String> out = new TreeSet<>();
        marks.forEach((m, s) -> { if (s.contains(line)) out.add(m); });
        return out;
    }

    /** The marks a line's cell in view shows as pseudo-classes, or empty if the line is not in a cell. */
    public Optional<Set<String>> shownMarks(int line) {
        for (LineCell c : cells) {
            if (c.line != line || c.getParent() == null || !c.isVisible()) continue;
            Set<String> out = new TreeSet<>();
            for (String m : MARKS) if (c.getPseudoClassStates().contains(PseudoClass.getPseudoClass(m))) out.add(m);
            return Optional.of(out);
        }
        return Optional.empty();
    }

    private VirtualFlow<?> flow() {
        return lookup(".virtual-flow") instanceof VirtualFlow<?> f ? f : null;
    }

    /** The first line in view (partly or fully), or 0 before the list is laid out. */
    public int firstVisibleLine() {
        VirtualFlow<?> f = flow();
        IndexedCell<?> c = f == null ? null : f.getFirstVisibleCell();
        return c == null || c.getIndex() < 0 ? 0 : c.getIndex() + 1;
    }

    /** The last line in view (partly or fully), or 0 before the list is laid out. */
    public int lastVisibleLine() {
        VirtualFlow<?> f = flow();
        IndexedCell<?> c = f == null ? null : f.getLastVisibleCell();
        return c == null || c.getIndex() < 0 ? 0 : Math.min(c.getIndex() + 1, lines.length);
    }

    /** Scrolls so the line is in the middle of the list; the cells in view show their new lines at once ({@link LayoutNow}). */
    public void showLineAtCenter(int line) {
        if (line < 1 || line > lines.length) return;
        double row = rowHeight(18);
        int rows = (int) Math.max(1, getHeight() / row);
        int top = Math.max(0, line - 1 - rows / 2);
        VirtualFlow<?> f = flow();
        // A top row from which the text's end would be in view, even partly: the flow's own scroll
        // there can leave the last line under the horizontal scroll bar (or the pane's edge); its
        // end position cannot, and the line stays in view (it is within the last rows/2 lines).
        if (f != null && top + rows >= lines.length - 1) {
            f.setPosition(1);
            f.layout();
            f.scrollTo(lines.length - 1); // by pixels, until the last line's cell is whole
        } else {
            scrollTo(top);
        }
        LayoutNow.ifShown(this);
    }

    /** The cell showing a line, if it is in view. */
    private Optional<LineCell> cell(int line) {
        return cells.stream().filter(c -> c.line == line && c.getParent() != null && c.isVisible()).findFirst();
    }

    /** The gutter of a line in view. */
    public Optional<Region> gutter(int line) { return cell(line).map(c -> (Region) c.gutter); }

    /** Where characters {@code from} to {@code to} (0-based columns) of a line in view are on the screen. */
    public Optional<Bounds> characterBoundsOnScreen(int line, int from, int to) {
        return cell(line).map(c -> {
            Path p = new Path(c.flow.rangeShape(from, to));
            return c.flow.localToScreen(p.getBoundsInLocal());
        });
    }

    /** The bounds of the line's text (past the gutter) on the screen, if it is in view. */
    public Optional<Bounds> lineTextBoundsOnScreen(int line) {
        return cell(line).map(c -> c.flow.localToScreen(c.flow.getBoundsInLocal()));
    }

    /**
     * A line's cell: the gutter and the text flow in a box, made once; a new line sets the gutter's
     * number and the texts and style classes of the text nodes, reusing those it has (a line with
     * fewer spans leaves its extra nodes empty).
     */
    private final class LineCell extends ListCell<Integer> {
        private final TextFlow flow = new TextFlow();
        private final HBox box = new HBox();
        private Gutter gutter;
        private int line; // 0: none
        private int shownVersion = -1;

        LineCell() {
            getStyleClass().add("code-line");
            flow.getStyleClass().add("line-text");
            flow.setMinWidth(Region.USE_PREF_SIZE); // no wrapping: a long line scrolls
            HBox.setHgrow(flow, Priority.ALWAYS);
            setText(null);
            setGraphic(box);
            cells.add(this);
            addEventHandler(MouseEvent.MOUSE_CLICKED, e -> {
                if (e.getButton() == MouseButton.PRIMARY && line > 0 && !e.isConsumed() && !isEmptyText()) clicked.accept(line);
            });
        }

        @Override
        protected void updateItem(Integer item, boolean empty) {
            super.updateItem(item, empty);
            int l = empty || item == null ? 0 : item;
            if (l == line && shownVersion == version) return;
            show(l);
        }

        void show(int l) {
            line = l;
            shownVersion = version;
            if (l <= 0 || l > lines.length) {
                line = 0;
                box.setVisible(false);
                showMarks();
                return;
            }
            box.setVisible(true);
            if (gutter == null && gutterMaker != null) {
                gutter = gutterMaker.get();
                box.getChildren().setAll(gutter, flow);
            } else if (box.getChildren().isEmpty()) {
                box.getChildren().setAll(flow);
            }
            if (gutter != null) {
                gutter.setLine(l, SourceView.digits(lines.length));
                gutterFill.accept(gutter, l);
            }
            String s = lines[l - 1];
            List<Span> sp = spans.get(l - 1);
            var nodes = flow.getChildren();
            int start = 0;
            int i = 0;
            for (Span span : sp) {
                Text t = text(i++);
                t.setText(s.substring(start, Math.min(span.end, s.length())));
                setStyle(t, span.style);
                start = span.end;
            }
            if (start < s.length() || sp.isEmpty()) {
                Text t = text(i++);
                t.setText(s.substring(Math.min(start, s.length())));
                setStyle(t, List.of());
            }
            for (; i < nodes.size(); i++) ((Text) nodes.get(i)).setText("");
            showMarks();
        }

        private Text text(int i) {
            var nodes = flow.getChildren();
            while (nodes.size() <= i) {
                Text t = new Text();
                t.getStyleClass().add("text");
                nodes.add(t);
            }
            return (Text) nodes.get(i);
        }

        /** Sets a text node's style classes only when they differ: a change makes CSS style it again. */
        private static void setStyle(Text t, List<String> style) {
            var now = t.getStyleClass();
            if (now.size() == style.size() + 1 && now.subList(1, now.size()).equals(style)) return;
            List<String> next = new ArrayList<>(style.size() + 1);
            next.add("text");
            next.addAll(style);
            now.setAll(next);
        }

        void showMarks() {
            for (Map.Entry<String, Set<Integer>> m : marks.entrySet()) {
                pseudoClassStateChanged(PseudoClass.getPseudoClass(m.getKey()), line > 0 && m.getValue().contains(line));
            }
        }
    }
}
