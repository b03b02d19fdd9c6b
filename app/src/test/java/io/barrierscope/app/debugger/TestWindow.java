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
import io.barrierscope.app.source.CodeList;
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
    public static Point2D lineText(CodeList area, int line) {
        return onFx(() -> {
            Bounds b = area.lineTextBoundsOnScreen(line).orElseThrow();
            Bounds first = area.characterBoundsOnScreen(line, 0, 1).orElseThrow();
            return new Point2D(first.getMinX() + 4, (b.getMinY() + b.getMaxY()) / 2);
        });
    }

    /** The breakpoint gutter of a visible line (its marker or number). */
    public static Node gutter(FxRobot robot, CodeList area, int line) {
        return onFx(() -> area.gutter(line).orElseThrow(() -> new AssertionError("line " + line + " is not in view")));
    }

    /** A value computed on the FX thread (RichTextFX geometry may only be asked there). */
    public static <T> T onFx(java.util.concurrent.Callable<T> f) {
        try {
            if (javafx.application.Platform.isFxApplicationThread()) return f.call(); // already there
            return WaitForAsyncUtils.asyncFx(f).get();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof AssertionError a) throw a;
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The marks of a 1-based line of a code pane; if the line is in view, its cell shows the same
     * marks (as pseudo-classes) or this fails.
     */
    public static Set<String> styles(CodeList area, int line) {
        return onFx(() -> {
            Set<String> marks = area.marks(line);
            area.shownMarks(line).ifPresent(shown -> {
                if (!shown.equals(marks)) throw new AssertionError("line " + line + " shows " + shown + ", has " + marks);
            });
            return Set.copyOf(marks);
        });
    }

    /** Lines of a code pane that carry a mark; every line in view shows what it carries or this fails. */
    public static List<Integer> linesWith(CodeList area, String style) {
        return onFx(() -> {
            List<Integer> out = new java.util.ArrayList<>();
            for (int l = 1; l <= area.lineCount(); l++) {
                if (styles(area, l).contains(style)) out.add(l);
            }
            return out;
        });
    }
}
