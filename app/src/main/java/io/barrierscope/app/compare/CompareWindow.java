package io.barrierscope.app.compare;

import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/** Opens a comparison in a window of its own (the debugger stays as it is), the runs made on a thread of their own. */
public final class CompareWindow {
    private CompareWindow() {}

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
