package io.barrierscope.app.debugger;

import io.barrierscope.app.files.LaunchSettingsDialog;
import io.barrierscope.app.files.LaunchEditorViewModel;
import io.barrierscope.launch.NvccCompiler;
import javafx.application.Platform;
import io.barrierscope.app.timeline.TimelineExport;
import io.barrierscope.app.timeline.TimelinePng;
import io.barrierscope.app.timeline.TimelineView;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TextInputDialog;
import javafx.scene.input.DragEvent;
import javafx.scene.input.TransferMode;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The window's file dialogs: open (a bare PTX or CUDA file first asks for launch settings), save the trace,
 * export for Perfetto, export the timeline (PNG, SVG), go to a step, the recent files menu, and files dropped on the window.
 */
final class FileActions {
    private final DebuggerViewModel vm;
    private final Supplier<Window> window;

    /** How a .cu becomes PTX: nvcc (tests stand in a compiled PTX, so they need no nvcc). */
    static volatile java.util.function.UnaryOperator<Path> compiler = NvccCompiler::compile;

    FileActions(DebuggerViewModel vm, Supplier<Window> window) {
        this.vm = vm;
        this.window = window;
    }

    void chooseFile() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Open a launch file, PTX, CUDA source or trace");
        chooser.getExtensionFilters().addAll(openFilters());
        startIn(chooser);
        File chosen = chooser.showOpenDialog(window.get());
        if (chosen != null) open(chosen.toPath());
    }

    /** What File > Open lists: everything it opens (a .cu is compiled with nvcc when installed), then all files. */
    static List<FileChooser.ExtensionFilter> openFilters() {
        return List.of(
                new FileChooser.ExtensionFilter("Launch files, PTX, CUDA sources and traces", "*.json", "*.ptx", "*.cu", "*.bstrace"),
                new FileChooser.ExtensionFilter("All files", "*"));
    }

    /** Opens a file; a bare PTX or CUDA file asks for its launch first (cancelling opens nothing). */
    void open(Path file) { open(file, () -> { }); }

    /**
     * The same; {@code cancelled} runs when the user cancels the launch editor. A .cu is compiled by nvcc
     * first (the editor lists the compiled entry's parameters), off the FX thread as the parse is; the
     * launch file the editor saves is what opens.
     */
    void open(Path file, Runnable cancelled) {
        if (!DebuggerViewModel.asksForLaunch(file)) {
            vm.open(file);
            return;
        }
        boolean cuda = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".cu");
        vm.saved(cuda ? "Compiling " + file.getFileName() + " with nvcc ..." : "Reading " + file.getFileName() + " ...");
        // Compiling and parsing happen off the FX thread; the editor shows when its model is ready.
        Thread t = new Thread(() -> {
            LaunchEditorViewModel editor;
            try {
                editor = new LaunchEditorViewModel(file, cuda ? compiler.apply(file) : file);
            } catch (RuntimeException e) {
                String msg = e.getMessage();
                Platform.runLater(() -> {
                    vm.openFailed(file, msg); // the session shown, if any, stays as it was
                    cancelled.run();
                });
                return;
            }
            Platform.runLater(() -> LaunchSettingsDialog.ask(window.get(), editor).ifPresentOrElse(vm::open, cancelled));
        }, "launch editor " + file.getFileName());
        t.setDaemon(true);
        t.start();
    }

    void saveTrace() {
        File f = saveChooser("Save the trace", "BarrierScope traces", "*.bstrace", ".bstrace");
        if (f != null) vm.saveTrace(withExtension(f, ".bstrace"));
    }

    void exportChrome() {
        File f = saveChooser("Export the trace for Perfetto / chrome://tracing", "Chrome trace JSON", "*.json", ".trace.json");
        if (f != null) vm.exportChrome(withExtension(f, ".json"));
    }

    /** The timeline as shown, at its size on screen, as PNG. */
    void exportTimelinePng(TimelineView view) {
        if (view == null) return;
        File f = saveChooser("Export the timeline as PNG", "PNG images", "*.png", ".timeline.png");
        if (f == null) return;
        Path out = withExtension(f, ".png");
        try {
            TimelinePng.write(view, (int) view.getWidth(), (int) view.getHeight(), out);
            vm.saved("Exported the timeline to " + out);
        } catch (IOException | RuntimeException e) {
            vm.saved("Could not export the timeline to " + out + ": " + e.getMessage());
        }
    }

    /** The timeline's visible range and rows, at its size on screen, as SVG. */
    void exportTimelineSvg(TimelineView view) {
        if (view == null) return;
        File f = saveChooser("Export the timeline as SVG", "SVG images", "*.svg", ".timeline.svg");
        if (f == null) return;
        Path out = withExtension(f, ".svg");
        try {
            TimelineExport.writeSvg(view.viewModel(), (int) view.getWidth(), (int) view.getHeight(), out);
            vm.saved("Exported the timeline to " + out);
        } catch (IOException | RuntimeException e) {
            vm.saved("Could not export the timeline to " + out + ": " + e.getMessage());
        }
    }

    void goToStep() {
        TextInputDialog d = new TextInputDialog(Long.toString(vm.nowProperty().get()));
        if (window.get() != null) d.initOwner(window.get());
        d.setTitle("Go to step");
        d.setHeaderText("Go to the state after N warp steps (0 to " + vm.frontierProperty().get()
                + " recorded; further runs forward)");
        d.getEditor().setId("goToStepField");
        d.showAndWait().ifPresent(text -> {
            try {
                vm.seek(Long.parseLong(text.strip()));
            } catch (NumberFormatException e) {
                vm.seek(vm.nowProperty().get()); // nothing moves; the field was not a number
            }
        });
    }

    /** File > Open Recent, kept in step with the list. */
    Menu recentMenu() {
        Menu menu = new Menu("Open Recent");
        menu.setId("recentMenu");
        Runnable rebuild = () -> {
            menu.getItems().clear();
            for (Path p : vm.recent().files()) {
                MenuItem item = new MenuItem(p.toString());
                item.setMnemonicParsing(false);
                item.setOnAction(e -> {
                    if (Files.exists(p)) open(p);
                    else vm.recent().remove(p);
                });
                menu.getItems().add(item);
            }
            menu.setDisable(menu.getItems().isEmpty());
        };
        vm.recent().files().addListener((ListChangeListener<Path>) c -> rebuild.run());
        rebuild.run();
        return menu;
    }

    /** Files dropped on the window open as if chosen (the first one, when several come). */
    void acceptDrops(Node target) {
        target.addEventHandler(DragEvent.DRAG_OVER, e -> {
            if (e.getDragboard().hasFiles()) e.acceptTransferModes(TransferMode.COPY);
        });
        target.addEventHandler(DragEvent.DRAG_DROPPED, e -> {
            List<File> files = e.getDragboard().hasFiles() ? e.getDragboard().getFiles() : List.of();
            e.setDropCompleted(!files.isEmpty());
            e.consume();
            // After the drop finishes: a launch dialog must not block the drag gesture.
            if (!files.isEmpty()) javafx.application.Platform.runLater(() -> open(files.get(0).toPath()));
        });
    }

    private File saveChooser(String title, String what, String pattern, String suffix) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(title);
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(what, pattern));
        startIn(chooser);
        Path open = vm.openFile();
        if (open != null && open.getParent() != null && open.getParent().getFileName() != null) {
            chooser.setInitialFileName(open.getParent().getFileName() + suffix);
        }
        return chooser.showSaveDialog(window.get());
    }

    private void startIn(FileChooser chooser) {
        Path current = vm.openFile();
        if (current != null && current.getParent() != null && Files.isDirectory(current.getParent())) {
            chooser.setInitialDirectory(current.getParent().toFile());
        }
    }

    private static Path withExtension(File f, String ext) {
        return f.getName().contains(".") ? f.toPath() : f.toPath().resolveSibling(f.getName() + ext);
    }
}
