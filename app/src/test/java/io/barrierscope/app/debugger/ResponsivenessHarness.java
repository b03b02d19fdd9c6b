package io.barrierscope.app.debugger;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.timeline.TimelineView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Measures how responsive the real window is (docs/performance.md, "Window responsiveness"):
 * drives it with TestFX as a user would (F10, Shift+F10, a far click on the timeline's
 * scrubber, the dark and presentation toggles, opening a file, Continue and Pause, during a first run
 * and during a replay) on a
 * 32,768-thread launch (block-reduce with 256 CTAs) and on the TMA pipeline sample, while an
 * AnimationTimer records every FX pulse; reports per action its latency and the longest gap
 * between pulses (the FX thread's longest stall). Not a pass/fail test: it runs only with
 * {@code -Dbarrierscope.harness=true} and writes {@code app/target/responsiveness.md}, e.g.
 * <pre>
 * mvn -B -ntp -o -pl app -am test -Dtest=ResponsivenessHarness -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dbarrierscope.harness=true
 * </pre>
 */
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "barrierscope.harness", matches = "true")
class ResponsivenessHarness {
    private DebuggerViewModel vm;
    private DebuggerView view;
    private final List<Long> pulses = new ArrayList<>(); // FX thread only
    private AnimationTimer timer;
    private final StringBuilder report = new StringBuilder();

    @TempDir Path tmp;

    @Start
    void start(Stage stage) {
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(Platform::runLater, l));
        view = new DebuggerView(vm, List.of());
        Scene scene = new Scene(view.root(), 1280, 800);
        view.installShortcuts(scene);
        stage.setScene(scene);
        stage.show();
        timer = new AnimationTimer() {
            @Override public void handle(long now) { pulses.add(now); }
        };
        timer.start();
    }

    /** One measured action: its latencies (ms) and the longest pulse gap (ms) while it ran. */
    private record Result(String action, double[] latencies, double longestGap) {}

    private final List<Result> results = new ArrayList<>();

    /** Runs {@code action} (off the FX thread) until {@code done}, {@code times} times; records latency and pulse gaps. */
    private void measure(String name, int times, Runnable action, BooleanSupplier done) throws Exception {
        measure(name, times, () -> { }, action, done);
    }

    /** The same with {@code setup} before each time, outside the measured window. */
    private void measure(String name, int times, Runnable setup, Runnable action, BooleanSupplier done) throws Exception {
        double[] lat = new double[times];
        double gap = 0;
        for (int i = 0; i < times; i++) {
            setup.run();
            WaitForAsyncUtils.waitForFxEvents();
            long t0 = System.nanoTime();
            action.run();
            WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(done::getAsBoolean));
            long t1 = System.nanoTime();
            WaitForAsyncUtils.waitForFxEvents();
            lat[i] = (t1 - t0) / 1e6;
            gap = Math.max(gap, longestGap(t0, t1));
        }
        results.add(new Result(name, lat, gap));
    }

    private static <T> T fx(java.util.function.Supplier<T> s) {
        if (Platform.isFxApplicationThread()) return s.get();
        java.util.concurrent.atomic.AtomicReference<T> out = new java.util.concurrent.atomic.AtomicReference<>();
        WaitForAsyncUtils.waitForAsyncFx(60_000, () -> out.set(s.get()));
        return out.get();
    }

    /** The longest gap between consecutive pulses that ends after {@code t0}, up to the first pulse after {@code t1}. */
    private double longestGap(long t0, long t1) {
        return fx(() -> {
            long worst = 0;
            long prev = -1;
            for (long p : pulses) {
                if (prev >= 0 && p > t0) worst = Math.max(worst, p - Math.max(prev, t0));
                prev = p;
                if (p > t1) break;
            }
            return worst / 1e6;
        });
    }

    private Path bigLaunch() throws IOException {
        Path dir = TestFiles.sample("block-reduce").getParent();
        Files.copy(dir.resolve("kernel.ptx"), tmp.resolve("kernel.ptx"));
        return Files.writeString(tmp.resolve("launch.json"), """
                {"ptx": "kernel.ptx", "kernel": "block_reduce", "grid": [256, 1, 1], "block": [128, 1, 1],
                 "args": [{"buffer": "in", "type": "s32", "count": 32768, "init": "iota"},
                          {"buffer": "out", "type": "s32", "count": 256, "init": "zero"},
                          {"value": 32768, "type": "s32"}]}
                """);
    }

    private void session(FxRobot robot, String label, Path file) throws Exception {
        String before = fx(() -> vm.titleProperty().get());
        measure(label + ": open to first paint", 1, () -> robot.interact(() -> vm.open(file)),
                () -> vm.loadedProperty().get() && !vm.titleProperty().get().equals(before) && vm.nowProperty().get() == 0);
        measure(label + ": F10 (step)", 30, stepKey(robot, KeyCode.F10, false, +1), () -> true);
        measure(label + ": Shift+F10 (step back)", 30, stepKey(robot, KeyCode.F10, true, -1), () -> true);
        // Continue into steps not recorded yet and Pause after half a second: how long Pause takes
        // while the engine executes (a replay of recorded steps is usually over before a Pause).
        robot.type(KeyCode.F5);
        Thread.sleep(500);
        boolean executing = fx(() -> vm.runningProperty().get());
        measure(label + ": Pause (Shift+F5) during a first Continue" + (executing ? "" : " (the run had already ended)"), 1,
                () -> robot.press(KeyCode.SHIFT).type(KeyCode.F5).release(KeyCode.SHIFT), () -> !vm.runningProperty().get());
        // Continue to the end, then a far click on the scrubber (from the end to near the start).
        long[] steps = new long[1];
        measure(label + ": Continue (F5) to the end", 1, () -> robot.type(KeyCode.F5),
                () -> vm.finishedProperty().get() && !vm.runningProperty().get());
        steps[0] = fx(() -> vm.nowProperty().get());
        measure(label + ": timeline far click (end to 5%)", 3, () -> {
            robot.interact(() -> vm.seek(steps[0]));
            try {
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> vm.nowProperty().get() == steps[0] && vm.idleProperty().get()));
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }, () -> {
            TimelineView t = view.timelineView();
            Point2D p = fx(() -> t.localToScreen(t.labelWidth() + 0.05 * (t.getWidth() - t.labelWidth() - 20), 24));
            robot.clickOn(p);
            WaitForAsyncUtils.waitForFxEvents();
        }, () -> !vm.runningProperty().get() && vm.nowProperty().get() < steps[0] / 5 + 2);
        measure(label + ": dark toggle (Ctrl+Shift+D)", 4,
                () -> robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.D).release(KeyCode.SHIFT, KeyCode.CONTROL), () -> true);
        measure(label + ": presentation toggle (Ctrl+Shift+P)", 4,
                () -> robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL), () -> true);
        // Continue from the start and Pause after a second: how long Pause takes to stop it.
        robot.interact(() -> vm.seek(0));
        WaitForAsyncUtils.waitForFxEvents();
        long[] started = new long[1];
        measure(label + ": Continue from the start, its first second", 1, () -> {
            started[0] = System.nanoTime();
            robot.type(KeyCode.F5);
        }, () -> System.nanoTime() - started[0] >= 1_000_000_000L);
        boolean stillRunning = fx(() -> vm.runningProperty().get());
        measure(label + ": Pause (Shift+F5) until stopped" + (stillRunning ? "" : " (the run had already ended)"), 1,
                () -> robot.press(KeyCode.SHIFT).type(KeyCode.F5).release(KeyCode.SHIFT), () -> !vm.runningProperty().get());
    }

    private Runnable stepKey(FxRobot robot, KeyCode key, boolean shift, int dir) {
        return () -> {
            long before = fx(() -> vm.nowProperty().get());
            if (shift) robot.press(KeyCode.SHIFT);
            robot.type(key);
            if (shift) robot.release(KeyCode.SHIFT);
            try {
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> vm.nowProperty().get() != before && vm.idleProperty().get()));
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException(key + " did not move from step " + before, e);
            }
        };
    }

    @Test
    void measure(FxRobot robot) throws Exception {
        session(robot, "block-reduce 256 CTAs (32,768 threads)", bigLaunch());
        session(robot, "tma-pipeline", TestFiles.sample("tma-pipeline"));
        report.append("| action | n | latency median (ms) | latency p95 (ms) | longest FX pulse gap (ms) |\n");
        report.append("| --- | --- | --- | --- | --- |\n");
        for (Result r : results) {
            double[] l = r.latencies().clone();
            Arrays.sort(l);
            report.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.0f |%n", r.action(), l.length,
                    l[l.length / 2], l[Math.min(l.length - 1, (int) Math.ceil(l.length * 0.95) - 1)], r.longestGap()));
        }
        String load = Files.readString(Path.of("/proc/loadavg")).strip();
        report.append("\nload average at the end (1, 5, 15 min; running/all; last pid): ").append(load)
                .append(" · cores: ").append(Runtime.getRuntime().availableProcessors()).append('\n');
        // Let the JVM end: no pulse recorder, no engine thread.
        robot.interact(() -> {
            timer.stop();
            vm.close();
        });
        Path out = Path.of("target/responsiveness.md");
        Files.writeString(out, report.toString());
        System.out.println(report);
    }
}
