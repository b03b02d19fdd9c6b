package io.barrierscope.app.source;

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
import org.fxmisc.richtext.LineNumberFactory;

/**
 * The PTX source: a read-only code area with syntax colours, line numbers, a gutter badge
 * counting the warps on each line, the followed warp's line highlighted and kept in view, the
 * lines diagnostics point at marked, lines linked from the CUDA pane highlighted, and breakpoint
 * markers in the gutter. A click on a line links it to the CUDA pane; a click in the gutter sets
 * or removes a breakpoint ({@code line:N}).
 */
public final class SourceView {
    private static final String CURRENT = "current-line";
    private static final String DIAGNOSED = "diagnostic-line";
    private static final String LINKED = "linked-line";
    static final String WAITER = "barrier-waiter-line";

    private final SourceViewModel vm;
    private final CodePane code = new CodePane("sourceArea", "ptx.css");
    private int shownLine;
    private Set<Integer> shownDiagnostics = Set.of();
    private Set<Integer> shownLinked = Set.of();
    private Set<Integer> shownWaiters = Set.of();

    public SourceView(SourceViewModel vm) {
        this.vm = vm;
        code.setGutter(gutter());
        code.node().getStyleClass().add("source-view");
        code.onLineClicked(vm::clickLine);

        vm.linesProperty().addListener((o, a, lines) -> showText(lines));
        vm.currentLineProperty().addListener((o, a, line) -> showCurrentLine(line.intValue()));
        vm.diagnosticLinesProperty().addListener((o, a, lines) -> {
            code.restyle(DIAGNOSED, shownDiagnostics, lines);
            shownDiagnostics = lines;
        });
        vm.linkedLinesProperty().addListener((o, a, lines) -> {
            code.restyle(LINKED, shownLinked, lines);
            shownLinked = lines;
        });
        vm.waiterLinesProperty().addListener((o, a, lines) -> {
            code.restyle(WAITER, shownWaiters, lines);
            shownWaiters = lines;
        });
        vm.revealProperty().addListener((o, a, r) -> code.reveal(r.line()));
        showText(vm.getLines());
    }

    public Node root() { return code.node(); }

    /** Breakpoint marker, line number and warp badge, small factories evaluated per visible paragraph. */
    private IntFunction<Node> gutter() {
        IntFunction<Node> numbers = LineNumberFactory.get(code.area());
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
            HBox box = new HBox();
            StackPane mark = new StackPane(BreakpointMarker.of(line, vm::breakpointMarker, vm.breakpointLinesProperty(),
                    box, vm::toggleBreakpoint));
            mark.setMinWidth(14);
            mark.setPrefWidth(14);
            box.getChildren().addAll(mark, numbers.apply(paragraph), new StackPane(spacer, badge));
            box.setAlignment(Pos.CENTER_LEFT);
            return box;
        };
    }

    private void showText(List<String> lines) {
        shownLine = 0;
        shownDiagnostics = Set.of();
        shownLinked = Set.of();
        shownWaiters = Set.of();
        String text = String.join("\n", lines);
        code.setText(text, PtxHighlighter.highlight(text));
    }

    private void showCurrentLine(int line) {
        code.setStyle(shownLine, CURRENT, false);
        shownLine = line;
        if (line <= 0 || line > code.lineCount()) return;
        code.setStyle(line, CURRENT, true);
        code.reveal(line);
    }
}
