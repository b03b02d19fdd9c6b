package io.barrierscope.app.debugger;

import com.sun.javafx.perf.PerformanceTracker;
import com.sun.javafx.tk.TKPulseListener;
import com.sun.javafx.tk.Toolkit;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.event.Event;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.PickResult;
import org.testfx.util.WaitForAsyncUtils;

/**
 * What a user of the window waits for, for the window harnesses (docs/performance.md, "Window
 * responsiveness"): input delivered as the window system delivers it, and the frame that shows its
 * result.
 *
 * <p>Input: a key or a click is queued for the FX thread ({@link Platform#runLater}) and fired on
 * the focused node (a key) or the node clicked, the way glass queues the platform's events: the FX
 * thread takes it when it is free, and nothing waits for the FX queue to drain (TestFX's robot does,
 * after each press and release, which is its own waiting, not the window's).
 *
 * <p>Frames: an {@link AnimationTimer} notes every pulse (the gaps between them are the FX thread's
 * stalls). For a measured input, each pulse from the one after the input's dispatch on checks the
 * action's "done" condition in its animation phase; at the first that finds it true (the result
 * pulse) it notes that pulse, the end of its CSS and layout (a post-layout pulse listener), the end
 * of its synchronisation with the render graph (a post-scene toolkit pulse listener, after the FX
 * thread waited for any earlier frame's rendering), and the end of the rendering of the frame that
 * pulse submitted (the scene's performance tracker, called on the render thread). A result pulse
 * with nothing to repaint (the scene not dirty) counts as painted when it is synchronised. All
 * times are {@link System#nanoTime()} and are taken from the input's dispatch on the FX thread.
 *
 * <p>Uses JavaFX internals (the toolkit's post-scene pulse listeners, the performance tracker, the
 * paint collector's dirty flag), which the tests can reach because they run on the class path.
 */
final class FrameProbe {
    /** One measured input, from its queueing to the painted result; all {@code System.nanoTime()}, 0 until known. */
    static final class Trial {
        final BooleanSupplier done;
        volatile long queued;
        volatile long dispatched;
        volatile long pulse;
        volatile long laidOut;
        volatile long synced;
        volatile long painted;
        volatile long frameTarget; // the frame count that is the result pulse's frame
        volatile boolean repainted; // the result pulse submitted a frame
        final CountDownLatch finished = new CountDownLatch(1);

        Trial(BooleanSupplier done) { this.done = done; }
    }

    /**
     * A measured input, in milliseconds from its dispatch on the FX thread: to the result pulse, to
     * that pulse's CSS and layout done, to its frame painted; before it, the wait from queueing to
     * dispatch (the FX thread busy); and the longest gap between pulses from dispatch to painted.
     */
    record Timing(double queuedMs, double pulseMs, double laidOutMs, double paintedMs, boolean repainted, double longestGapMs,
            long dispatchedAt, long paintedAt, double syncedMs, double fxCpuMs, double renderCpuMs) {}

    private final Scene scene;
    private final List<Long> pulses = new ArrayList<>(); // FX thread only
    private final List<Long> pulseCpu = new ArrayList<>(); // the FX thread's CPU time at each pulse, FX thread only
    private final AnimationTimer timer;
    private final TKPulseListener afterSync = this::afterSync;
    private final Runnable afterLayout = this::afterLayout;
    private final AtomicLong frames = new AtomicLong(); // this scene's frames rendered so far
    private volatile Trial trial;
    private volatile boolean closed;
    private static final Method PAINT_COLLECTOR = method("getInstance");
    private static final Method HAS_DIRTY = method("hasDirty");

    private static Method method(String name) {
        try {
            Method m = Class.forName("com.sun.javafx.tk.quantum.PaintCollector").getDeclaredMethod(name);
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // then every result pulse is taken to repaint
        }
    }

    /** Starts recording pulses and frames of {@code scene}; on the FX thread, once its stage is shown. */
    FrameProbe(Scene scene) {
        this.scene = scene;
        timer = new AnimationTimer() {
            @Override public void handle(long now) { pulse(); }
        };
        timer.start();
        scene.addPostLayoutPulseListener(afterLayout);
        Toolkit.getToolkit().addPostSceneTkPulseListener(afterSync);
        PerformanceTracker.getSceneTracker(scene).setOnRenderedFrameTask(this::rendered);
    }

    /** Stops recording (on the FX thread), so the JVM can end. */
    void close() {
        closed = true;
        timer.stop();
        scene.removePostLayoutPulseListener(afterLayout);
        Toolkit.getToolkit().removePostSceneTkPulseListener(afterSync);
        PerformanceTracker.releaseSceneTracker(scene);
    }

    Scene scene() { return scene; }

    // ---- the pulse, on the FX thread, and the render thread ----

    private void pulse() {
        long now = System.nanoTime();
        pulses.add(now);
        pulseCpu.add(MX.getCurrentThreadCpuTime());
        if (TRACE) trace("pulse");
        Trial t = trial;
        if (t != null && t.dispatched != 0 && t.pulse == 0 && t.done.getAsBoolean()) t.pulse = now;
    }

    private void afterLayout() {
        if (TRACE) trace("laid out");
        Trial t = trial;
        if (t != null && t.pulse != 0 && t.laidOut == 0) t.laidOut = System.nanoTime();
    }

    private void afterSync() {
        if (TRACE) trace("synced");
        Trial t = trial;
        if (t == null || t.laidOut == 0 || t.synced != 0) return;
        long now = System.nanoTime();
        // The scene's sync waited for any earlier frame to be rendered: the next frame is this pulse's.
        t.frameTarget = frames.get() + 1;
        t.synced = now;
        if (!dirty()) {
            t.painted = now;
            t.finished.countDown();
        } else {
            t.repainted = true;
        }
    }

    private static boolean dirty() {
        if (PAINT_COLLECTOR == null || HAS_DIRTY == null) return true;
        try {
            return (Boolean) HAS_DIRTY.invoke(PAINT_COLLECTOR.invoke(null));
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    private void rendered() { // render thread
        long n = frames.incrementAndGet();
        if (TRACE) System.out.printf(java.util.Locale.ROOT, "FRAME %d rendered at %.1f ms%n", n, (System.nanoTime() - T0) / 1e6);
        Trial t = trial;
        if (t != null && t.repainted && t.painted == 0 && t.frameTarget != 0 && n >= t.frameTarget) {
            t.painted = System.nanoTime();
            t.finished.countDown();
        }
    }

    /**
     * {@code -Dbarrierscope.harness.trace=true} (diagnostic): at each pulse's animation phase, after
     * its layout and after its synchronisation, prints the time, whether the scene's peer is marked
     * to be painted whole ({@code entireSceneDirty}), whether the paint collector has a dirty scene,
     * and the root's CSS flag; and each rendered frame. With the pulse logger on, the same goes into
     * the pulse's log.
     */
    static final boolean TRACE = Boolean.getBoolean("barrierscope.harness.trace");
    private static final long T0 = System.nanoTime();

    private void trace(String where) {
        String entire = "?";
        try {
            Object peer = com.sun.javafx.scene.SceneHelper.getPeer(scene);
            Class<?> c = Class.forName("com.sun.javafx.tk.quantum.GlassScene");
            Method m = c.getDeclaredMethod("isEntireSceneDirty");
            m.setAccessible(true);
            entire = String.valueOf(m.invoke(peer));
        } catch (ReflectiveOperationException | RuntimeException e) {
            entire = e.toString();
        }
        String css = "?";
        try {
            java.lang.reflect.Field f = Node.class.getDeclaredField("cssFlag");
            f.setAccessible(true);
            css = String.valueOf(f.get(scene.getRoot()));
        } catch (ReflectiveOperationException e) {
            css = e.toString();
        }
        String line = String.format(java.util.Locale.ROOT, "TRACE %-8s %.1f ms entireSceneDirty=%s collectorDirty=%s rootCss=%s trial=%s",
                where, (System.nanoTime() - T0) / 1e6, entire, dirty(), css, trial != null);
        if (where.equals("laid out") && !css.equals("CLEAN")) line += " pending CSS: " + pendingCss(scene.getRoot());
        if (where.equals("laid out") && (trial != null || dirtyCount(scene) > 300)) line += " dirty: " + dirtyList(scene);
        System.out.println(line);
        if (com.sun.javafx.logging.PulseLogger.PULSE_LOGGING_ENABLED) com.sun.javafx.logging.PulseLogger.addMessage(line);
    }

    private static int dirtyCount(Scene scene) {
        try {
            java.lang.reflect.Field sizeF = Scene.class.getDeclaredField("dirtyNodesSize");
            sizeF.setAccessible(true);
            return sizeF.getInt(scene);
        } catch (ReflectiveOperationException e) {
            return -1;
        }
    }

    /** The scene's dirty list (what this pulse copies to the render graph): nearest id, class, scene bounds and dirty bits, grouped. */
    static String dirtyList(Scene scene) {
        java.util.Map<String, Integer> by = new java.util.TreeMap<>();
        try {
            java.lang.reflect.Field list = Scene.class.getDeclaredField("dirtyNodes");
            list.setAccessible(true);
            java.lang.reflect.Field sizeF = Scene.class.getDeclaredField("dirtyNodesSize");
            sizeF.setAccessible(true);
            java.lang.reflect.Field bits = Node.class.getDeclaredField("dirtyBits");
            bits.setAccessible(true);
            Node[] nodes = (Node[]) list.get(scene);
            int size = sizeF.getInt(scene);
            for (int i = 0; i < size; i++) {
                Node n = nodes[i];
                boolean shown = true;
                for (Node p = n; p != null; p = p.getParent()) shown &= p.isVisible();
                if (!shown) continue;
                Node a = n;
                while (a != null && (a.getId() == null || a.getId().equals("virtual-flow"))) a = a.getParent();
                javafx.geometry.Bounds b = n.localToScene(n.getBoundsInLocal());
                by.merge(String.format(java.util.Locale.ROOT, "%s %s(%.0f,%.0f %.0fx%.0f) %s", a == null ? "-" : a.getId(),
                        n.getClass().getSimpleName(), b.getMinX(), b.getMinY(), b.getWidth(), b.getHeight(), bits.get(n)), 1, Integer::sum);
            }
        } catch (ReflectiveOperationException e) {
            return e.toString();
        }
        return by.toString();
    }

    /** The nodes whose CSS is pending under {@code root}: not clean, or a dirty branch with every child clean. */
    static String pendingCss(javafx.scene.Parent root) {
        StringBuilder out = new StringBuilder();
        try {
            java.lang.reflect.Field css = Node.class.getDeclaredField("cssFlag");
            css.setAccessible(true);
            java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>(List.of(root));
            while (!todo.isEmpty()) {
                Node n = todo.pop();
                String flag = String.valueOf(css.get(n));
                if (flag.equals("CLEAN")) continue;
                boolean leaf = true;
                if (n instanceof javafx.scene.Parent p) {
                    for (Node c : p.getChildrenUnmodifiable()) {
                        todo.push(c);
                        leaf &= String.valueOf(css.get(c)).equals("CLEAN");
                    }
                }
                if (flag.equals("DIRTY_BRANCH") && !leaf) continue;
                StringBuilder path = new StringBuilder();
                for (Node a = n; a != null; a = a.getParent()) {
                    if (a.getId() != null && !a.getId().equals("virtual-flow")) { path.insert(0, "#" + a.getId() + " "); break; }
                    path.insert(0, a.getClass().getSimpleName() + (a.getId() != null ? "#" + a.getId() : "") + a.getStyleClass() + " ");
                }
                out.append("[").append(flag).append(" ").append(path.toString().strip()).append("] ");
            }
        } catch (ReflectiveOperationException e) {
            out.append(e);
        }
        return out.toString();
    }

    // ---- input as the window system delivers it ----

    /**
     * Queues {@code r} for the FX thread as glass queues an event; when it runs, that is the
     * measured input's dispatch (if a measurement is waiting for one).
     */
    void later(Runnable r) {
        Trial t = trial;
        long queued = System.nanoTime();
        Platform.runLater(() -> {
            if (t != null && t.dispatched == 0) {
                t.queued = queued;
                t.dispatched = System.nanoTime();
            }
            r.run();
        });
    }

    /** A key pressed (and then released) on the focused node, with the modifiers held. */
    void key(KeyCode code, KeyCode... modifiers) {
        boolean shift = false, ctrl = false, alt = false, meta = false;
        for (KeyCode m : modifiers) {
            shift |= m == KeyCode.SHIFT;
            ctrl |= m == KeyCode.CONTROL;
            alt |= m == KeyCode.ALT;
            meta |= m == KeyCode.META;
        }
        KeyEvent press = new KeyEvent(KeyEvent.KEY_PRESSED, "", "", code, shift, ctrl, alt, meta);
        KeyEvent release = new KeyEvent(KeyEvent.KEY_RELEASED, "", "", code, shift, ctrl, alt, meta);
        later(() -> Event.fireEvent(focused(), press));
        Platform.runLater(() -> Event.fireEvent(focused(), release));
    }

    private Node focused() {
        return scene.getFocusOwner() != null ? scene.getFocusOwner() : scene.getRoot();
    }

    /** A primary click (press, release, click) at {@code (x, y)} in {@code node}'s coordinates, delivered to that node. */
    void click(Node node, double x, double y) {
        later(() -> Event.fireEvent(node, mouse(node, MouseEvent.MOUSE_PRESSED, x, y, true)));
        Platform.runLater(() -> Event.fireEvent(node, mouse(node, MouseEvent.MOUSE_RELEASED, x, y, false)));
        Platform.runLater(() -> Event.fireEvent(node, mouse(node, MouseEvent.MOUSE_CLICKED, x, y, false)));
    }

    private static MouseEvent mouse(Node node, javafx.event.EventType<MouseEvent> type, double x, double y, boolean down) {
        Point2D s = node.localToScene(x, y);
        Point2D screen = node.localToScreen(x, y);
        return new MouseEvent(type, s.getX(), s.getY(), screen.getX(), screen.getY(), MouseButton.PRIMARY, 1,
                false, false, false, false, down, false, false, false, false, true, new PickResult(node, s.getX(), s.getY()));
    }

    // ---- measuring ----

    /**
     * Gives {@code input} (which delivers through {@link #later}, {@link #key} or {@link #click})
     * and waits until the frame showing {@code done} (checked on the FX thread at each pulse) is
     * painted. The FX queue is drained first, outside the measurement.
     */
    Timing measure(Runnable input, BooleanSupplier done, long timeoutSeconds) throws Exception {
        WaitForAsyncUtils.waitForFxEvents();
        Trial t = new Trial(done);
        long[] cpu0 = cpu();
        trial = t;
        try {
            input.run();
            if (!t.finished.await(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new TimeoutException("no painted result within " + timeoutSeconds + " s (dispatched " + (t.dispatched != 0)
                        + ", result pulse " + (t.pulse != 0) + ", laid out " + (t.laidOut != 0) + ", synced " + (t.synced != 0) + ")");
            }
        } finally {
            trial = null;
        }
        long[] cpu1 = cpu();
        double gap = longestGap(t.dispatched, t.painted);
        return new Timing(ms(t.dispatched - t.queued), ms(t.pulse - t.dispatched), ms(t.laidOut - t.dispatched),
                ms(t.painted - t.dispatched), t.repainted, gap, t.dispatched, t.painted, ms(t.synced - t.dispatched),
                ms(cpu1[0] - cpu0[0]), ms(cpu1[1] - cpu0[1]));
    }

    private static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();

    /** CPU nanoseconds so far of the FX thread and of the renderer (the QuantumRenderer thread). */
    static long[] cpu() {
        long[] out = new long[2];
        for (Thread th : Thread.getAllStackTraces().keySet()) {
            long ns = MX.getThreadCpuTime(th.getId());
            if (ns < 0) continue;
            if (th.getName().equals("JavaFX Application Thread")) out[0] += ns;
            else if (th.getName().startsWith("QuantumRenderer")) out[1] += ns;
        }
        return out;
    }

    private static double ms(long ns) { return ns / 1e6; }

    /** The longest gap between consecutive pulses within [t0, t1] (a gap straddling either end counts up to it). */
    double longestGap(long t0, long t1) {
        return fx(() -> {
            long worst = 0;
            long prev = -1;
            for (long p : pulses) {
                if (prev >= 0 && p > t0) worst = Math.max(worst, Math.min(p, t1) - Math.max(prev, t0));
                prev = p;
                if (p >= t1) break;
            }
            if (prev >= 0 && prev < t1) worst = Math.max(worst, t1 - Math.max(prev, t0)); // still stalled at t1
            return worst / 1e6;
        });
    }

    /**
     * The gaps between consecutive pulses within [t0, t1] longer than {@code ms}, each as {start, end
     * (nanoTime), the FX thread's CPU nanoseconds from the pulse before to the pulse after (-1 for a
     * gap still open at t1)}: a gap of wall clock with little CPU in it is the machine (or a GC), one
     * full of CPU is the window's work.
     */
    List<long[]> gapsOver(long t0, long t1, double ms) {
        return fx(() -> {
            List<long[]> out = new ArrayList<>();
            for (int i = 1; i < pulses.size(); i++) {
                long prev = pulses.get(i - 1), p = pulses.get(i);
                if (p > t0 && prev < t1 && (Math.min(p, t1) - Math.max(prev, t0)) / 1e6 > ms) {
                    out.add(new long[] {prev, p, pulseCpu.get(i) - pulseCpu.get(i - 1)});
                }
                if (p >= t1) break;
            }
            long last = pulses.isEmpty() ? -1 : pulses.get(pulses.size() - 1);
            if (last >= 0 && last < t1 && (t1 - Math.max(last, t0)) / 1e6 > ms) out.add(new long[] {last, t1, -1});
            return out;
        });
    }

    /** The first pulse at or after {@code t}, or -1. */
    long pulseAfter(long t) {
        return fx(() -> {
            for (long p : pulses) if (p >= t) return p;
            return -1L;
        });
    }

    /** The number of pulses within [t0, t1]. */
    long pulsesBetween(long t0, long t1) {
        return fx(() -> pulses.stream().filter(p -> p >= t0 && p <= t1).count());
    }

    /** A value computed on the FX thread. */
    static <T> T fx(Supplier<T> s) {
        if (Platform.isFxApplicationThread()) return s.get();
        AtomicReference<T> out = new AtomicReference<>();
        WaitForAsyncUtils.waitForAsyncFx(60_000, () -> out.set(s.get()));
        return out.get();
    }

    boolean isClosed() { return closed; }
}
