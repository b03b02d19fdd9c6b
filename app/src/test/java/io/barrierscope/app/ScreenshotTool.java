package io.barrierscope.app;

import io.barrierscope.app.debugger.DebuggerView;
import io.barrierscope.app.debugger.DebuggerViewModel;
import io.barrierscope.app.debugger.Panel;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.welcome.SampleCatalog;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.function.BooleanSupplier;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import javax.imageio.ImageIO;

/**
 * Makes the README screenshots from the real window (run it under {@code xvfb-run}): the main
 * window on samples/tma-pipeline stopped at an mbarrier breakpoint with the breakpoints panel in
 * front, and the deadlock view on a deadlocking sample. Not a test: it drives the window through
 * its view model, as the keys would, and writes PNGs.
 *
 * <p>Usage: {@code ScreenshotTool OUT_DIR} (also writes help.png, the F1 overlay, console.png, the
 * Console after a click on a line, tensor.png, the Tensor tab on a wgmma GEMM, and presentation.png, presentation mode; the window is
 * 1440x900 unless {@code -Dshots.size=1280x800} says otherwise), on the test
 * classpath with JavaFX on the module path and without Monocle, e.g.
 * <pre>
 * mvn -q -o -pl app test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * FX=$(tr ':' '\n' &lt; /tmp/cp.txt | grep openjfx | grep -v monocle | paste -sd:)
 * xvfb-run -a -s "-screen 0 1440x900x24" java --module-path "$FX" --add-modules javafx.controls \
 *   -cp app/target/test-classes:app/target/classes:engine/target/classes:$(cat /tmp/cp.txt) \
 *   io.barrierscope.app.ScreenshotTool /tmp/shots
 * </pre>
 */
public final class ScreenshotTool extends Application {
    private DebuggerViewModel vm;
    private Scene scene;

    public static void main(String[] args) {
        launch(ScreenshotTool.class, args);
    }

    @Override
    public void start(Stage stage) {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation()).orElseThrow();
        vm = new DebuggerViewModel(l -> DebugSession.withWorkerThread(Platform::runLater, l));
        DebuggerView view = new DebuggerView(vm, SampleCatalog.read(Locations.samplesInCourseOrder(root)));
        String[] size = System.getProperty("shots.size", "1440x900").split("x");
        scene = new Scene(view.root(), Integer.parseInt(size[0]), Integer.parseInt(size[1]));
        view.installShortcuts(scene);
        stage.titleProperty().bind(vm.titleProperty());
        stage.setScene(scene);
        stage.show();
        Path out = Path.of(getParameters().getRaw().isEmpty() ? "/tmp/shots" : getParameters().getRaw().get(0));
        Thread script = new Thread(() -> {
            try {
                Files.createDirectories(out);
                mainWindow(root, out.resolve("main.png"));
                deadlock(root, out.resolve("deadlock.png"));
                Platform.runLater(() -> vm.appearance().toggleHelp());
                settle();
                snapshot(out.resolve("help.png"));
                Platform.runLater(() -> vm.appearance().toggleHelp());
                console(root, out.resolve("console.png"));
                tensor(root, out.resolve("tensor.png"));
                fx(() -> vm.appearance().togglePresentation());
                settle();
                snapshot(out.resolve("presentation.png"));
                System.out.println("screenshots written to " + out);
                Platform.exit();
            } catch (Exception e) {
                e.printStackTrace();
                System.exit(1);
            }
        }, "screenshot-script");
        script.setDaemon(true);
        script.start();
    }

    private void mainWindow(Path root, Path png) throws Exception {
        Path launch = root.resolve("samples/tma-pipeline/launch.json");
        fx(() -> vm.open(launch));
        await(() -> vm.loadedProperty().get() && "ready".equals(vm.outcomeProperty().get()));
        int consumerArrive = lineOf("mbarrier.arrive.shared::cta.b64");
        add("mbarrier:empty,phase=1");
        add("tx-zero:full,cta=0,hits=5");
        // A CUDA line with code of its own (lines that only call inlined helpers have none).
        int cudaLine = call(() -> vm.cuda().mappedLines().stream().filter(l -> l > 130).min(Integer::compare).orElseThrow());
        add("line:kernel.cu:" + cudaLine);
        add("line:" + consumerArrive + ",warp=2,hits=100");
        add("diagnostic");
        fx(() -> vm.breakpoints().setEnabled(vm.breakpoints().rows().get(2), false)); // drawn hollow
        await(() -> !vm.breakpoints().rows().get(2).enabled());
        fx(vm::run);
        await(() -> !vm.runningProperty().get() && vm.messageProperty().get().startsWith("Breakpoint "));
        String stop = call(() -> vm.messageProperty().get());
        if (!stop.startsWith("Breakpoint mbarrier:empty")) throw new IllegalStateException("stopped elsewhere: " + stop);
        fx(() -> {
            vm.showPanel(Panel.BREAKPOINTS);
            vm.source().reveal(vm.source().getCurrentLine());
        });
        settle();
        snapshot(png);
    }

    private void deadlock(Path root, Path png) throws Exception {
        fx(() -> vm.open(root.resolve("samples/mbarrier-init-count-too-high/launch.json")));
        await(() -> "ready".equals(vm.outcomeProperty().get()));
        fx(vm::run);
        await(() -> "deadlock".equals(vm.outcomeProperty().get()));
        fx(() -> {
            vm.deadlock().select(vm.deadlock().graphProperty().get().nodes().stream()
                    .filter(n -> n.kind() == io.barrierscope.app.deadlock.WaitGraph.Kind.MISSING).findFirst().orElseThrow());
            // Room for the graph, as a user would drag the dividers: four lanes need little timeline.
            ((javafx.scene.control.SplitPane) scene.lookup("#mainSplit")).setDividerPositions(0.86);
        });
        settle();
        snapshot(png);
        fx(() -> ((javafx.scene.control.SplitPane) scene.lookup("#mainSplit")).setDividerPositions(0.78));
    }

    /** The engine's printf kernel on 8 CTAs, run to its end, a line of CTA 5 clicked in the Console. */
    private void console(Path root, Path png) throws Exception {
        Path ptx = root.resolve("engine/src/test/resources/ptx-corpus/printf_debug.ptx");
        fx(() -> vm.open(ptx, io.barrierscope.app.session.LaunchSettings.parse("8", "32", "", "round-robin", "0")));
        await(() -> "ready".equals(vm.outcomeProperty().get()));
        fx(vm::run);
        await(() -> "completed".equals(vm.outcomeProperty().get()));
        var line = call(() -> vm.console().rows().stream().filter(l -> l.text().startsWith("block 5")).findFirst().orElseThrow());
        fx(() -> {
            vm.showPanel(Panel.CONSOLE);
            vm.console().activate(line);
        });
        await(() -> vm.nowProperty().get() == line.stopStep());
        settle();
        snapshot(png);
    }

    /** The wgmma GEMM run to its end: the Tensor tab on the accumulator tile, the timeline's wgmma and copy bands. */
    private void tensor(Path root, Path png) throws Exception {
        fx(() -> vm.open(root.resolve("samples/wgmma-gemm/launch.json")));
        await(() -> "ready".equals(vm.outcomeProperty().get()));
        fx(vm::run);
        await(() -> "completed".equals(vm.outcomeProperty().get()));
        fx(() -> {
            vm.showPanel(Panel.THREADS);
            var inspector = (javafx.scene.control.TabPane) scene.lookup(".inspector");
            inspector.getSelectionModel().select(inspector.getTabs().stream().filter(t -> "tensorTab".equals(t.getId())).findFirst().orElseThrow());
        });
        await(() -> vm.tensor().tileProperty().get().rows() == 64);
        // Room for the tile, as a user would drag the dividers; given back afterwards.
        var panes = (javafx.scene.control.SplitPane) scene.lookup("#sourcesAndPanes");
        var right = (javafx.scene.control.SplitPane) panes.getItems().get(1);
        var threads = (javafx.scene.control.SplitPane) scene.lookup("#threadsSplit");
        double[] before = call(() -> new double[] {panes.getDividerPositions()[0], right.getDividerPositions()[0], threads.getDividerPositions()[0]});
        fx(() -> {
            if (vm.timelineProperty().get() != null) vm.timelineProperty().get().fitAll();
            panes.setDividerPositions(0.3);
            right.setDividerPositions(0.08);
            threads.setDividerPositions(0.12);
        });
        settle();
        snapshot(png);
        fx(() -> {
            panes.setDividerPositions(before[0]);
            right.setDividerPositions(before[1]);
            threads.setDividerPositions(before[2]);
        });
    }

    private int lineOf(String text) throws Exception {
        return call(() -> {
            var lines = vm.source().getLines();
            for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(text)) return i + 1;
            throw new IllegalStateException("no line with " + text);
        });
    }

    private void add(String spec) throws Exception {
        int before = call(() -> vm.breakpoints().rows().size());
        fx(() -> {
            vm.breakpoints().textProperty().set(spec);
            vm.breakpoints().add();
        });
        await(() -> vm.breakpoints().rows().size() == before + 1 || !vm.breakpoints().errorProperty().get().isEmpty());
        String error = call(() -> vm.breakpoints().errorProperty().get());
        if (!error.isEmpty()) throw new IllegalStateException(error);
    }

    private void snapshot(Path png) throws Exception {
        WritableImage image = call(() -> scene.snapshot(null));
        int w = (int) image.getWidth(), h = (int) image.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader px = image.getPixelReader();
        for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) out.setRGB(x, y, px.getArgb(x, y));
        ImageIO.write(out, "png", png.toFile());
        System.out.println("wrote " + png);
    }

    /** Lets the engine thread and a few pulses pass, so tables and code areas have laid out. */
    private static void settle() throws InterruptedException {
        Thread.sleep(1200);
    }

    private static void fx(Runnable r) throws Exception {
        call(() -> {
            r.run();
            return null;
        });
    }

    private static <T> T call(Callable<T> c) throws Exception {
        FutureTask<T> t = new FutureTask<>(c);
        Platform.runLater(t);
        return t.get();
    }

    private static void await(BooleanSupplier condition) throws Exception {
        long end = System.nanoTime() + 60_000_000_000L;
        while (!call(condition::getAsBoolean)) {
            if (System.nanoTime() > end) throw new IllegalStateException("timed out waiting");
            Thread.sleep(50);
        }
    }
}
