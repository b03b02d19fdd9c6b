package io.barrierscope.app.debugger;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Snapshot;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.event.ActionEvent;
import javafx.scene.Node;
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
 * How fast Pause stops a Continue, and how long the FX thread stalls while a Continue runs
 * (docs/performance.md, "Window responsiveness"), in the real window (TestFX, Monocle). Pause is
 * measured on a 32,768-thread reduction of 40 rounds ({@code app/src/test/resources/harness/long-reduce},
 * a Continue of seconds) and on the TMA pipeline sample; the Continues to the end also on the
 * 32,768-thread block-reduce launch. Each trial opens the launch
 * afresh (so the Continue executes steps, not a replay), presses F5 and, a fixed time after the FX
 * thread took it, Pause: the key (Shift+F5) or the toolbar's Pause button, as the window binds
 * them. Both are queued for the FX thread as the window system queues input ({@link FrameProbe};
 * TestFX's robot would wait for the FX thread to be free first). Per trial it reports, from the press:
 * <ul>
 * <li>until the FX thread took it;</li>
 * <li>until "pausing" is on screen: the first pulse after the FX thread took it (the status bar
 *     says so at once, before the engine's next check);</li>
 * <li>until the run stopped: the engine thread posted the stop's snapshot (the run loop has
 *     returned and the panes' state is captured);</li>
 * <li>until the window shows it paused: the first pulse after the FX thread applied that snapshot
 *     (the status bar says "paused");</li>
 * <li>the longest gap between two FX pulses from F5 until then.</li>
 * </ul>
 * and, once per launch, the longest pulse gap during a Continue to the end. Not a pass/fail test;
 * run with
 * <pre>
 * xvfb-run -a mvn -B -ntp -o -pl app -am test -Dtest=PauseLatencyHarness -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dbarrierscope.harness=true
 * </pre>
 * (writes {@code app/target/pause-latency.md}). {@code -Dbarrierscope.harness.trials=N} Pause trials per
 * launch and key (3; 0 skips them), {@code -Dbarrierscope.harness.ends=N} Continues to the end per launch
 * (1), {@code -Dbarrierscope.harness.pauseAfter=MS} when Pause comes on the long launch (500 ms after
 * the FX thread took F5). Each stop also gets the FX CPU of each of its first pulses, and after the last one a main tab
 * is brought forward at rest a few times (its FX CPU per pulse, the same way).
 * {@code -Dbarrierscope.harness.where=true} also samples each stop's frame densely and lists the
 * nodes CSS and layout will redo in it, and prints the frame's wall-clock window (to pick a JFR
 * recording's samples of it); it perturbs the frame's CPU figures, so measure without it.
 */
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "barrierscope.harness", matches = "true")
class PauseLatencyHarness {
    private DebuggerViewModel vm;
    private Scene scene;
    private FrameProbe probe;
    @TempDir Path tmp;

    // FX thread only
    private long postedAt; // when the engine posted the runnable the FX thread is running now
    private volatile long continueAt;
    private volatile long pauseAt;
    private volatile long stopPostedAt;
    private volatile long stopAppliedAt;
    private static final java.lang.management.ThreadMXBean FX_CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    /** FX thread CPU: applying the stop's snapshot to the view models (bindings, listeners); then the next pulse's CSS and layout. */
    private volatile long stopApplyCpu;
    private volatile long stopLayoutCpu;
    private long stopCpu; // FX thread only
    /**
     * FX thread CPU of each of the first pulses from the stop on: the first from before the stop's
     * snapshot was applied to the end of the next pulse's layout, each later one from the end of the
     * pulse before (so work the stop posted for later, e.g. a tab brought forward, lands in one of them).
     */
    private final List<Long> stopPulses = new ArrayList<>(); // FX thread only
    private long stopMark; // FX thread only
    private static final int STOP_PULSES = 4;
    private boolean tabMeasuring; // FX thread only: stopPulses collects the pulses after a tab change

    /** FX CPU ms of the first pulses after {@code action} (run on the FX thread), as for the stop. */
    private String pulsesAfter(Runnable action) throws Exception {
        WaitForAsyncUtils.waitForAsyncFx(60_000, () -> {
            stopAppliedAt = 0;
            stopPulses.clear();
            tabMeasuring = true;
            stopMark = FX_CPU.getCurrentThreadCpuTime();
            action.run();
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> stopPulses.size() >= STOP_PULSES));
        return fx(() -> {
            tabMeasuring = false;
            StringBuilder sb = new StringBuilder();
            for (long c : stopPulses) sb.append(sb.length() == 0 ? "" : ", ").append(Math.round(c / 1e6));
            return sb.toString();
        });
    }

    /** At rest after a Continue to the end: the FX CPU of bringing a tab forward, the threads tab being the one shown before. */
    private void tabChanges(String label) throws Exception {
        for (Panel p : new Panel[] {Panel.REPORT, Panel.CONSOLE, Panel.REPORT, Panel.CONSOLE, Panel.REPORT}) {
            pulsesAfter(() -> vm.showPanel(Panel.THREADS));
            Thread.sleep(200);
            ends.append(String.format(Locale.ROOT, "| %s, at rest: the threads tab to %s | | | | | | | %s |%n",
                    label, p, pulsesAfter(() -> vm.showPanel(p))));
            Thread.sleep(200);
        }
    }
    private volatile long stopSteps;
    private volatile String stopOutcome = "";
    private volatile int opened;

    private final StringBuilder report = new StringBuilder();

    /** Where the FX thread is, sampled every few milliseconds while {@link #sampling}: printed after each Continue to the end. */
    private volatile boolean sampling;
    private boolean parkedShown;
    private final java.util.Map<String, Integer> samples = new java.util.TreeMap<>();

    /** 1 while the stop's snapshot is applied, 2 until the end of the next pulse's layout, else 0. */
    private volatile int stopPhase;
    private volatile long stopWallFrom;
    /** {@code -Dbarrierscope.harness.where=true}: sample the stop's frame densely and list its dirty nodes (perturbs its CPU figures). */
    private static final boolean STOP_WHERE = Boolean.getBoolean("barrierscope.harness.where");
    private final java.util.Map<String, Integer> stopSamples = new java.util.TreeMap<>();

    /** A sample in the stop's frame, named by {@link WindowCostHarness#chain}: which control's CSS or layout it is. */
    private void stopSample(int phase, StackTraceElement[] st) {
        String key = (phase == 1 ? "apply: " : "pulse: ") + WindowCostHarness.chain(st);
        synchronized (stopSamples) { stopSamples.merge(key, 1, Integer::sum); }
    }

    private final StringBuilder dirtyReport = new StringBuilder();

    /**
     * Right after the stop's snapshot was applied, before the pulse: the nodes in the scene whose CSS
     * must be redone (flag UPDATE or REAPPLY) and the parents that need layout, by the nearest
     * ancestor with an id and their class: which nodes the coming pulse will style and lay out.
     */
    private void dirtyScan() {
        try {
            java.lang.reflect.Field f = Node.class.getDeclaredField("cssFlag");
            f.setAccessible(true);
            java.util.Map<String, Integer> css = new java.util.TreeMap<>();
            java.util.Map<String, Integer> layout = new java.util.TreeMap<>();
            int total = 0;
            for (Node n : WindowCostHarness.all(scene.getRoot())) {
                total++;
                String flag = String.valueOf(f.get(n));
                Node up = n;
                while (up != null && up.getId() == null) up = up.getParent();
                String where = (up == null ? "(none)" : up.getId()) + " " + n.getClass().getSimpleName();
                if (flag.equals("UPDATE") || flag.equals("REAPPLY")) css.merge(where + " " + flag, 1, Integer::sum);
                if (n instanceof javafx.scene.Parent p && p.isNeedsLayout()) layout.merge(where, 1, Integer::sum);
            }
            dirtyReport.append("stop: ").append(total).append(" nodes; CSS dirty ").append(css.values().stream().mapToInt(Integer::intValue).sum())
                    .append(", needs layout ").append(layout.values().stream().mapToInt(Integer::intValue).sum()).append('\n');
            css.entrySet().stream().sorted((x, y) -> Integer.compare(y.getValue(), x.getValue())).limit(40)
                    .forEach(e -> dirtyReport.append("  css ").append(e.getValue()).append("  ").append(e.getKey()).append('\n'));
            layout.entrySet().stream().sorted((x, y) -> Integer.compare(y.getValue(), x.getValue())).limit(40)
                    .forEach(e -> dirtyReport.append("  layout ").append(e.getValue()).append("  ").append(e.getKey()).append('\n'));
        } catch (ReflectiveOperationException e) {
            dirtyReport.append("dirty scan: ").append(e).append('\n');
        }
    }

    private void sampler(Thread fxThread) {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    if (stopPhase != 0) Thread.sleep(0, 500_000);
                    else Thread.sleep(3);
                } catch (InterruptedException e) {
                    return;
                }
                if (!sampling && stopPhase == 0) continue;
                StackTraceElement[] st = fxThread.getStackTrace();
                if (st.length == 0) continue;
                int phase = stopPhase;
                if (phase != 0) {
                    stopSample(phase, st);
                    continue;
                }
                String app = "";
                for (StackTraceElement f : st) {
                    if (f.getClassName().startsWith("io.barrierscope") && !f.getClassName().contains("Harness")) {
                        app = f.getClassName().replaceAll(".*\\.", "") + "." + f.getMethodName();
                        break;
                    }
                }
                // Without window code on the stack (the pulse's CSS and layout): the innermost skin or
                // cell at work, which says which control the time went to.
                if (app.isEmpty()) {
                    for (StackTraceElement f : st) {
                        String c = f.getClassName().replaceAll(".*\\.", "");
                        if (c.endsWith("Skin") || c.endsWith("Cell") || c.endsWith("Row") || c.startsWith("VirtualFlow")) {
                            app = "(" + c + "." + f.getMethodName() + ")";
                            break;
                        }
                    }
                }
                String key = app + " | " + st[0].getClassName().replaceAll(".*\\.", "") + "." + st[0].getMethodName()
                        + (st.length > 1 ? " < " + st[1].getClassName().replaceAll(".*\\.", "") + "." + st[1].getMethodName() : "");
                if (st[0].getMethodName().equals("park") && !parkedShown) {
                    parkedShown = true;
                    StringBuilder b = new StringBuilder("FX thread parked at:\n");
                    for (int i = 0; i < Math.min(40, st.length); i++) b.append("    ").append(st[i]).append('\n');
                    System.out.println(b);
                }
                synchronized (samples) { samples.merge(key, 1, Integer::sum); }
            }
        }, "harness-sampler");
        t.setDaemon(true);
        t.start();
    }

    @Start
    void start(Stage stage) {
        sampler(Thread.currentThread());
        // The engine posts through this executor: each runnable carries the time it was posted.
        Executor ui = r -> {
            long posted = System.nanoTime();
            Platform.runLater(() -> {
                postedAt = posted;
                r.run();
            });
        };
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(ui, watch(l)));
        DebuggerView view = new DebuggerView(vm, List.of());
        scene = new Scene(view.root(), 1280, 800);
        // Before the window's shortcuts: the moment the FX thread takes F5 and Shift+F5.
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() != KeyCode.F5) return;
            if (e.isShiftDown()) pauseAt = System.nanoTime();
            else continueAt = System.nanoTime();
        });
        scene.addEventFilter(ActionEvent.ACTION, e -> {
            if (e.getTarget() instanceof Node n && "pauseButton".equals(n.getId())) pauseAt = System.nanoTime();
        });
        view.installShortcuts(scene);
        // After the first layout pass that follows the stop's snapshot: the CSS and layout it caused.
        scene.addPostLayoutPulseListener(() -> {
            long c = FX_CPU.getCurrentThreadCpuTime();
            if (stopAppliedAt != 0 && stopLayoutCpu < 0) {
                stopLayoutCpu = c - stopCpu;
                stopPhase = 0;
                if (STOP_WHERE) System.out.println("stop's frame, wall clock ms: " + stopWallFrom + " " + System.currentTimeMillis());
            }
            if ((stopAppliedAt != 0 || tabMeasuring) && stopPulses.size() < STOP_PULSES) {
                stopPulses.add(c - stopMark);
                stopMark = c;
            }
        });
        stage.setScene(scene);
        stage.show();
        probe = new FrameProbe(scene);
    }

    /** The session's listener with a note of when a run's stop (or an open) reached the FX thread. */
    private DebugSession.Listener watch(DebugSession.Listener l) {
        return (DebugSession.Listener) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DebugSession.Listener.class},
                (proxy, m, args) -> {
                    Object out;
                    boolean stop = m.getName().equals("updated") && args[0] instanceof Snapshot st && st.cause() == Snapshot.Cause.RUN_END;
                    long cpu0 = stop ? FX_CPU.getCurrentThreadCpuTime() : 0;
                    if (stop && STOP_WHERE) stopPhase = 1;
                    if (stop) stopWallFrom = System.currentTimeMillis();
                    try {
                        out = m.invoke(l, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (m.getName().equals("updated") && args[0] instanceof Snapshot s && s.cause() == Snapshot.Cause.RUN_END) {
                        stopPostedAt = postedAt;
                        stopAppliedAt = System.nanoTime();
                        stopCpu = FX_CPU.getCurrentThreadCpuTime();
                        stopApplyCpu = stopCpu - cpu0;
                        stopLayoutCpu = -1;
                        if (stopPhase == 1) {
                            stopPhase = 2;
                            dirtyScan();
                            stopCpu = FX_CPU.getCurrentThreadCpuTime();
                        }
                        stopPulses.clear();
                        stopMark = cpu0;
                        stopSteps = s.steps();
                        stopOutcome = s.outcome() == null ? "" : s.outcome().toString();
                    }
                    if (m.getName().equals("opened")) opened++;
                    return out;
                });
    }

    private static <T> T fx(java.util.function.Supplier<T> s) {
        java.util.concurrent.atomic.AtomicReference<T> out = new java.util.concurrent.atomic.AtomicReference<>();
        WaitForAsyncUtils.waitForAsyncFx(60_000, () -> out.set(s.get()));
        return out.get();
    }

    private long pulseAfter(long t) { return probe.pulseAfter(t); }

    private double longestGap(long t0, long t1) { return probe.longestGap(t0, t1); }

    private void open(FxRobot robot, Path file) throws Exception {
        int before = opened;
        robot.interact(() -> vm.open(file));
        WaitForAsyncUtils.waitFor(300, TimeUnit.SECONDS, () -> opened > before && fx(() -> vm.loadedProperty().get() && vm.nowProperty().get() == 0));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /**
     * A key press as glass delivers it ({@link FrameProbe#key}): queued for the FX thread, which
     * handles it when it is free. (TestFX's robot waits until the FX thread has drained its queue
     * after each key, so a press through it cannot come while the window is busy.)
     */
    private void pressLater(KeyCode key, boolean shift) {
        if (shift) probe.key(key, KeyCode.SHIFT);
        else probe.key(key);
    }

    /** A click on the toolbar's Pause button, queued the same way. */
    private void clickPauseLater() {
        probe.later(() -> ((javafx.scene.control.Button) scene.lookup("#pauseButton")).fire());
    }

    /**
     * One Continue, paused by {@code button} (else Shift+F5) {@code delayMs} after the FX thread
     * took F5: the user's press is the moment the event is queued.
     */
    private void trial(String label, Path file, boolean button, long delayMs, FxRobot robot) throws Exception {
        open(robot, file);
        stopAppliedAt = 0;
        stopPostedAt = 0;
        pauseAt = 0;
        continueAt = 0;
        pressLater(KeyCode.F5, false);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> continueAt != 0);
        Thread.sleep(Math.max(0, delayMs - (System.nanoTime() - continueAt) / 1_000_000));
        long pressed = System.nanoTime();
        if (button) clickPauseLater();
        else pressLater(KeyCode.F5, true);
        WaitForAsyncUtils.waitFor(300, TimeUnit.SECONDS, () -> stopAppliedAt != 0 && fx(() -> !vm.runningProperty().get()));
        WaitForAsyncUtils.waitForFxEvents();
        String by = button ? "button" : "Shift+F5";
        if (stopPostedAt < pressed || stopOutcome.equals("COMPLETED")) {
            report.append(String.format(Locale.ROOT, "| %s | %s, %d ms after F5 | the run ended (%s, step %,d) before Pause took effect | | | | |%n",
                    label, by, delayMs, stopOutcome, stopSteps));
            return;
        }
        long painted = pulseAfter(stopAppliedAt);
        long shown = painted < 0 ? stopAppliedAt : painted;
        String outcome = fx(() -> vm.outcomeProperty().get());
        long acknowledged = pulseAfter(pauseAt); // the first frame after the FX thread took Pause: "pausing" on screen
        report.append(String.format(Locale.ROOT, "| %s | %s, %d ms after F5 | %.0f (%.0f) | %.0f | %.0f (\"%s\" at step %,d) | %.0f | %.0f |%n",
                label, by, delayMs, (stopPostedAt - pressed) / 1e6, (stopPostedAt - pauseAt) / 1e6,
                ((acknowledged < 0 ? shown : acknowledged) - pressed) / 1e6, (shown - pressed) / 1e6,
                outcome, stopSteps, (pauseAt - pressed) / 1e6, longestGap(continueAt, shown)));
        // Where the long stalls were (diagnostic): from F5, against Pause and the stop; the nanoTime
        // values match a GC log written with -Xlog:gc*:file=...:timenanos.
        StringBuilder where = new StringBuilder();
        for (long[] g : probe.gapsOver(continueAt, shown, 45)) {
            where.append(String.format(Locale.ROOT, " [%.0f ms from %+.0f to %+.0f ms after F5, FX CPU %.0f ms (nanoTime %d-%d)]",
                    (g[1] - g[0]) / 1e6, (g[0] - continueAt) / 1e6, (g[1] - continueAt) / 1e6, g[2] / 1e6, g[0], g[1]));
        }
        System.out.printf(Locale.ROOT, "GAPS %s, %s: F5 at nanoTime %d, Pause pressed %+.0f, taken %+.0f, stop posted %+.0f, applied %+.0f, "
                + "shown %+.0f ms after F5; gaps over 45 ms:%s%n", label, by, continueAt, (pressed - continueAt) / 1e6,
                (pauseAt - continueAt) / 1e6, (stopPostedAt - continueAt) / 1e6, (stopAppliedAt - continueAt) / 1e6,
                (shown - continueAt) / 1e6, where.length() == 0 ? " none" : where);
    }

    private void toEnd(FxRobot robot, String label, Path file) throws Exception {
        open(robot, file);
        stopAppliedAt = 0;
        continueAt = 0;
        java.util.Set<Node> before = fx(() -> WindowCostHarness.all(scene.getRoot()));
        java.util.Map<String, Long> a = WindowCostHarness.cpu();
        sampling = true;
        pressLater(KeyCode.F5, false);
        WaitForAsyncUtils.waitFor(600, TimeUnit.SECONDS, () -> stopAppliedAt != 0 && fx(() -> !vm.runningProperty().get()));
        WaitForAsyncUtils.waitForFxEvents();
        sampling = false;
        java.util.Map<String, Long> b = WindowCostHarness.cpu();
        synchronized (samples) {
            System.out.println("FX thread samples, Continue to the end, " + label + ":");
            samples.entrySet().stream().sorted((x, y) -> Integer.compare(y.getValue(), x.getValue())).limit(15)
                    .forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
            samples.clear();
        }
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> stopLayoutCpu >= 0);
        if (STOP_WHERE) {
            synchronized (stopSamples) {
                System.out.println("FX thread samples in the stop's frame, " + label + ":");
                stopSamples.entrySet().stream().sorted((x, y) -> Integer.compare(y.getValue(), x.getValue())).limit(40)
                        .forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
                stopSamples.clear();
            }
            System.out.println("Dirty nodes at the stop, " + label + ":\n" + fx(() -> {
                String d = dirtyReport.toString();
                dirtyReport.setLength(0);
                return d;
            }));
        }
        long painted = pulseAfter(stopAppliedAt);
        long end = painted < 0 ? stopAppliedAt : painted;
        String made = fx(() -> {
            java.util.Map<String, Integer> where = new java.util.TreeMap<>();
            java.util.Set<Node> after = WindowCostHarness.all(scene.getRoot());
            for (Node n : after) {
                if (before.contains(n)) continue;
                Node up = n;
                while (up != null && up.getId() == null) up = up.getParent();
                where.merge(up == null ? "(none)" : up.getId(), 1, Integer::sum);
            }
            return where.values().stream().mapToInt(Integer::intValue).sum() + " of " + after.size() + ": " + where;
        });
        nodes.append(String.format(Locale.ROOT, "- %s: nodes made by the Continue to the end (in the scene after it) %s%n", label, made));
        long frames = probe.pulsesBetween(continueAt, end);
        String cpu = String.format(Locale.ROOT, "CPU ms: FX %.0f, engine %.0f, renderer %.0f",
                (b.get("fx") - a.get("fx")) / 1e6, (b.get("engine") - a.get("engine")) / 1e6,
                (b.getOrDefault("render", 0L) - a.getOrDefault("render", 0L)) / 1e6);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> stopPulses.size() >= STOP_PULSES));
        String perPulse = fx(() -> {
            StringBuilder sb = new StringBuilder();
            for (long c : stopPulses) sb.append(sb.length() == 0 ? "" : ", ").append(Math.round(c / 1e6));
            return sb.toString();
        });
        ends.append(String.format(Locale.ROOT, "| %s | %s, %,d steps | %.0f | %d | %.0f | %s | %.0f + %.0f | %s |%n",
                label, stopOutcome, stopSteps, (end - continueAt) / 1e6, frames, longestGap(continueAt, end), cpu,
                stopApplyCpu / 1e6, stopLayoutCpu / 1e6, perPulse));
    }

    private final StringBuilder ends = new StringBuilder();
    /** Per Continue to the end: the nodes in the scene after it that were not before F5, by nearest ancestor with an id. */
    private final StringBuilder nodes = new StringBuilder();

    private Path bigLaunch() throws Exception { return ResponsivenessHarness.bigLaunch(tmp); }

    private static final String LONG = "long-reduce, 256 CTAs x 40 rounds (32,768 threads)";
    /** When Pause comes on the long launch, after the FX thread took F5: {@code -Dbarrierscope.harness.pauseAfter=MS} (500). */
    private static final long PAUSE_AFTER_MS = Long.getLong("barrierscope.harness.pauseAfter", 500);

    @Test
    void measure(FxRobot robot) throws Exception {
        String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        String head = "| launch | Pause by | Pause pressed to the run stopped, ms (from the FX thread taking it) "
                + "| Pause pressed to \"pausing\" on screen, ms | Pause pressed to the window showing it paused, ms "
                + "| Pause pressed to the FX thread taking it, ms "
                + "| longest FX pulse gap from F5 until shown paused, ms |\n| --- | --- | --- | --- | --- | --- | --- |\n";
        int trials = Integer.getInteger("barrierscope.harness.trials", 3);
        Path big = bigLaunch();
        Path tma = TestFiles.sample("tma-pipeline");
        // 32,768 threads reducing 40 times: a Continue of seconds, so Pause lands mid-run (block-reduce's
        // 256 CTAs end in about 0.1 s on a quiet machine, before any Pause).
        Path longRun = ResponsivenessHarness.longLaunch();
        // A first trial of each warms the JIT and the CSS caches; not reported.
        trial("warm-up", longRun, false, PAUSE_AFTER_MS, robot);
        trial("warm-up", tma, false, 0, robot);
        report.setLength(0);
        report.append(head);
        for (int i = 0; i < trials; i++) {
            for (boolean button : new boolean[] {false, true}) {
                trial(LONG, longRun, button, PAUSE_AFTER_MS, robot);
                trial("tma-pipeline", tma, button, 0, robot);
            }
        }
        ends.append("| launch | end | F5 to the end shown, ms | FX pulses | longest FX pulse gap, ms | CPU time of the threads "
                + "| FX CPU ms of the stop: applying its snapshot + the next pulse's CSS and layout "
                + "| FX CPU ms of each of the first " + STOP_PULSES + " pulses from the stop on |\n");
        ends.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        int endRuns = Integer.getInteger("barrierscope.harness.ends", 1);
        for (int i = 0; i < endRuns; i++) {
            toEnd(robot, "block-reduce 256 CTAs (32,768 threads)", big);
            toEnd(robot, "tma-pipeline", tma);
            toEnd(robot, LONG, longRun);
        }
        tabChanges("tma-pipeline");
        report.append('\n').append(ends).append('\n').append(nodes);
        report.append("\nload average (1, 5, 15 min) before: ").append(loadBefore).append("; after: ")
                .append(Files.readString(Path.of("/proc/loadavg")).strip()).append(" · cores: ")
                .append(Runtime.getRuntime().availableProcessors()).append('\n');
        robot.interact(() -> {
            probe.close();
            vm.close();
        });
        Files.writeString(Path.of("target/pause-latency.md"), report.toString());
        System.out.println(report);
    }
}
