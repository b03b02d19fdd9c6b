package io.barrierscope.app.files;

import java.nio.file.Path;
import java.util.Optional;
import javafx.event.ActionEvent;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.stage.Window;

/**
 * Asks how to launch a bare PTX or CUDA file in the launch editor ({@link LaunchEditorView}) and saves the
 * launch file. "Save and open" stays on the dialog with the message while a field is wrong.
 */
public final class LaunchSettingsDialog {
    private LaunchSettingsDialog() {}

    /** The launch file saved, or empty when the user cancelled. */
    public static Optional<Path> ask(Window owner, LaunchEditorViewModel vm) {
        Dialog<Path> d = new Dialog<>();
        if (owner != null) d.initOwner(owner);
        String name = String.valueOf(vm.opened().getFileName());
        d.setTitle("Launch " + name);
        d.setHeaderText("No launch file: how should " + name + " be launched?\n"
                + (vm.compiled() ? "It was compiled with nvcc; the launch file gets that PTX beside it.\n" : "")
                + "The launch is saved as a launch file (README, Launch files), then opened.");
        d.setResizable(true);
        d.getDialogPane().setContent(new LaunchEditorView(vm));
        d.getDialogPane().getButtonTypes().setAll(ButtonType.OK, ButtonType.CANCEL);
        Path[] result = new Path[1];
        Button ok = (Button) d.getDialogPane().lookupButton(ButtonType.OK);
        ok.setText("Save and open");
        ok.addEventFilter(ActionEvent.ACTION, e -> {
            try {
                result[0] = vm.save();
            } catch (RuntimeException ex) {
                vm.error.set(ex.getMessage());
                e.consume(); // stay open until the fields make sense
            }
        });
        d.setResultConverter(b -> b == ButtonType.OK ? result[0] : null);
        return d.showAndWait();
    }
}
