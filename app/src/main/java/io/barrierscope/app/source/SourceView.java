package io.barrierscope.app.source;

import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
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
            int line = paragraph + 1;
            // Few nodes per line: a far jump makes every visible line's gutter anew, and each node
            // is styled and laid out (docs/performance.md, "Window responsiveness"). So the badge,
            // a label, exists only while its line has warps; the slot keeps its width either way.
            StackPane badgeSlot = new StackPane();
            badgeSlot.setMinWidth(58);
            badgeSlot.setPrefWidth(58);
            // The binding observes the VM weakly, so recycled gutter nodes are collected; the slot
            // holds it so it lives as long as the gutter.
            StringBinding text = Bindings.createStringBinding(() -> vm.warpBadge(line), vm.warpsAtLineProperty());
            badgeSlot.getProperties().put(StringBinding.class, text);
            text.addListener((o, a, t) -> showBadge(badgeSlot, t));
            showBadge(badgeSlot, text.get());
            HBox box = new HBox();
            Node mark = BreakpointMarker.of(line, vm::breakpointMarker, vm.breakpointLinesProperty(), box, vm::toggleBreakpoint);
            HBox.setMargin(mark, BreakpointMarker.MARGIN);
            box.getChildren().addAll(mark, numbers.apply(paragraph), badgeSlot);
            box.setAlignment(Pos.CENTER_LEFT);
            return box;
        };
    }

    /** The slot's badge reading {@code text}, made or dropped as the line gains or loses its warps. */
    private static void showBadge(StackPane slot, String text) {
        if (text == null || text.isEmpty()) {
            slot.getChildren().clear();
        } else if (slot.getChildren().isEmpty()) {
            Label badge = new Label(text);
            badge.getStyleClass().add("warp-badge");
            badge.setMinWidth(Region.USE_PREF_SIZE);
            slot.getChildren().add(badge);
        } else {
            ((Label) slot.getChildren().get(0)).setText(text);
        }
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
