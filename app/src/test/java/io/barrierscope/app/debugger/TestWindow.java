package io.barrierscope.app.debugger;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.welcome.SampleCatalog;
import java.util.List;
import java.util.Set;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.fxmisc.richtext.CodeArea;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The whole window on a synchronous session (the engine runs inline on the FX thread), so view
 * tests are deterministic and wait for nothing but the FX queue. Small samples only.
 */
public final class TestWindow {
    public final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));
    public final DebuggerView view;
    public final Scene scene;

    public TestWindow(Stage stage, String... samples) {
        view = new DebuggerView(vm, SampleCatalog.read(java.util.Arrays.stream(samples).map(TestFiles::sample).toList()));
        scene = new Scene(view.root(), 1280, 800);
        view.installShortcuts(scene);
        stage.setScene(scene);
        stage.show();
    }

    /** Opens a sample on the FX thread and waits until the window has shown it. */
    public void open(FxRobot robot, String sample) {
        robot.interact(() -> vm.open(TestFiles.sample(sample)));
        WaitForAsyncUtils.waitForFxEvents();
    }

    public void run(FxRobot robot) {
        robot.interact(vm::run);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Where a visible line's text is on the screen, past the gutter (whose clicks set breakpoints). */
    public static Point2D lineText(CodeArea area, int line) {
        return onFx(() -> {
            Bounds b = area.getVisibleParagraphBoundsOnScreen(area.allParToVisibleParIndex(line - 1).orElseThrow());
            int start = area.getAbsolutePosition(line - 1, 0);
            Bounds first = area.getCharacterBoundsOnScreen(start, start + 1).orElseThrow();
            return new Point2D(first.getMinX() + 4, (b.getMinY() + b.getMaxY()) / 2);
        });
    }

    /** The breakpoint gutter of a visible line (its marker or number). */
    public static Node gutter(FxRobot robot, CodeArea area, int line) {
        return robot.from(area).lookup(".breakpoint-gutter").match(n -> Integer.valueOf(line).equals(n.getUserData())).query();
    }

    /** A value computed on the FX thread (RichTextFX geometry may only be asked there). */
    public static <T> T onFx(java.util.concurrent.Callable<T> f) {
        try {
            return WaitForAsyncUtils.asyncFx(f).get();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The paragraph styles of a 1-based line of a code area. */
    public static Set<String> styles(CodeArea area, int line) {
        return Set.copyOf(area.getParagraph(line - 1).getParagraphStyle());
    }

    /** Lines of a code area that carry a paragraph style. */
    public static List<Integer> linesWith(CodeArea area, String style) {
        List<Integer> out = new java.util.ArrayList<>();
        for (int p = 0; p < area.getParagraphs().size(); p++) {
            if (area.getParagraph(p).getParagraphStyle().contains(style)) out.add(p + 1);
        }
        return out;
    }
}
