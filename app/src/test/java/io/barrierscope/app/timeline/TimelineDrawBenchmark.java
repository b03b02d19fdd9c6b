package io.barrierscope.app.timeline;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.app.Locations;
import io.barrierscope.launch.ArgSpec;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.Recording;
import io.barrierscope.trace.TimeTravel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * A measured harness (not a test) for the timeline's drawing target: one frame drawn in at most 8 ms
 * with 10 M events loaded and 1 M in view. It records the benchmark kernel (benchmarks/, the
 * bundled barrier loop) long enough for more than 10 M events, builds the timeline model, puts a
 * 1600x800 TimelineView in a headless (Monocle) stage and times full redraws (the LOD queries for
 * every row plus all GraphicsContext calls) over ranges holding at least 1 M events. It also times
 * the software rasterisation of a frame (a canvas snapshot), which JavaFX otherwise does on its
 * render thread. How to run: docs/performance.md.
 *
 * <p>Arguments: [iterations of the kernel loop, default 12500: about 10.7 M events] [frames per range, default 200] [png file of one frame].
 */
public final class TimelineDrawBenchmark {
    private TimelineDrawBenchmark() {}

    public static void main(String[] args) throws Exception {
        headless();
        long iters = args.length > 0 ? Long.parseLong(args[0]) : 12_500;
        int frames = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation()).orElseThrow();
        LaunchSpec s = LaunchValidation.validate(root.resolve("benchmarks/src/main/resources/kernels/launch.json")).spec();
        List<ArgSpec> a = new ArrayList<>(s.args());
        ArgSpec it = a.get(2);
        a.set(2, new ArgSpec(null, it.type(), 0, null, null, iters));
        LaunchSpec spec = new LaunchSpec(s.file(), s.ptx(), s.kernel(), s.grid(), s.block(), s.cluster(), a, s.dynamicSharedBytes(),
                null, s.policy(), s.seed(), Long.MAX_VALUE / 4, s.notes(), s.buffers());

        long t0 = System.nanoTime();
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(spec).start(null, null));
        tt.runForward(() -> false);
        Recording rec = tt.recording();
        long t1 = System.nanoTime();
        TimelineModel model = TimelineModel.of(tt);
        model.update();
        long t2 = System.nanoTime();
        System.gc();
        System.out.printf("recording: %,d warp steps, %,d events, %d warps; recorded in %.1f s; timeline model built in %.2f s (%.0f ns/event)%n",
                rec.steps(), rec.events(), model.lanes(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t2 - t1) / (double) rec.events());
        long spans = 0;
        long markers = 0;
        for (int l = 0; l < model.lanes(); l++) {
            spans += model.lane(l).spans();
            for (MarkerKind k : MarkerKind.values()) markers += model.lane(l).markers(k);
        }
        System.out.printf("model: %,d spans, %,d markers, %,d completions (about %,d KiB of arrays)%n", spans, markers,
                model.completions().size(), (spans * 16 + markers * 24 + model.completions().size() * 33) >> 10);

        Platform.startup(() -> { });
        CompletableFuture<TimelineView> made = new CompletableFuture<>();
        Platform.runLater(() -> {
            TimelineViewModel vm = new TimelineViewModel(model);
            TimelineView view = new TimelineView(vm);
            Stage stage = new Stage();
            stage.setScene(new Scene(view, 1600, 800));
            stage.show();
            made.complete(view);
        });
        TimelineView view = made.get();
        TimelineViewModel vm = view.viewModel();
        long steps = model.knownSteps();
        // ranges: the whole run, and windows of 1/8 of it at a few places (each well over 1 M events)
        double[][] ranges = {{0, steps}, {0, steps / 8.0}, {steps * 0.45, steps * 0.575}, {steps * 0.875, steps}};
        System.out.printf("%-26s %12s %10s %10s %10s %10s %10s %10s %12s%n", "range (steps)", "events", "median ms", "p95 ms", "max ms",
                "cpu med", "cpu p95", "LOD ms", "raster ms");
        for (double[] r : ranges) {
            long events = eventsIn(rec, (long) r[0], (long) Math.ceil(r[1]));
            double[] res = onFx(() -> measure(view, vm, r[0], r[1], frames));
            System.out.printf("%-26s %,12d %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %12.2f%n",
                    String.format("%,d-%,d", (long) r[0], (long) r[1]), events, res[0], res[1], res[2], res[5], res[6], res[3], res[4]);
        }
        if (args.length > 2) {
            onFx(() -> {
                vm.startProperty().set(steps * 0.45);
                vm.endProperty().set(steps * 0.575);
                view.drawContent();
                view.drawOverlay();
                Snapshots.png(view, Path.of(args[2]));
                return null;
            });
        }
        Platform.exit();
    }

    /** The FX thread's CPU time, which unlike wall time leaves out waiting for a core on a busy machine. */
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * Times frames over [start, end): median, p95 and max wall time of the full redraw, mean of the
     * LOD part alone, mean rasterisation, median and p95 CPU time of the full redraw.
     */
    private static double[] measure(TimelineView view, TimelineViewModel vm, double start, double end, int frames) {
        vm.startProperty().set(start);
        vm.endProperty().set(end);
        for (int i = 0; i < 30; i++) view.drawContent(); // warm-up
        double[] ms = new double[frames];
        double[] cpu = new double[frames];
        for (int i = 0; i < frames; i++) {
            long c = CPU.getCurrentThreadCpuTime();
            long t = System.nanoTime();
            view.drawContent();
            ms[i] = (System.nanoTime() - t) / 1e6;
            cpu[i] = (CPU.getCurrentThreadCpuTime() - c) / 1e6;
        }
        Arrays.sort(ms);
        Arrays.sort(cpu);
        TimelineColumns cols = new TimelineColumns((int) vm.viewportWidthProperty().get());
        List<TimelineViewModel.Row> rows = vm.rowsProperty().get();
        long t = System.nanoTime();
        for (int i = 0; i < frames; i++) {
            vm.bounds(cols);
            for (TimelineViewModel.Row r : rows) vm.model().row(r.laneFrom(), r.laneTo(), cols);
            vm.model().completionColumns(cols);
        }
        double lod = (System.nanoTime() - t) / 1e6 / frames;
        int snaps = Math.max(5, frames / 20);
        t = System.nanoTime();
        for (int i = 0; i < snaps; i++) {
            view.drawContent();
            view.snapshot(null, null);
        }
        double raster = (System.nanoTime() - t) / 1e6 / snaps;
        return new double[] {ms[frames / 2], ms[(int) (frames * 0.95)], ms[frames - 1], lod, raster, cpu[frames / 2], cpu[(int) (frames * 0.95)]};
    }

    private static long eventsIn(Recording rec, long from, long to) {
        EventCursor c = rec.cursor(from);
        long n = 0;
        while (c.next() && c.step < to) n++;
        return n;
    }

    private static <T> T onFx(java.util.concurrent.Callable<T> task) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                f.complete(task.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        return f.get();
    }

    /** The same settings the tests use (pom.xml's surefire configuration), unless given on the command line. */
    private static void headless() {
        String[][] props = {{"glass.platform", "Monocle"}, {"monocle.platform", "Headless"}, {"prism.order", "sw"},
            {"java.awt.headless", "true"}, {"headless.geometry", "1920x1200-32"}};
        for (String[] p : props) if (System.getProperty(p[0]) == null) System.setProperty(p[0], p[1]);
    }
}
