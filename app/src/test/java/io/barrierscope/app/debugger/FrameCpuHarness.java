package io.barrierscope.app.debugger;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.BarrierDetail;
import io.barrierscope.app.session.BreakpointRow;
import io.barrierscope.app.session.ConsoleLine;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.GlobalBuffers;
import io.barrierscope.app.session.Inspection;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.app.timeline.TimelineModel;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
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

/**
 * What each frame costs while a file opens and in the first seconds of a Continue, in CPU time,
 * so that the machine's load does not enter it (docs/performance.md, "Opening and Continue,
 * bounded"): at every FX pulse it notes the CPU time of the FX thread, the renderer and the engine
 * worker and the young collections' time, and lists every gap between two pulses of more than
 * 40 ms with what each of them spent in it; a gap whose CPU is small was a wait (for a core, a
 * lock, a collection). For opening it also notes when the session's results reach the FX thread.
 * Opens block-reduce with 256 CTAs (a cold JVM), tma-pipeline and block-reduce again, then
 * long-reduce and Continue for {@code -Dbarrierscope.harness.runms=N} ms (2,500), Pause,
 * {@code -Dbarrierscope.harness.rounds=N} times (2). Not a pass/fail test:
 * <pre>
 * xvfb-run -a mvn -B -ntp -o -pl app -am test -Dtest=FrameCpuHarness -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dbarrierscope.harness=true
 * </pre>
 */
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "barrierscope.harness", matches = "true")
class FrameCpuHarness {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    private DebuggerViewModel vm;
    private FrameProbe probe;
    private final List<String> marks = Collections.synchronizedList(new ArrayList<>());
    /** Per pulse: nanoTime, FX CPU, renderer CPU, engine worker CPU, young collections' ms. */
    private final List<long[]> pulses = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean recording;
    private volatile long t0;
    @TempDir Path tmp;

    @Start
    void start(Stage stage) {
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(Platform::runLater, noting(l)));
        DebuggerView view = new DebuggerView(vm, List.of());
        Scene scene = new Scene(view.root(), 1280, 800);
        view.installShortcuts(scene);
        stage.setScene(scene);
        stage.show();
        probe = new FrameProbe(scene);
        new AnimationTimer() {
            @Override public void handle(long now) {
                if (!recording) return;
                long gc = 0;
                for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
                    if (b.getName().contains("Young") || b.getName().contains("New")) gc += b.getCollectionTime();
                }
                pulses.add(new long[] {System.nanoTime(), MX.getCurrentThreadCpuTime(), cpuOf("QuantumRenderer"),
                        cpuOf("barrierscope-engine"), gc});
            }
        }.start();
    }

    /** Thread ids by name prefix, found once (listing the threads at every pulse would cost more than it measures). */
    private static final java.util.Map<String, long[]> IDS = new java.util.concurrent.ConcurrentHashMap<>();

    private static long cpuOf(String prefix) {
        long[] ids = IDS.get(prefix);
        if (ids == null || ids.length == 0) { // the engine's worker starts with the first open
            ids = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).mapToLong(Thread::getId).toArray();
            IDS.put(prefix, ids);
        }
        long sum = 0;
        for (long id : ids) sum += Math.max(0, MX.getThreadCpuTime(id));
        return sum;
    }

    private void mark(String what) {
        marks.add(String.format(Locale.ROOT, "%7.1f ms  %s", (System.nanoTime() - t0) / 1e6, what));
    }

    /** The window's listener, noting when the open's results reach the FX thread and when each is done. */
    private DebugSession.Listener noting(DebugSession.Listener l) {
        return new DebugSession.Listener() {
            @Override public void opened(OpenedFile f) { mark("opened: start"); l.opened(f); mark("opened: done"); }
            @Override public void updated(Snapshot s) {
                boolean note = s.cause() != Snapshot.Cause.RUN_PROGRESS;
                if (note) mark("updated " + s.cause() + ": start");
                l.updated(s);
                if (note) mark("updated " + s.cause() + ": done");
            }
            @Override public void failed(String m) { l.failed(m); }
            @Override public void openFailed(Path p, String m) { l.openFailed(p, m); }
            @Override public void openProgress(Path p, String ph, long d, long t) { l.openProgress(p, ph, d, t); }
            @Override public void inspected(Inspection i) { l.inspected(i); }
            @Override public void breakpoints(List<BreakpointRow> r) { l.breakpoints(r); }
            @Override public void breakpointRefused(String m) { l.breakpointRefused(m); }
            @Override public void saved(String m) { l.saved(m); }
            @Override public void timeline(TimelineModel m) { mark("timeline: start"); l.timeline(m); mark("timeline: done"); }
            @Override public void timelineGrew() { l.timelineGrew(); }
            @Override public void barrierDetail(BarrierDetail d) { l.barrierDetail(d); }
            @Override public void printed(List<ConsoleLine> x) { l.printed(x); }
            @Override public void globalMemory(GlobalBuffers g) { mark("global memory: start"); l.globalMemory(g); mark("global memory: done"); }
        };
    }

    /** Prints the pulse gaps over 40 ms since recording began, with each thread's CPU in them, and the marks. */
    private void report(String what) {
        List<long[]> pc;
        synchronized (pulses) {
            pc = new ArrayList<>(pulses);
            pulses.clear();
        }
        StringBuilder out = new StringBuilder(what).append('\n');
        double fxMax = 0;
        double renderMax = 0;
        double gapMax = 0;
        for (int i = 1; i < pc.size(); i++) {
            long[] a = pc.get(i - 1);
            long[] b = pc.get(i);
            double gap = (b[0] - a[0]) / 1e6;
            double fx = (b[1] - a[1]) / 1e6;
            double render = (b[2] - a[2]) / 1e6;
            fxMax = Math.max(fxMax, fx);
            renderMax = Math.max(renderMax, render);
            gapMax = Math.max(gapMax, gap);
            if (gap > 40) out.append(String.format(Locale.ROOT, "  gap at %6.0f ms: %4.0f ms; CPU ms FX %5.1f, renderer %5.1f, engine %5.1f; young GC %d ms%n",
                    (a[0] - t0) / 1e6, gap, fx, render, (b[3] - a[3]) / 1e6, b[4] - a[4]));
        }
        if (pc.size() > 1) {
            long[] first = pc.get(0);
            long[] last = pc.get(pc.size() - 1);
            out.append(String.format(Locale.ROOT, "  %d pulses over %.0f ms; longest gap %.0f ms; most CPU between two pulses: FX %.1f ms, renderer %.1f ms;"
                    + " all: FX %.0f, renderer %.0f, engine %.0f ms%n", pc.size(), (last[0] - first[0]) / 1e6, gapMax, fxMax, renderMax,
                    (last[1] - first[1]) / 1e6, (last[2] - first[2]) / 1e6, (last[3] - first[3]) / 1e6));
        }
        synchronized (marks) {
            marks.forEach(m -> out.append("  ").append(m).append('\n'));
            marks.clear();
        }
        System.out.println(out);
    }

    @Test
    void measure(FxRobot robot) throws Exception {
        Path big = ResponsivenessHarness.bigLaunch(tmp);
        String load = Files.readString(Path.of("/proc/loadavg")).strip();
        for (Path f : List.of(big, TestFiles.sample("tma-pipeline"), big)) {
            Thread.sleep(500);
            marks.clear();
            t0 = System.nanoTime();
            recording = true;
            FrameProbe.Timing t = probe.measure(() -> probe.later(() -> {
                t0 = System.nanoTime();
                vm.open(f);
            }), () -> !vm.openingProperty().get() && vm.loadedProperty().get() && vm.nowProperty().get() == 0 && vm.idleProperty().get(), 300);
            Thread.sleep(1500); // what follows the first paint (the panes taking the first moment)
            recording = false;
            report(String.format(Locale.ROOT, "OPEN %s: first paint %.0f ms after the open (laid out %.0f)", f, t.paintedMs(), t.laidOutMs()));
        }
        Path longOne = ResponsivenessHarness.longLaunch();
        for (int round = 0; round < Integer.getInteger("barrierscope.harness.rounds", 2); round++) {
            probe.measure(() -> probe.later(() -> vm.open(longOne)),
                    () -> !vm.openingProperty().get() && vm.loadedProperty().get() && vm.nowProperty().get() == 0 && vm.idleProperty().get(), 300);
            Thread.sleep(500);
            t0 = System.nanoTime();
            recording = true;
            FrameProbe.Timing f5 = probe.measure(() -> probe.key(KeyCode.F5), () -> vm.runningProperty().get(), 300);
            Thread.sleep(Integer.getInteger("barrierscope.harness.runms", 2500));
            recording = false;
            probe.measure(() -> probe.key(KeyCode.F5, KeyCode.SHIFT), () -> !vm.runningProperty().get() && vm.idleProperty().get(), 300);
            report(String.format(Locale.ROOT, "CONTINUE long-reduce, round %d: F5 taken %.0f ms after recording began, shown running %.0f ms after",
                    round, (f5.dispatchedAt() - t0) / 1e6, f5.paintedMs()));
        }
        System.out.println("load average before: " + load + "; after: " + Files.readString(Path.of("/proc/loadavg")).strip());
        robot.interact(() -> {
            probe.close();
            vm.close();
        });
    }
}
