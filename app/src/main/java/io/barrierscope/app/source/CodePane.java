package io.barrierscope.app.source;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import javafx.scene.Node;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import org.fxmisc.flowless.VirtualizedScrollPane;
import org.fxmisc.richtext.CodeArea;
import org.fxmisc.richtext.model.StyleSpans;
import org.fxmisc.richtext.model.TwoDimensional;

/**
 * A read-only RichTextFX code area with the few things both source panes need: text with style
 * spans, line styles switched on and off, a line brought into view, and clicks reported as
 * lines. Lines are 1-based.
 */
final class CodePane {
    private final CodeArea area = new CodeArea();
    private final VirtualizedScrollPane<CodeArea> scroll = new VirtualizedScrollPane<>(area);
    /** Lines kept between a followed line and the pane's top or bottom edge. */
    static final int SPARE = 2;
    private boolean fresh = true; // text set since the last scroll: the visible lines are not yet known

    CodePane(String id, String stylesheet) {
        area.setId(id);
        area.setEditable(false);
        area.getStylesheets().add(CodePane.class.getResource(stylesheet).toExternalForm());
    }

    Node node() { return scroll; }

    CodeArea area() { return area; }

    void setGutter(IntFunction<Node> factory) { area.setParagraphGraphicFactory(factory); }

    void setText(String text, StyleSpans<Collection<String>> spans) {
        area.replaceText(text);
        if (spans != null && text.length() > 0) area.setStyleSpans(0, CompactSpans.of(text, spans));
        area.moveTo(0);
        area.showParagraphAtTop(0);
        fresh = true;
    }

    int lineCount() { return area.getParagraphs().size(); }

    /** Reports the 1-based line of every primary click on the text. */
    void onLineClicked(IntConsumer action) {
        area.addEventHandler(MouseEvent.MOUSE_CLICKED, e -> {
            if (e.getButton() != MouseButton.PRIMARY || area.getLength() == 0) return;
            int offset = area.hit(e.getX(), e.getY()).getInsertionIndex();
            action.accept(area.offsetToPosition(offset, TwoDimensional.Bias.Forward).getMajor() + 1);
        });
    }

    /** Scrolls so the line is in the middle of the pane. */
    void reveal(int line) {
        if (line >= 1 && line <= lineCount()) area.showParagraphAtCenter(line - 1);
        fresh = false;
    }

    /**
     * Keeps a line in view as it moves (the followed warp's line): scrolls it to the middle only
     * when it is not already in view with {@link #SPARE} lines to spare. A step to a nearby line
     * then scrolls nothing, so RichTextFX makes no cells for lines coming into view (it makes
     * every such line anew, docs/performance.md). Right after new text the pane's visible lines
     * are not known yet: then it always scrolls.
     */
    void follow(int line) {
        if (line < 1 || line > lineCount()) return;
        int p = line - 1;
        if (!fresh && !area.getVisibleParagraphs().isEmpty()) {
            int first = area.firstVisibleParToAllParIndex();
            int last = area.lastVisibleParToAllParIndex();
            if (p >= first + SPARE && p <= last - SPARE) return;
        }
        reveal(line);
    }

    /** Moves a line style from the lines in {@code before} to those in {@code after}. */
    void restyle(String style, Set<Integer> before, Set<Integer> after) {
        for (int l : before) if (!after.contains(l)) setStyle(l, style, false);
        for (int l : after) setStyle(l, style, true);
    }

    /** Adds or removes one paragraph style class on a line, keeping the others. */
    void setStyle(int line, String style, boolean on) {
        int p = line - 1;
        if (p < 0 || p >= lineCount()) return;
        Collection<String> now = area.getParagraph(p).getParagraphStyle();
        LinkedHashSet<String> next = new LinkedHashSet<>(now);
        if (on ? next.add(style) : next.remove(style)) area.setParagraphStyle(p, List.copyOf(next));
    }
}
