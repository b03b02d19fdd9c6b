package io.barrierscope.app.source;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import org.fxmisc.flowless.VirtualizedScrollPane;
import org.fxmisc.richtext.CodeArea;
import org.fxmisc.richtext.LineNumberFactory;

/**
 * The PTX source: a read-only RichTextFX code area with syntax colours, line numbers, a gutter
 * badge counting the warps on each line, the followed warp's line highlighted and kept in view,
 * and the lines diagnostics point at marked.
 */
public final class SourceView {
    private static final String CURRENT = "current-line";
    private static final String DIAGNOSED = "diagnostic-line";

    private final SourceViewModel vm;
    private final CodeArea area = new CodeArea();
    private final VirtualizedScrollPane<CodeArea> root = new VirtualizedScrollPane<>(area);
    private int shownLine;
    private Set<Integer> shownDiagnostics = Set.of();

    public SourceView(SourceViewModel vm) {
        this.vm = vm;
        area.setId("sourceArea");
        area.setEditable(false);
        area.getStylesheets().add(SourceView.class.getResource("ptx.css").toExternalForm());
        area.setParagraphGraphicFactory(gutter());
        root.getStyleClass().add("source-view");

        vm.linesProperty().addListener((o, a, lines) -> showText(lines));
        vm.currentLineProperty().addListener((o, a, line) -> showCurrentLine(line.intValue()));
        vm.diagnosticLinesProperty().addListener((o, a, lines) -> markDiagnostics(lines));
        showText(vm.getLines());
    }

    public Node root() { return root; }

    /** Line number plus the warp badge, both small factories evaluated per visible paragraph. */
    private IntFunction<Node> gutter() {
        IntFunction<Node> numbers = LineNumberFactory.get(area);
        return paragraph -> {
            Label badge = new Label();
            badge.getStyleClass().add("warp-badge");
            int line = paragraph + 1;
            // The binding observes the VM weakly, so recycled gutter nodes are collected.
            badge.textProperty().bind(Bindings.createStringBinding(() -> vm.warpBadge(line), vm.warpsAtLineProperty()));
            badge.visibleProperty().bind(badge.textProperty().isNotEmpty());
            badge.setMinWidth(Region.USE_PREF_SIZE);
            Region spacer = new Region();
            spacer.setPrefWidth(58);
            spacer.setMinWidth(58);
            HBox box = new HBox(numbers.apply(paragraph), new StackPane(spacer, badge));
            box.setAlignment(Pos.CENTER_LEFT);
            return box;
        };
    }

    private void showText(List<String> lines) {
        shownLine = 0;
        shownDiagnostics = Set.of();
        String text = String.join("\n", lines);
        area.replaceText(text);
        area.setStyleSpans(0, PtxHighlighter.highlight(text));
        area.moveTo(0);
        area.showParagraphAtTop(0);
    }

    private void showCurrentLine(int line) {
        setStyle(shownLine, CURRENT, false);
        shownLine = line;
        if (line <= 0 || line > area.getParagraphs().size()) return;
        setStyle(line, CURRENT, true);
        area.showParagraphAtCenter(line - 1);
    }

    private void markDiagnostics(Set<Integer> lines) {
        for (int l : shownDiagnostics) setStyle(l, DIAGNOSED, false);
        shownDiagnostics = lines;
        for (int l : lines) setStyle(l, DIAGNOSED, true);
    }

    /** Adds or removes one paragraph style class on a 1-based line, keeping the others. */
    private void setStyle(int line, String style, boolean on) {
        int p = line - 1;
        if (p < 0 || p >= area.getParagraphs().size()) return;
        Collection<String> now = area.getParagraph(p).getParagraphStyle();
        LinkedHashSet<String> next = new LinkedHashSet<>(now);
        if (on ? next.add(style) : next.remove(style)) area.setParagraphStyle(p, List.copyOf(next));
    }
}
