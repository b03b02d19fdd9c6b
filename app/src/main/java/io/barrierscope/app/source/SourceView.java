package io.barrierscope.app.source;

import java.util.List;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;

/**
 * The PTX source: a read-only code pane of reused line cells with syntax colours, line numbers, a gutter badge
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
    /** The warp badge's column in the gutter ("32 warps" fits); kept on lines without warps too. */
    private static final double BADGE_WIDTH = 58;

    private final SourceViewModel vm;
    private final CodePane code = new CodePane("sourceArea", "ptx.css");
    private int shownLine;
    private Set<Integer> shownDiagnostics = Set.of();
    private Set<Integer> shownLinked = Set.of();
    private Set<Integer> shownWaiters = Set.of();

    public SourceView(SourceViewModel vm) {
        this.vm = vm;
        code.setGutter(() -> new Gutter(BADGE_WIDTH, vm::toggleBreakpoint), (g, line) -> {
            g.setMarker(vm.breakpointMarker(line));
            showBadge(g, vm.warpBadge(line));
        });
        vm.breakpointLinesProperty().addListener((o, a, b) -> code.refreshGutters());
        vm.warpsAtLineProperty().addListener((o, a, b) -> code.refreshGutters());
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

    static int digits(int lines) { return Integer.toString(Math.max(1, lines)).length(); }

    /** The gutter's badge reading {@code text}, made or dropped as the line gains or loses its warps. */
    private static void showBadge(Gutter g, String text) {
        if (text == null || text.isEmpty()) {
            g.setSlot(null);
        } else if (g.slot() instanceof Label badge) {
            badge.setText(text);
            g.setSlot(badge);
        } else {
            Label badge = new Label(text);
            badge.getStyleClass().add("warp-badge");
            badge.setMinWidth(Region.USE_PREF_SIZE);
            g.setSlot(badge);
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
        code.follow(line);
    }
}
