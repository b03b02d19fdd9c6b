package io.barrierscope.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.debugger.TestWindow;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javafx.geometry.Bounds;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.control.ListCell;
import javafx.scene.control.ScrollBar;
import javafx.scene.input.KeyCode;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The source panes' line cells are reused (docs/performance.md, "Reused source-pane lines"): far
 * jumps and scrolls give the cells in view other lines, and each then shows its own line's text,
 * colours (the highlighter's spans), number and marks, with no cell made anew.
 */
@ExtendWith(ApplicationExtension.class)
class SourcePaneCellsViewTest {
    private TestWindow w;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        w = new TestWindow(stage);
    }

    @Test
    void farJumpsReuseTheLineCellsAndEachShowsItsOwnLine(FxRobot robot) {
        w.open(robot, "tma-pipeline");
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        robot.type(KeyCode.F5); // to the end: the whole run is recorded, so jumps go anywhere in it
        WaitForAsyncUtils.waitForFxEvents();
        long end = w.vm.nowProperty().get();
        int n = ptx.lineCount();
        robot.interact(() -> ptx.showLineAtCenter(n / 2));
        WaitForAsyncUtils.waitForFxEvents();
        Set<Node> cells = Collections.newSetFromMap(new IdentityHashMap<>());
        cells.addAll(robot.from(ptx).lookup(".code-line").queryAll());
        Set<Integer> tops = new TreeSet<>();
        for (int i = 0; i < 12; i++) {
            long to = end * ((i * 5) % 12) / 12;
            int line = 1 + (int) ((long) (n - 1) * ((i * 7) % 12) / 11);
            if (i % 2 == 0) robot.interact(() -> w.vm.seek(to));
            else robot.interact(() -> ptx.showLineAtCenter(line));
            WaitForAsyncUtils.waitForFxEvents();
            tops.add(TestWindow.onFx(ptx::firstVisibleLine));
            for (Node c : robot.from(ptx).lookup(".code-line").queryAll()) {
                assertTrue(cells.contains(c), "a line cell made anew at move " + i);
            }
            TestWindow.onFx(() -> { assertCellsShowTheirLines(ptx); return null; });
            int current = w.vm.source().getCurrentLine();
            assertEquals(current > 0 ? List.of(current) : List.of(), TestWindow.linesWith(ptx, "current-line"), "move " + i);
        }
        assertTrue(tops.size() > 3, "the moves scrolled the pane to several places: " + tops);
    }

    /**
     * A line brought to the middle of a pane is in a cell, and every cell in view shows its line,
     * right away, in the same FX event, not at the next pulse's layout (docs/performance.md, "A
     * step's second frame": given their lines in the layout pass, the cells left CSS work behind
     * that made JavaFX repaint the whole window in one more frame).
     */
    @Test
    void aLineBroughtToTheMiddleIsInACellAtOnce(FxRobot robot) {
        w.open(robot, "tma-pipeline");
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        int n = ptx.lineCount();
        for (int line : new int[] {n / 2, 3, n - 1, n / 3}) {
            TestWindow.onFx(() -> {
                ptx.showLineAtCenter(line);
                assertTrue(ptx.firstVisibleLine() <= line && line <= ptx.lastVisibleLine(),
                        "line " + line + " in view at once: " + ptx.firstVisibleLine() + "-" + ptx.lastVisibleLine());
                assertTrue(ptx.lineTextBoundsOnScreen(line).isPresent(), "line " + line + " is in a cell at once");
                assertCellsShowTheirLines(ptx);
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    /**
     * Whatever styles a reused line cell given another line (today the virtual flow restyles it whole;
     * docs/performance.md, "Line cells that style only what changed (2026-11-29, tried, not kept)"),
     * it must be done in the pulse that shows the line: right after that pulse's layout, every node
     * of every line in view in both panes already looks as a full restyle makes it look (text colours
     * and fonts, the current line's background, breakpoint dots, warp badges), with breakpoints and a
     * selected line among the lines the jumps bring into view.
     */
    @Test
    void farJumpsShowEveryLineStyledInThePulseThatShowsIt(FxRobot robot) {
        w.open(robot, "tma-pipeline");
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        CodeList cuda = robot.lookup("#cudaArea").queryAs(CodeList.class);
        robot.type(KeyCode.F5);
        WaitForAsyncUtils.waitForFxEvents();
        long end = w.vm.nowProperty().get();
        robot.interact(() -> {
            ptx.getSelectionModel().select(Integer.valueOf(ptx.lineCount() / 3));
            for (int l = 1; l <= ptx.lineCount(); l += 7) {
                if (ptx.lineText(l).contains(";") && !ptx.lineText(l).strip().startsWith("//")) w.vm.source().toggleBreakpoint(l);
            }
        });
        WaitForAsyncUtils.waitForFxEvents();
        Set<Integer> tops = new TreeSet<>();
        for (int i = 0; i < 8; i++) {
            long to = end * ((i * 5) % 8) / 8;
            List<String> wrong = new ArrayList<>();
            robot.interact(() -> {
                javafx.scene.Scene scene = ptx.getScene();
                Runnable[] check = new Runnable[1];
                check[0] = () -> {
                    scene.removePostLayoutPulseListener(check[0]);
                    wrong.addAll(unstyled(ptx));
                    wrong.addAll(unstyled(cuda));
                };
                scene.addPostLayoutPulseListener(check[0]);
                w.vm.seek(to);
            });
            WaitForAsyncUtils.waitForFxEvents();
            tops.add(TestWindow.onFx(ptx::firstVisibleLine));
            assertTrue(wrong.isEmpty(), "jump " + i + ": " + String.join("; ", wrong.subList(0, Math.min(5, wrong.size()))));
        }
        assertTrue(tops.size() > 3, "the jumps moved the pane to several places: " + tops);
    }

    /** The nodes of the line cells in view whose look a full restyle of their cell changes. */
    private static List<String> unstyled(CodeList pane) {
        List<String> out = new ArrayList<>();
        for (Node c : pane.lookupAll(".code-line")) {
            if (!(c instanceof ListCell<?> cell) || !cell.isVisible() || cell.getItem() == null) continue;
            java.util.Map<Node, String> shown = new IdentityHashMap<>();
            look(c, shown);
            c.applyCss();
            java.util.Map<Node, String> styled = new IdentityHashMap<>();
            look(c, styled);
            shown.forEach((n, s) -> {
                if (!s.equals(styled.get(n))) out.add(pane.getId() + " line " + cell.getItem() + ": " + s + " instead of " + styled.get(n));
            });
        }
        return out;
    }

    private static void look(Node n, java.util.Map<Node, String> out) {
        StringBuilder s = new StringBuilder(n.getClass().getSimpleName()).append(n.getStyleClass()).append(n.getPseudoClassStates());
        if (n instanceof Text t) s.append(" '").append(t.getText()).append("' fill ").append(t.getFill()).append(' ').append(t.getFont());
        if (n instanceof javafx.scene.shape.Shape sh && !(n instanceof Text)) s.append(" fill ").append(sh.getFill()).append(" stroke ").append(sh.getStroke());
        if (n instanceof javafx.scene.layout.Region r) {
            s.append(" background ").append(r.getBackground() == null ? "none" : r.getBackground().getFills().stream().map(f -> String.valueOf(f.getFill())).toList());
            s.append(" border ").append(r.getBorder() == null ? "none" : r.getBorder().getStrokes().stream().map(b -> b.getLeftStroke() + " " + b.getWidths()).toList());
        }
        if (n instanceof javafx.scene.control.Labeled l) s.append(" text fill ").append(l.getTextFill()).append(' ').append(l.getFont());
        out.put(n, s.toString());
        if (n instanceof javafx.scene.Parent p) for (Node k : p.getChildrenUnmodifiable()) look(k, out);
    }

    @Test
    void theCurrentLineStaysInViewWhenThePaneShrinksOrPresentationModeEnlargesItsFont(FxRobot robot) {
        w.open(robot, "tma-pipeline");
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        robot.type(KeyCode.F5); // to the end: the current line is far down the PTX, in the middle of the pane
        WaitForAsyncUtils.waitForFxEvents();
        int current = w.vm.source().getCurrentLine();
        assertTrue(current > 0);
        assertFullyInView(ptx, current, "before");
        double height = stage.getHeight();
        robot.interact(() -> stage.setHeight(height * 0.55)); // the middle of the old pane is past the new one's end
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.waitForFxEvents();
        assertFullyInView(ptx, current, "in a smaller window");
        robot.interact(() -> stage.setHeight(height));
        robot.interact(() -> w.vm.appearance().presentationProperty().set(true));
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.waitForFxEvents();
        assertFullyInView(ptx, current, "in presentation mode");
    }

    /** The line is in view and not the last, partly cut, line in view (unless it ends the text). */
    private static void assertFullyInView(CodeList pane, int line, String when) {
        int first = TestWindow.onFx(pane::firstVisibleLine);
        int last = TestWindow.onFx(pane::lastVisibleLine);
        assertTrue(first <= line && (line < last || line == pane.lineCount() && last == line),
                when + ": line " + line + " with lines " + first + "-" + last + " in view");
    }

    /**
     * A pane brought to a line near the end of its file shows the file's last line whole, above the
     * pane's horizontal scroll bar (the CUDA pane's long lines need one) or its bottom edge.
     */
    @Test
    void aLineRevealedNearTheEndLeavesTheLastLineWhollyAboveTheHorizontalScrollBar(FxRobot robot) {
        w.open(robot, "tma-pipeline");
        CodeList cuda = robot.lookup("#cudaArea").queryAs(CodeList.class);
        int n = cuda.lineCount();
        assertTrue(n > 40, "a file longer than the pane: " + n);
        List<String> cut = new ArrayList<>();
        for (boolean presentation : new boolean[] {false, true}) { // two row heights
            robot.interact(() -> w.vm.appearance().presentationProperty().set(presentation));
            WaitForAsyncUtils.waitForFxEvents();
            for (int line = n - 30; line <= n; line++) {
                int l = line;
                robot.interact(() -> cuda.showLineAtCenter(1));
                WaitForAsyncUtils.waitForFxEvents();
                robot.interact(() -> cuda.showLineAtCenter(l));
                WaitForAsyncUtils.waitForFxEvents();
                TestWindow.onFx(() -> {
                    assertTrue(cuda.firstVisibleLine() <= l && l <= cuda.lastVisibleLine(), "line " + l + " in view");
                    if (cuda.lastVisibleLine() < n) return null; // the end is not in view: nothing to cut
                    Bounds last = lastLine(cuda, n);
                    double limit = bottomLimit(cuda);
                    if (last.getMaxY() > limit + 0.5) {
                        cut.add((presentation ? "presentation, " : "") + "line " + l + ": the last line ends at " + last.getMaxY() + ", past " + limit);
                    }
                    return null;
                });
            }
        }
        assertTrue(cut.isEmpty(), String.join("; ", cut));
    }

    private static Bounds lastLine(CodeList pane, int n) {
        for (Node c : pane.lookupAll(".code-line")) {
            if (c instanceof ListCell<?> cell && cell.isVisible() && Integer.valueOf(n).equals(cell.getItem())) {
                return cell.localToScene(cell.getBoundsInLocal());
            }
        }
        throw new AssertionError("the last line has no cell in view");
    }

    /** The top of the visible horizontal scroll bar, else the pane's bottom edge (scene coordinates). */
    private static double bottomLimit(CodeList pane) {
        for (Node s : pane.lookupAll(".scroll-bar")) {
            if (s instanceof ScrollBar b && b.isVisible() && b.getOrientation() == Orientation.HORIZONTAL) {
                return b.localToScene(b.getBoundsInLocal()).getMinY();
            }
        }
        return pane.localToScene(pane.getBoundsInLocal()).getMaxY();
    }

    @Test
    void selectedLinesAreCopiedWithCtrlC(FxRobot robot) {
        w.open(robot, "block-reduce");
        CodeList ptx = robot.lookup("#sourceArea").queryAs(CodeList.class);
        // Three lines in view with text (a click lands on a line's first character).
        int from = TestWindow.onFx(ptx::firstVisibleLine) + 1;
        while (ptx.lineText(from).isBlank() || ptx.lineText(from + 2).isBlank()) from++;
        int a = from;
        robot.clickOn(TestWindow.lineText(ptx, a));
        robot.press(KeyCode.SHIFT).clickOn(TestWindow.lineText(ptx, a + 2)).release(KeyCode.SHIFT);
        robot.press(KeyCode.CONTROL).type(KeyCode.C).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        String copied = TestWindow.onFx(() -> javafx.scene.input.Clipboard.getSystemClipboard().getString());
        assertEquals(String.join("\n", ptx.lineText(a), ptx.lineText(a + 1), ptx.lineText(a + 2)), copied);
    }

    /** Every cell in view shows its line's text, split into the nodes the highlighter's spans give, and its number. */
    private static void assertCellsShowTheirLines(CodeList pane) {
        var spans = CompactSpans.of(pane.text(), PtxHighlighter.highlight(pane.text()));
        for (Node n : pane.lookupAll(".code-line")) {
            ListCell<?> cell = (ListCell<?>) n;
            if (!cell.isVisible() || cell.isEmpty() || cell.getItem() == null) continue;
            int line = (Integer) cell.getItem();
            List<Text> texts = ((javafx.scene.text.TextFlow) cell.lookup(".line-text")).getChildren().stream().map(t -> (Text) t).toList();
            String shown = texts.stream().map(Text::getText).collect(Collectors.joining());
            assertEquals(pane.lineText(line), shown, "line " + line + "'s text");
            String number = ((Text) cell.lookup(".lineno-number")).getText().strip();
            assertEquals(Integer.toString(line), number, "line " + line + "'s number");
            // Each text node carries the highlighter's style at its first character (blanks joined to a token: CompactSpans).
            int col = 0;
            for (Text t : texts) {
                if (!t.getText().isEmpty()) {
                    List<String> want = styleAt(pane, spans, line, col);
                    List<String> got = t.getStyleClass().subList(1, t.getStyleClass().size());
                    assertEquals(want, got, "line " + line + " column " + col + ": " + t.getText());
                }
                col += t.getText().length();
            }
        }
    }

    /** The style classes the highlighter's compacted spans give a 0-based column of a line. */
    private static List<String> styleAt(CodeList pane, Iterable<? extends org.fxmisc.richtext.model.StyleSpan<java.util.Collection<String>>> spans,
            int line, int col) {
        int at = col;
        for (int l = 1; l < line; l++) at += pane.lineText(l).length() + 1;
        int pos = 0;
        for (var span : spans) {
            if (at < pos + span.getLength()) return List.copyOf(span.getStyle());
            pos += span.getLength();
        }
        return List.of();
    }
}
