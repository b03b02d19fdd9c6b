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
import java.util.function.DoubleSupplier;
import java.util.function.ToDoubleFunction;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
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
 * How long a user of the real window waits (docs/performance.md, "Window responsiveness"): F10,
 * Shift+F10, a far click on the timeline's scrubber, the dark and presentation toggles, opening a
 * file, Continue, and Pause in the middle of a run of seconds, on a 32,768-thread launch
 * (block-reduce with 256 CTAs), the TMA pipeline sample and, for Pause, a 32,768-thread reduction
 * of 40 rounds ({@code app/src/test/resources/harness/long-reduce}). Keys and clicks are queued for
 * the FX thread as the window system queues them ({@link FrameProbe}); each latency runs from the
 * moment the FX thread dispatches the input to the end of the rendering of the frame that shows
 * its result, and the longest gap between two FX pulses in that time is the FX thread's longest
 * stall. Two checks of the harness itself come first: an unbound key (the pulse cadence plus the
 * harness's own cost) and a key whose handler blocks the FX thread for 80 ms (must measure at least
 * 80 ms). Not a pass/fail test: it runs only with {@code -Dbarrierscope.harness=true} and writes
 * {@code app/target/responsiveness.md}, e.g.
 * <pre>
 * xvfb-run -a mvn -B -ntp -o -pl app -am test -Dtest=ResponsivenessHarness -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dbarrierscope.harness=true
 * </pre>
 * {@code -Dbarrierscope.harness.steps=N} F10 and Shift+F10 per launch (30),
 * {@code -Dbarrierscope.harness.pauses=N} Pause trials on the long launch (3);
 * {@code -Dbarrierscope.harness.noPauses=true} leaves the long launch out (a quicker A/B of steps and toggles);
 * {@code -Dbarrierscope.harness.onlySteps=true} measures only the opening and the steps, and
 * {@code -Dbarrierscope.harness.launch=NAME} only the launch whose label starts with NAME;
 * {@code -Dbarrierscope.harness.perStep=true} prints each input's parts (queueing, dispatch to result pulse, CSS and
 * layout, to synchronised, to painted; its FX and renderer CPU; its nanoTime, for a GC log with the {@code tn} decoration);
 * {@code -Dbarrierscope.harness.trace=true} is {@link FrameProbe#TRACE}.
 */
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "barrierscope.harness", matches = "true")
class ResponsivenessHarness {
    /** The key whose handler (a scene filter of the harness) blocks the FX thread for {@link #BLOCK_MS}. */
    static final KeyCode BLOCKING_KEY = KeyCode.F23;
    /** A key nothing is bound to. */
    static final KeyCode IDLE_KEY = KeyCode.F24;
    static final long BLOCK_MS = 80;
    private static final int STEPS = Integer.getInteger("barrierscope.harness.steps", 30);
    private static final int PAUSES = Integer.getInteger("barrierscope.harness.pauses", 3);
    private static final long TIMEOUT_S = 300;
    /** {@code -Dbarrierscope.harness.onlySteps=true}: per launch only the opening and the steps (diagnostics). */
    private static final boolean ONLY_STEPS = Boolean.getBoolean("barrierscope.harness.onlySteps");
    /** {@code -Dbarrierscope.harness.launch=NAME}: only the launch whose label starts with NAME. */
    private static final String LAUNCH = System.getProperty("barrierscope.harness.launch", "");
    /** {@code -Dbarrierscope.harness.perStep=true}: prints each measured input's parts (see {@link FrameProbe.Timing}). */
    private static final boolean PER_STEP = Boolean.getBoolean("barrierscope.harness.perStep");

    private DebuggerViewModel vm;
    private DebuggerView view;
    private FrameProbe probe;
    private final StringBuilder report = new StringBuilder();

    @TempDir Path tmp;

    @Start
    void start(Stage stage) {
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(Platform::runLater, l));
        view = new DebuggerView(vm, List.of());
        Scene scene = new Scene(view.root(), 1280, 800);
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() != BLOCKING_KEY) return;
            e.consume();
            try {
                Thread.sleep(BLOCK_MS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        view.installShortcuts(scene);
        stage.setScene(scene);
        stage.show();
        probe = new FrameProbe(scene);
    }

    /** One measured action, each time's timing. */
    private record Result(String action, List<FrameProbe.Timing> times, String note, double fxCpuMs, double renderCpuMs) {
        Result(String action, List<FrameProbe.Timing> times, String note) { this(action, times, note, Double.NaN, Double.NaN); }
    }

    private final List<Result> results = new ArrayList<>();

    /** Measures {@code input} {@code times} times, each until the frame showing {@code done} is painted; {@code setup} first, unmeasured. */
    private void measure(String name, int times, Runnable setup, Runnable input, BooleanSupplier done) throws Exception {
        List<FrameProbe.Timing> all = new ArrayList<>();
        long[] cpu0 = FrameProbe.cpu();
        for (int i = 0; i < times; i++) {
            setup.run();
            WaitForAsyncUtils.waitForFxEvents();
            Thread.sleep(50); // let the frames of the setup be painted: the input comes to a quiet window
            FrameProbe.Timing t = probe.measure(input, done, TIMEOUT_S);
            all.add(t);
            if (PER_STEP) System.out.printf(Locale.ROOT, "STEP %s #%d: queued %.1f, to result pulse %.1f, CSS+layout %.1f, "
                    + "to synced %.1f (incl. wait for the previous frame), to painted %.1f = %.1f ms; FX CPU %.1f, renderer CPU %.1f ms%s"
                    + " (nanoTime %d-%d)%n",
                    name, i, t.queuedMs(), t.pulseMs(), t.laidOutMs() - t.pulseMs(), t.syncedMs() - t.laidOutMs(),
                    t.paintedMs() - t.syncedMs(), t.paintedMs(), t.fxCpuMs(), t.renderCpuMs(), t.repainted() ? "" : " (nothing repainted)",
                    t.dispatchedAt(), t.paintedAt());
        }
        WaitForAsyncUtils.waitForFxEvents();
        Thread.sleep(150); // the frames after the last one measured
        long[] cpu1 = FrameProbe.cpu();
        results.add(new Result(name, all, "", (cpu1[0] - cpu0[0]) / 1e6 / times, (cpu1[1] - cpu0[1]) / 1e6 / times));
    }

    private void measure(String name, int times, Runnable input, BooleanSupplier done) throws Exception {
        measure(name, times, () -> { }, input, done);
    }

    private static <T> T fx(java.util.function.Supplier<T> s) { return FrameProbe.fx(s); }

    private Path bigLaunch() throws IOException { return bigLaunch(tmp); }

    /** block-reduce with 256 CTAs of 128 (32,768 threads), written into {@code dir}: the harnesses' large launch. */
    static Path bigLaunch(Path dir) throws IOException {
        Path sample = TestFiles.sample("block-reduce").getParent();
        Files.copy(sample.resolve("kernel.ptx"), dir.resolve("kernel.ptx"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return Files.writeString(dir.resolve("launch.json"), """
                {"ptx": "kernel.ptx", "kernel": "block_reduce", "grid": [256, 1, 1], "block": [128, 1, 1],
                 "args": [{"buffer": "in", "type": "s32", "count": 32768, "init": "iota"},
                          {"buffer": "out", "type": "s32", "count": 256, "init": "zero"},
                          {"value": 32768, "type": "s32"}]}
                """);
    }

    /** 32,768 threads (256 CTAs of 128) reducing their slices 40 times: a Continue of seconds, for Pause. */
    static Path longLaunch() throws Exception {
        return Path.of(ResponsivenessHarness.class.getResource("/harness/long-reduce/launch.json").toURI());
    }

    private void open(String label, Path file, boolean report) throws Exception {
        // open() sets "opening" at once, and the session clears it when the window has the launch's first snapshot.
        List<FrameProbe.Timing> t = List.of(probe.measure(() -> probe.later(() -> vm.open(file)),
                () -> !vm.openingProperty().get() && vm.loadedProperty().get() && vm.nowProperty().get() == 0
                        && vm.idleProperty().get(), TIMEOUT_S));
        if (report) results.add(new Result(label + ": open to first paint", t, ""));
    }

    /** The harness against itself: an unbound key, and a key that blocks the FX thread for {@link #BLOCK_MS}. */
    private void checks(String label) throws Exception {
        measure(label + ": harness check, a key bound to nothing", 10, () -> probe.key(IDLE_KEY), () -> true);
        measure(label + ": harness check, a key whose handler blocks the FX thread " + BLOCK_MS + " ms", 10,
                () -> probe.key(BLOCKING_KEY), () -> true);
    }

    private void session(String label, Path file) throws Exception {
        if (!label.startsWith(LAUNCH)) return;
        open(label, file, true);
        if (!ONLY_STEPS) checks(label);
        long[] before = new long[1];
        Runnable now = () -> before[0] = fx(() -> vm.nowProperty().get());
        BooleanSupplier moved = () -> vm.nowProperty().get() != before[0] && vm.idleProperty().get();
        measure(label + ": F10 (step)", STEPS, now, () -> probe.key(KeyCode.F10), moved);
        measure(label + ": Shift+F10 (step back)", STEPS, now, () -> probe.key(KeyCode.F10, KeyCode.SHIFT), moved);
        if (ONLY_STEPS) return;
        measure(label + ": Continue (F5) to the end", 1, () -> probe.key(KeyCode.F5),
                () -> vm.finishedProperty().get() && !vm.runningProperty().get() && vm.idleProperty().get());
        long end = fx(() -> vm.nowProperty().get());
        TimelineView t = view.timelineView();
        measure(label + ": timeline far click (end to 5%)", 3, () -> {
            probe.later(() -> vm.seek(end));
            try {
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> vm.nowProperty().get() == end && vm.idleProperty().get()));
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }, () -> {
            double x = fx(() -> t.labelWidth() + 0.05 * (t.getWidth() - t.labelWidth() - 20));
            probe.click(t, x, 24);
        }, () -> !vm.runningProperty().get() && vm.idleProperty().get() && vm.nowProperty().get() < end / 5 + 2);
        boolean[] was = new boolean[1];
        measure(label + ": dark toggle (Ctrl+Shift+D)", 6, () -> was[0] = fx(() -> vm.appearance().darkProperty().get()),
                () -> probe.key(KeyCode.D, KeyCode.CONTROL, KeyCode.SHIFT), () -> vm.appearance().darkProperty().get() != was[0]);
        measure(label + ": presentation toggle (Ctrl+Shift+P)", 6, () -> was[0] = fx(() -> vm.appearance().presentationProperty().get()),
                () -> probe.key(KeyCode.P, KeyCode.CONTROL, KeyCode.SHIFT), () -> vm.appearance().presentationProperty().get() != was[0]);
    }

    /**
     * On the long launch, opened afresh each time so Continue executes: F5 until the window shows it
     * running, the longest pulse gap in its first second, then Shift+F5 until the window shows it
     * paused.
     */
    private void pauses(String label, Path file) throws Exception {
        List<FrameProbe.Timing> running = new ArrayList<>();
        List<FrameProbe.Timing> paused = new ArrayList<>();
        long[] firstSecond = new long[PAUSES];
        long[] untilPaused = new long[PAUSES];
        StringBuilder where = new StringBuilder();
        for (int i = 0; i < PAUSES; i++) {
            open(label, file, false);
            FrameProbe.Timing f5 = probe.measure(() -> probe.key(KeyCode.F5), () -> vm.runningProperty().get(), TIMEOUT_S);
            running.add(f5);
            Thread.sleep(Math.max(0, 1000 - (System.nanoTime() - f5.dispatchedAt()) / 1_000_000));
            firstSecond[i] = Math.round(probe.longestGap(f5.dispatchedAt(), System.nanoTime()));
            FrameProbe.Timing p = probe.measure(() -> probe.key(KeyCode.F5, KeyCode.SHIFT),
                    () -> !vm.runningProperty().get() && vm.idleProperty().get(), TIMEOUT_S);
            paused.add(p);
            untilPaused[i] = Math.round(probe.longestGap(f5.dispatchedAt(), p.paintedAt()));
            String outcome = fx(() -> vm.finishedProperty().get() ? "ended (" + vm.outcomeProperty().get() + ")" : "paused");
            where.append(where.length() == 0 ? "" : "; ").append(outcome).append(" at step ")
                    .append(String.format(Locale.ROOT, "%,d", fx(() -> vm.nowProperty().get())));
        }
        results.add(new Result(label + ": Continue (F5) until shown running", running, ""));
        results.add(new Result(label + ": Continue, from F5 to its first second / to Pause shown", List.of(), String.format(Locale.ROOT,
                "longest FX pulse gap in each, ms: %s / %s", Arrays.toString(firstSecond), Arrays.toString(untilPaused))));
        results.add(new Result(label + ": Pause (Shift+F5) about 1 s into the Continue, until shown stopped", paused, where.toString()));
    }

    private static double pct(double[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * q) - 1)];
    }

    private static String stat(List<FrameProbe.Timing> ts, ToDoubleFunction<FrameProbe.Timing> f) {
        double[] l = ts.stream().mapToDouble(f).sorted().toArray();
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f", l[l.length / 2], pct(l, 0.95), l[l.length - 1]);
    }

    @Test
    void measure(FxRobot robot) throws Exception {
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        long started = System.nanoTime();
        session("block-reduce 256 CTAs (32,768 threads)", bigLaunch());
        session("tma-pipeline", TestFiles.sample("tma-pipeline"));
        if (!Boolean.getBoolean("barrierscope.harness.noPauses")) pauses("long-reduce, 256 CTAs x 40 rounds (32,768 threads)", longLaunch());
        report.append("Latency from the input's dispatch on the FX thread, ms, median / p95 / max: to the frame that shows the result "
                + "painted; to that frame's pulse (CSS and layout done). \"Queued\": from the input queued to its dispatch (the FX thread "
                + "busy), max. Gap: the longest gap between two FX pulses from dispatch to painted, max over the n. CPU: mean ms of CPU "
                + "per input of the FX thread and of the renderer over the whole series (the frames after each result included; "
                + "the setup of each input too, which for the far click is a seek to the end).\n\n");
        report.append("| action | n | input to painted | input to its pulse laid out | queued, max | longest FX pulse gap | FX / renderer CPU per input | note |\n");
        report.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (Result r : results) {
            if (r.times().isEmpty()) {
                report.append(String.format(Locale.ROOT, "| %s | | | | | | | %s |%n", r.action(), r.note()));
                continue;
            }
            List<FrameProbe.Timing> ts = r.times();
            DoubleSupplier queued = () -> ts.stream().mapToDouble(FrameProbe.Timing::queuedMs).max().orElse(0);
            DoubleSupplier gap = () -> ts.stream().mapToDouble(FrameProbe.Timing::longestGapMs).max().orElse(0);
            long unpainted = ts.stream().filter(x -> !x.repainted()).count();
            String note = r.note() + (unpainted == 0 ? "" : (r.note().isEmpty() ? "" : "; ") + unpainted + " of " + ts.size()
                    + " with nothing to repaint (painted = synchronised)");
            String cpu = Double.isNaN(r.fxCpuMs()) ? "" : String.format(Locale.ROOT, "%.1f / %.1f", r.fxCpuMs(), r.renderCpuMs());
            report.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %.0f | %.0f | %s | %s |%n", r.action(), ts.size(),
                    stat(ts, FrameProbe.Timing::paintedMs), stat(ts, FrameProbe.Timing::laidOutMs), queued.getAsDouble(),
                    gap.getAsDouble(), cpu, note));
        }
        String load = Files.readString(Path.of("/proc/loadavg")).strip();
        report.append(String.format(Locale.ROOT, "%nload average (1, 5, 15 min; running/all; last pid) before: %s; after: %s · cores: %d · %.0f s%n",
                loadBefore, load, Runtime.getRuntime().availableProcessors(), (System.nanoTime() - started) / 1e9));
        // Let the JVM end: no pulse recorder, no engine thread.
        robot.interact(() -> {
            probe.close();
            vm.close();
        });
        Path out = Path.of("target/responsiveness.md");
        Files.writeString(out, report.toString());
        System.out.println(report);
    }
}
