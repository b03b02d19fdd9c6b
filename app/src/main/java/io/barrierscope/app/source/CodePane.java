package io.barrierscope.app.source;

import java.util.Collection;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;
import java.util.function.Supplier;
import javafx.scene.Node;
import org.fxmisc.richtext.model.StyleSpans;

/**
 * A read-only code pane with the few things both source panes need: text with style spans, line
 * marks switched on and off, a line brought into view, and clicks reported as lines. Its lines
 * are reused cells ({@link CodeList}). Lines are 1-based.
 */
final class CodePane {
    private final CodeList list = new CodeList();
    /** Lines kept between a followed line and the pane's top or bottom edge. */
    static final int SPARE = 2;
    private boolean fresh = true; // text set since the last scroll: the visible lines are not yet known
    private int followed; // the line follow() keeps in view, 0 for none

    CodePane(String id, String stylesheet) {
        list.setId(id);
        list.getStylesheets().add(CodePane.class.getResource(stylesheet).toExternalForm());
        // A pane that shrinks or whose font grows (presentation mode) must not leave the followed line out of view.
        list.onResized(() -> { if (followed > 0) follow(followed); });
    }

    Node node() { return list; }

    CodeList list() { return list; }

    /** How a line cell's gutter is made (once per cell) and filled for a line (each time the cell shows one). */
    void setGutter(Supplier<Gutter> make, ObjIntConsumer<Gutter> fill) { list.setGutter(make, fill); }

    /** Fills the gutters in view again: what they show (breakpoints, warps) changed. */
    void refreshGutters() { list.refreshGutters(); }

    void setText(String text, StyleSpans<Collection<String>> spans) {
        list.setText(text, spans != null && text.length() > 0 ? CompactSpans.of(text, spans) : spans);
        list.scrollTo(0);
        fresh = true;
        followed = 0;
    }

    int lineCount() { return list.lineCount(); }

    /** Reports the 1-based line of every primary click on the text. */
    void onLineClicked(IntConsumer action) { list.onLineClicked(action); }

    /** Scrolls so the line is in the middle of the pane. */
    void reveal(int line) {
        list.showLineAtCenter(line);
        fresh = false;
    }

    /**
     * Keeps a line in view as it moves (the followed warp's line): scrolls it to the middle only
     * when it is not already in view with {@link #SPARE} lines to spare, so a step to a nearby
     * line scrolls nothing. Right after new text the pane's visible lines are not known yet: then
     * it always scrolls.
     */
    void follow(int line) {
        if (line < 1 || line > lineCount()) return;
        followed = line;
        if (!fresh) {
            int first = list.firstVisibleLine();
            int last = list.lastVisibleLine();
            if (first > 0 && line >= first + SPARE && line <= last - SPARE) return;
        }
        reveal(line);
    }

    /** Moves a line mark from the lines in {@code before} to those in {@code after}. */
    void restyle(String style, Set<Integer> before, Set<Integer> after) {
        for (int l : before) if (!after.contains(l)) setStyle(l, style, false);
        for (int l : after) setStyle(l, style, true);
    }

    /** Adds or removes one mark (a pseudo-class of the line's cell) on a line, keeping the others. */
    void setStyle(int line, String style, boolean on) {
        if (line < 1 || line > lineCount()) return;
        list.setMark(line, style, on);
    }
}
