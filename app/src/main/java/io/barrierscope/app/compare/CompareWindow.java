package io.barrierscope.app.compare;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.FileChooser;
import javafx.stage.Stage;
import javafx.stage.Window;

/** Opens a comparison in a window of its own (the debugger stays as it is), the runs made on a thread of their own. */
public final class CompareWindow {
    private CompareWindow() {}

    /**
     * File > "Compare two runs…": asks for run A, then run B (a trace, a launch file, or a
     * sample's launch.json for its directory), and opens their comparison; cancelling either asks nothing more.
     */
    public static void chooseAndOpen(Window owner, Path startIn) {
        File a = chooser("Compare two runs: the first run (A)", startIn).showOpenDialog(owner);
        if (a == null) return;
        File b = chooser("Compare two runs: the second run (B)", a.toPath().getParent()).showOpenDialog(owner);
        CompareViewModel.compareFiles(a.toPath(), b == null ? null : b.toPath(), (x, y) -> open(owner, x, y));
    }

    private static FileChooser chooser(String title, Path startIn) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(title);
        chooser.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter("Traces, launch files, PTX and CUDA sources", "*.bstrace", "*.json", "*.ptx", "*.cu"),
                new FileChooser.ExtensionFilter("All files", "*"));
        if (startIn != null && Files.isDirectory(startIn)) chooser.setInitialDirectory(startIn.toFile());
        return chooser;
    }

    public static Stage open(Window owner, CompareViewModel.Side a, CompareViewModel.Side b) {
        CompareViewModel vm = new CompareViewModel(task -> {
            Thread t = new Thread(task, "barrierscope-compare");
            t.setDaemon(true); // closing the window must not wait for a comparison
            t.start();
        }, Platform::runLater);
        CompareView view = new CompareView(vm);
        Stage stage = new Stage();
        if (owner != null) stage.initOwner(owner);
        Scene scene = new Scene((javafx.scene.Parent) view.root(), 1100, 700);
        if (owner != null && owner.getScene() != null) scene.getStylesheets().setAll(owner.getScene().getStylesheets());
        stage.setScene(scene);
        stage.titleProperty().bind(vm.titleProperty());
        stage.show();
        vm.load(a, b);
        return stage;
    }
}
