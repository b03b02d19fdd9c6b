package io.barrierscope.app.debugger;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.timeline.TimelineView;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
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
 * What the window's heavier actions cost in CPU time, whatever else the machine runs
 * (docs/performance.md, "Window responsiveness"): the dark and presentation toggles, a far click
 * on the timeline, and opening a launch up to its first paint, on the 32,768-thread block-reduce
 * launch and the TMA pipeline sample, in the real window (TestFX, Monocle). For each action it
 * reports the CPU time of the FX thread, of the engine's threads and of the renderer from the
 * key or click until the window is quiet again. Not a pass/fail test; run with
 * <pre>
 * mvn -B -ntp -o -pl app -am test -Dtest=WindowCostHarness -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dbarrierscope.harness=true
 * </pre>
 * Presentation mode on and off are measured apart. {@code -Dbarrierscope.harness.toggles=12}
 * measures 12 toggles of each kind instead of 6; {@code -Dbarrierscope.harness.only=presentation}
 * measures only opening and the presentation toggles (a quicker comparison of two versions);
 * {@code -Dbarrierscope.harness.only=far -Dbarrierscope.harness.farclicks=12} only 12 far clicks per launch
 * (and then prints how many text nodes the source panes' lines hold, and how many are empty);
 * {@code -Dbarrierscope.harness.where=true} samples the FX thread every millisecond by the controls
 * on its stack, with inclusive counts (it perturbs the CPU figures: measure without it).
 */
@ExtendWith(ApplicationExtension.class)
@EnabledIfSystemProperty(named = "barrierscope.harness", matches = "true")
class WindowCostHarness {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    /** {@code -Dbarrierscope.harness.only=presentation}: only the presentation toggles (and opening, which they need). */
    private static final boolean ONLY_PRESENTATION = "presentation".equals(System.getProperty("barrierscope.harness.only"));
    /** {@code -Dbarrierscope.harness.only=steps}: only F10 and Shift+F10 (after opening and a Continue to the end). */
    private static final boolean ONLY_STEPS = "steps".equals(System.getProperty("barrierscope.harness.only"));
    /** F10 and Shift+F10 measured per launch: {@code -Dbarrierscope.harness.steps=N} (20). */
    private static final int STEPS = Integer.getInteger("barrierscope.harness.steps", 20);
    /** {@code -Dbarrierscope.harness.only=far}: only the timeline far clicks (after opening and a Continue to the end). */
    private static final boolean ONLY_FAR = "far".equals(System.getProperty("barrierscope.harness.only"));
    /** Timeline far clicks measured per launch: {@code -Dbarrierscope.harness.farclicks=N} (3). */
    private static final int FAR_CLICKS = Integer.getInteger("barrierscope.harness.farclicks", 3);
    private DebuggerViewModel vm;
    private DebuggerView view;
    private final StringBuilder report = new StringBuilder();
    @TempDir Path tmp;

    private volatile boolean sampling;
    /** Where the FX thread was, every few milliseconds while an action ran: the deepest app frame and the top frame. */
    private final Map<String, Integer> samples = new TreeMap<>();

    private void sampler(Thread fxThread) {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    if (WHERE) Thread.sleep(1);
                    else Thread.sleep(3);
                } catch (InterruptedException e) {
                    return;
                }
                if (!sampling) continue;
                StackTraceElement[] st = fxThread.getStackTrace();
                if (st.length == 0 || st[0].getMethodName().equals("_runLoop") || st[0].getClassName().contains("Unsafe")) continue;
                if (WHERE) {
                    String key = chain(st);
                    synchronized (samples) { samples.merge(key, 1, Integer::sum); }
                    continue;
                }
                String app = "";
                for (StackTraceElement f : st) {
                    if (f.getClassName().startsWith("io.barrierscope.app") && !f.getClassName().contains("Harness")) {
                        app = f.getClassName().replaceAll(".*\\.", "") + "." + f.getMethodName();
                        break;
                    }
                }
                String mid = "";
                for (StackTraceElement f : st) {
                    String c = f.getClassName();
                    if (c.startsWith("javafx.scene.Parent") || c.startsWith("javafx.scene.Node") || c.startsWith("javafx.scene.Scene")) {
                        mid = c.replaceAll(".*\\.", "") + "." + f.getMethodName();
                    }
                }
                String key = app + " | " + mid + " | " + st[0].getClassName().replaceAll(".*\\.", "") + "." + st[0].getMethodName();
                synchronized (samples) { samples.merge(key, 1, Integer::sum); }
            }
        }, "harness-sampler");
        t.setDaemon(true);
        t.start();
    }

    /**
     * {@code -Dbarrierscope.harness.where=true}: the sampler takes the FX thread's stack every
     * millisecond and names a sample by the chain of window, skin, cell, flow and CSS classes on it
     * (outermost first, each once) and the innermost frame (PauseLatencyHarness names a stop's frame's
     * samples so too): which control's CSS or layout the time went to. It perturbs the CPU figures; measure without it.
     */
    private static final boolean WHERE = Boolean.getBoolean("barrierscope.harness.where");

    static String chain(StackTraceElement[] st) {
        java.util.LinkedHashSet<String> chain = new java.util.LinkedHashSet<>();
        for (int i = st.length - 1; i >= 0; i--) {
            String full = st[i].getClassName();
            String c = full.replaceAll(".*\\.", "");
            String m = st[i].getMethodName();
            boolean ours = full.startsWith("io.barrierscope") && !full.contains("Harness");
            if (ours || c.endsWith("Skin") || c.endsWith("Cell") || c.startsWith("VirtualFlow") || c.endsWith("Row")
                    || (c.equals("Node") && (m.equals("processCSS") || m.equals("applyCss") || m.equals("reapplyCss")))
                    || (c.equals("Parent") && m.equals("layout")) || c.equals("CssStyleHelper") || c.equals("Text") || c.equals("PrismTextLayout")
                    || (c.equals("Scene$ScenePulseListener") && m.equals("pulse")))
                chain.add(ours || c.equals("Node") || c.equals("Parent") || c.startsWith("Scene") || c.equals("CssStyleHelper") ? c + "." + m : c);
        }
        return String.join(" > ", chain) + " | " + st[0].getClassName().replaceAll(".*\\.", "") + "." + st[0].getMethodName();
    }

    @Start
    void start(Stage stage) {
        sampler(Thread.currentThread());
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(Platform::runLater, l));
        view = new DebuggerView(vm, List.of());
        Scene scene = new Scene(view.root(), 1280, 800);
        view.installShortcuts(scene);
        stage.setScene(scene);
        stage.show();
        if (DIRTY) scene.addPreLayoutPulseListener(() -> snap(scene));
        if (DIRTY) scene.addPostLayoutPulseListener(() -> dirty(scene));
    }

    /**
     * {@code -Dbarrierscope.harness.dirty=true}: after the layout of each pulse while an action is
     * measured, prints the scene's dirty list (the nodes the pulse will copy to the render graph,
     * with their dirty bits; "(hidden)" for those under an invisible parent, which copy nothing)
     * and the nodes whose CSS is still pending (a branch marked dirty whose nodes are all clean
     * included: JavaFX then marks the root for the next pulse, which renders). With
     * {@code -Djavafx.pulseLogger=true -Djavafx.pulseLogger.threshold=0} each pulse's dirty
     * regions and nodes rendered show beside it (docs/performance.md, "A step's second frame").
     */
    private static final boolean DIRTY = Boolean.getBoolean("barrierscope.harness.dirty");
    private int pulse;

    /**
     * With {@code -Dbarrierscope.harness.dirty=true}, each node's pseudo-classes, style classes and
     * parent before the pulse's CSS pass: after its layout, the nodes whose state changed since are
     * printed as "RESTYLED IN LAYOUT" (a change after the CSS pass leaves the branch above marked).
     */
    private final java.util.Map<javafx.scene.Node, String> snapped = new java.util.IdentityHashMap<>();

    private static String state(javafx.scene.Node n) {
        return n.getPseudoClassStates() + " " + n.getStyleClass() + " " + System.identityHashCode(n.getParent()) + " " + n.getStyle();
    }

    private void snap(Scene scene) {
        snapped.clear();
        if (!sampling) return;
        for (javafx.scene.Node n : all(scene.getRoot())) snapped.put(n, state(n));
    }

    private void dirty(Scene scene) {
        if (!sampling) return;
        for (javafx.scene.Node n : all(scene.getRoot())) {
            String was = snapped.get(n);
            String now = state(n);
            if (now.equals(was) || snapped.isEmpty()) continue;
            javafx.scene.Node a = n.getParent();
            while (a != null && (a.getId() == null || a.getId().equals("virtual-flow"))) a = a.getParent();
            System.out.println("  RESTYLED IN LAYOUT under " + (a == null ? "(none)" : a.getId()) + " " + n.getClass().getSimpleName()
                    + ": " + was + " -> " + now);
        }
        Map<String, Integer> by = new TreeMap<>();
        int size;
        try {
            java.lang.reflect.Field f = javafx.scene.Node.class.getDeclaredField("dirtyBits");
            f.setAccessible(true);
            java.lang.reflect.Field list = Scene.class.getDeclaredField("dirtyNodes");
            list.setAccessible(true);
            java.lang.reflect.Field sizeF = Scene.class.getDeclaredField("dirtyNodesSize");
            sizeF.setAccessible(true);
            javafx.scene.Node[] nodes = (javafx.scene.Node[]) list.get(scene);
            size = sizeF.getInt(scene);
            for (int i = 0; i < size; i++) {
                javafx.scene.Node n = nodes[i];
                boolean shown = true;
                for (javafx.scene.Node p = n; p != null; p = p.getParent()) shown &= p.isVisible();
                javafx.scene.Node a = n;
                while (a != null && a.getId() == null) a = a.getParent();
                String key = (shown ? "" : "(hidden) ") + (a == null ? "(none)" : a.getId()) + " " + n.getClass().getSimpleName()
                        + n.getStyleClass() + " " + f.get(n);
                by.merge(key, 1, Integer::sum);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        try {
            java.lang.reflect.Field css = javafx.scene.Node.class.getDeclaredField("cssFlag");
            css.setAccessible(true);
            for (javafx.scene.Node n : all(scene.getRoot())) {
                String flag = String.valueOf(css.get(n));
                if (flag.equals("DIRTY_BRANCH") && n instanceof javafx.scene.Parent p) {
                    boolean leaf = true;
                    for (javafx.scene.Node c : p.getChildrenUnmodifiable()) leaf &= String.valueOf(css.get(c)).equals("CLEAN");
                    if (!leaf) continue;
                    flag = "DIRTY_BRANCH(leaf)";
                }
                if (flag.equals("CLEAN") || flag.equals("DIRTY_BRANCH")) continue;
                javafx.scene.Node a = n;
                while (a != null && (a.getId() == null || a.getId().equals("virtual-flow"))) a = a.getParent();
                by.merge("CSS " + flag + " " + (a == null ? "(none)" : a.getId()) + " " + n.getClass().getSimpleName() + n.getStyleClass(), 1, Integer::sum);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        System.out.println("DIRTY pulse " + (++pulse) + " (" + size + " nodes in the scene's dirty list):");
        by.forEach((k, v) -> System.out.println("  " + v + "  " + k));
    }

    /** CPU nanoseconds so far per group of threads: FX, engine (worker and opener), renderer, other (the harnesses share it). */
    static Map<String, Long> cpu() {
        Map<String, Long> m = new TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long ns = MX.getThreadCpuTime(t.getId());
            if (ns < 0) continue;
            String n = t.getName();
            String g = n.equals("JavaFX Application Thread") ? "fx" : n.startsWith("barrierscope-") ? "engine"
                    : n.startsWith("QuantumRenderer") ? "render" : "other";
            m.merge(g, ns, Long::sum);
        }
        return m;
    }

    /** Runs {@code action} {@code times} times, each until {@code done} and the FX queue is empty; reports mean CPU ms per group. */
    private void measure(String name, int times, Runnable setup, Runnable action, BooleanSupplier done) throws Exception {
        Map<String, Long> sum = new TreeMap<>();
        List<Double> fxEach = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            setup.run();
            WaitForAsyncUtils.waitForFxEvents();
            Map<String, Long> a = cpu();
            sampling = true;
            action.run();
            WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> fx(done::getAsBoolean));
            WaitForAsyncUtils.waitForFxEvents(); // the pulse that paints it
            Map<String, Long> b = cpu();
            sampling = false;
            for (String g : b.keySet()) sum.merge(g, b.get(g) - a.getOrDefault(g, 0L), Long::sum);
            fxEach.add((b.getOrDefault("fx", 0L) - a.getOrDefault("fx", 0L)) / 1e6);
        }
        synchronized (samples) {
            System.out.println("FX thread samples, " + name + ":");
            samples.entrySet().stream().sorted((x, y) -> Integer.compare(y.getValue(), x.getValue())).limit(WHERE ? 60 : 12)
                    .forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
            if (WHERE) {
                // Inclusive: the samples whose chain has each element (a sample counts once per element).
                Map<String, Integer> incl = new TreeMap<>();
                int all = 0;
                for (Map.Entry<String, Integer> e : samples.entrySet()) {
                    all += e.getValue();
                    java.util.Set<String> parts = new java.util.HashSet<>(List.of(e.getKey().split(" > | \\| ")));
                    for (String part : parts) incl.merge(part, e.getValue(), Integer::sum);
                }
                System.out.println("FX thread samples, inclusive, " + name + " (of " + all + "):");
                incl.entrySet().stream().sorted((x, y) -> Integer.compare(y.getValue(), x.getValue())).limit(50)
                        .forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
            }
            samples.clear();
        }
        report.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.0f | %s |%n", name, times,
                sum.getOrDefault("fx", 0L) / 1e6 / times, sum.getOrDefault("engine", 0L) / 1e6 / times,
                sum.getOrDefault("render", 0L) / 1e6 / times,
                fxEach.stream().map(d -> String.format(Locale.ROOT, "%.0f", d)).toList()));
    }

    private static <T> T fx(java.util.function.Supplier<T> s) {
        if (Platform.isFxApplicationThread()) return s.get();
        java.util.concurrent.atomic.AtomicReference<T> out = new java.util.concurrent.atomic.AtomicReference<>();
        WaitForAsyncUtils.waitForAsyncFx(60_000, () -> out.set(s.get()));
        return out.get();
    }

    private Path bigLaunch() throws Exception { return ResponsivenessHarness.bigLaunch(tmp); }

    private void session(FxRobot robot, String label, Path file) throws Exception {
        measure(label + ": nothing (the harness's own waiting, a baseline)", 3, () -> { }, () -> robot.interact(() -> { }), () -> true);
        String before = fx(() -> vm.titleProperty().get());
        measure(label + ": open to first paint", 1, () -> { }, () -> robot.interact(() -> vm.open(file)),
                () -> vm.loadedProperty().get() && !vm.titleProperty().get().equals(before) && vm.nowProperty().get() == 0);
        robot.type(KeyCode.F5);
        WaitForAsyncUtils.waitFor(300, TimeUnit.SECONDS, () -> fx(() -> vm.finishedProperty().get() && !vm.runningProperty().get()));
        WaitForAsyncUtils.waitForFxEvents();
        long end = fx(() -> vm.nowProperty().get());
        if (!ONLY_PRESENTATION && !ONLY_FAR) steps(robot, label, end);
        if (ONLY_STEPS) return;
        if (!ONLY_PRESENTATION) measure(label + ": timeline far click (end to 5%)", FAR_CLICKS, () -> {
            robot.interact(() -> vm.seek(end));
            try {
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> vm.nowProperty().get() == end && vm.idleProperty().get()));
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }, () -> {
            TimelineView t = view.timelineView();
            Point2D p = fx(() -> t.localToScreen(t.labelWidth() + 0.05 * (t.getWidth() - t.labelWidth() - 20), 24));
            robot.clickOn(p);
        }, () -> !vm.runningProperty().get() && vm.idleProperty().get() && vm.nowProperty().get() < end / 5 + 2);
        if (NEW_NODES) newNodes(robot, end);
        if (ONLY_FAR) System.out.println("TEXT NODES after the far clicks, " + label + ": " + fx(() -> textNodes("#sourceArea") + "; " + textNodes("#cudaArea")));
        if (ONLY_FAR) return;
        if (!ONLY_PRESENTATION) measure(label + ": dark toggle (Ctrl+Shift+D)", TOGGLES, () -> { },
                () -> robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.D).release(KeyCode.SHIFT, KeyCode.CONTROL), () -> true);
        // On and off apart: they differ in what they do (leaving also shows the inspector again).
        for (boolean on : new boolean[] {true, false}) {
            measure(label + ": presentation " + (on ? "on" : "off") + " (Ctrl+Shift+P)", TOGGLES,
                    () -> setPresentation(robot, !on), () -> pressPresentation(robot),
                    () -> vm.appearance().presentationProperty().get() == on);
        }
        setPresentation(robot, false);
    }

    /**
     * F10 and Shift+F10 from a tenth into the run: each until the window shows the new step (the
     * engine thread's share is the step or the seek back, the FX thread's applying and painting it).
     */
    private void steps(FxRobot robot, String label, long end) throws Exception {
        robot.interact(() -> vm.seek(end / 10));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> vm.nowProperty().get() == end / 10 && vm.idleProperty().get()));
        java.util.concurrent.atomic.AtomicLong from = new java.util.concurrent.atomic.AtomicLong();
        Runnable note = () -> from.set(fx(() -> vm.nowProperty().get()));
        measure(label + ": F10 (step)", STEPS, note, () -> robot.type(KeyCode.F10),
                () -> vm.idleProperty().get() && vm.nowProperty().get() > from.get());
        measure(label + ": Shift+F10 (step back)", STEPS, note,
                () -> robot.press(KeyCode.SHIFT).type(KeyCode.F10).release(KeyCode.SHIFT),
                () -> vm.idleProperty().get() && vm.nowProperty().get() < from.get());
    }

    /** {@code -Dbarrierscope.harness.newnodes=true}: prints where the nodes a far click makes anew sit (by nearest ancestor with an id). */
    private static final boolean NEW_NODES = Boolean.getBoolean("barrierscope.harness.newnodes");

    private void newNodes(FxRobot robot, long end) throws Exception {
        robot.interact(() -> vm.seek(end));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> vm.nowProperty().get() == end && vm.idleProperty().get()));
        WaitForAsyncUtils.waitForFxEvents();
        java.util.Set<javafx.scene.Node> before = fx(() -> all(view.root()));
        TimelineView t = view.timelineView();
        robot.clickOn(fx(() -> t.localToScreen(t.labelWidth() + 0.05 * (t.getWidth() - t.labelWidth() - 20), 24)));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> vm.idleProperty().get() && vm.nowProperty().get() < end / 5 + 2));
        WaitForAsyncUtils.waitForFxEvents();
        Map<String, Integer> where = new TreeMap<>();
        int total = fx(() -> {
            java.util.Set<javafx.scene.Node> after = all(view.root());
            for (javafx.scene.Node n : after) {
                if (before.contains(n)) continue;
                javafx.scene.Node a = n;
                while (a != null && a.getId() == null) a = a.getParent();
                where.merge(a == null ? "(none)" : a.getId(), 1, Integer::sum);
            }
            return after.size();
        });
        System.out.println("NEW NODES after a far click (of " + total + " in the scene): " + where);
    }

    /** The text nodes of a source pane's lines (in the scene, in view or spare cells) and how many are empty. */
    private String textNodes(String pane) {
        javafx.scene.Node p = view.root().lookup(pane);
        if (p == null) return pane + " none";
        int texts = 0, empty = 0, cells = 0;
        for (javafx.scene.Node n : all(p)) {
            if (n.getStyleClass().contains("code-line")) cells++;
            if (n instanceof javafx.scene.text.Text t && t.getParent() instanceof javafx.scene.text.TextFlow) {
                texts++;
                if (t.getText().isEmpty()) empty++;
            }
        }
        return pane + " " + cells + " line cells, " + texts + " line text nodes, " + empty + " empty";
    }

    static java.util.Set<javafx.scene.Node> all(javafx.scene.Node root) {
        java.util.Set<javafx.scene.Node> s = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<javafx.scene.Node> q = new java.util.ArrayDeque<>(List.of(root));
        while (!q.isEmpty()) {
            javafx.scene.Node n = q.pop();
            s.add(n);
            if (n instanceof javafx.scene.Parent p) q.addAll(p.getChildrenUnmodifiable());
        }
        return s;
    }

    /** Toggles measured per kind: {@code -Dbarrierscope.harness.toggles=N} for more than 6 (less noise). */
    private static final int TOGGLES = Integer.getInteger("barrierscope.harness.toggles", 6);

    private static void pressPresentation(FxRobot robot) {
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).type(KeyCode.P).release(KeyCode.SHIFT, KeyCode.CONTROL);
    }

    private void setPresentation(FxRobot robot, boolean on) {
        if (fx(() -> vm.appearance().presentationProperty().get()) != on) pressPresentation(robot);
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void measure(FxRobot robot) throws Exception {
        report.append("| action | n | FX thread (ms CPU, mean) | engine threads | renderer | FX thread each |\n");
        report.append("| --- | --- | --- | --- | --- | --- |\n");
        // Twice: the first pass warms the JIT and the CSS caches; the second is the one to read.
        for (String pass : new String[] {"warm-up: ", ""}) {
            session(robot, pass + "block-reduce 256 CTAs (32,768 threads)", bigLaunch());
            session(robot, pass + "tma-pipeline", TestFiles.sample("tma-pipeline"));
            Files.deleteIfExists(tmp.resolve("launch.json"));
            Files.deleteIfExists(tmp.resolve("kernel.ptx"));
        }
        report.append("\nload average at the end: ").append(Files.readString(Path.of("/proc/loadavg")).strip()).append('\n');
        robot.interact(() -> vm.close());
        Files.writeString(Path.of("target/window-cost.md"), report.toString());
        System.out.println(report);
    }
}
