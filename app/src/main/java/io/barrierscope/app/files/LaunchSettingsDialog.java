package io.barrierscope.app.files;

import io.barrierscope.app.session.LaunchSettings;
import java.nio.file.Path;
import java.util.Optional;
import javafx.event.ActionEvent;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/**
 * Asks how to launch a bare PTX or CUDA file: grid, block, cluster, policy and seed, filled with the command
 * line's defaults. OK stays on the dialog with a message while a field is wrong.
 */
public final class LaunchSettingsDialog {
    private LaunchSettingsDialog() {}

    /** The settings chosen, or empty when the user cancelled. */
    public static Optional<LaunchSettings> ask(Window owner, Path file, LaunchSettings initial) {
        Dialog<LaunchSettings> d = new Dialog<>();
        if (owner != null) d.initOwner(owner);
        boolean cuda = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".cu");
        d.setTitle("Launch " + file.getFileName());
        d.setHeaderText("No launch file: how should " + file.getFileName() + " be launched?\n"
                + (cuda ? "It is compiled with nvcc first (when nvcc is installed).\n" : "")
                + "Pointer parameters get zeroed 4 KiB buffers, other parameters 0 (as on the command line).");
        TextField grid = field("launchGrid", LaunchSettings.text(initial.grid()));
        TextField block = field("launchBlock", LaunchSettings.text(initial.block()));
        TextField cluster = field("launchCluster", LaunchSettings.text(initial.cluster()));
        cluster.setPromptText("none (the kernel's own)");
        ComboBox<String> policy = new ComboBox<>();
        policy.setId("launchPolicy");
        policy.getItems().setAll(LaunchSettings.POLICIES);
        policy.setValue(initial.policy());
        TextField seed = field("launchSeed", Long.toString(initial.seed()));
        Label error = new Label();
        error.setId("launchError");
        error.getStyleClass().add("breakpoint-error");
        error.setWrapText(true);

        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(6);
        String[] names = {"Grid (CTAs)", "Block (threads)", "Cluster", "Policy", "Seed"};
        javafx.scene.Node[] inputs = {grid, block, cluster, policy, seed};
        for (int i = 0; i < names.length; i++) {
            g.add(new Label(names[i]), 0, i);
            g.add(inputs[i], 1, i);
        }
        g.add(error, 0, names.length, 2, 1);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().setAll(ButtonType.OK, ButtonType.CANCEL);
        LaunchSettings[] result = new LaunchSettings[1];
        Button ok = (Button) d.getDialogPane().lookupButton(ButtonType.OK);
        ok.addEventFilter(ActionEvent.ACTION, e -> {
            try {
                result[0] = LaunchSettings.parse(grid.getText(), block.getText(), cluster.getText(), policy.getValue(), seed.getText());
            } catch (RuntimeException ex) {
                error.setText(ex.getMessage());
                e.consume(); // stay open until the fields make sense
            }
        });
        d.setResultConverter(b -> b == ButtonType.OK ? result[0] : null);
        return d.showAndWait();
    }

    private static TextField field(String id, String text) {
        TextField f = new TextField(text);
        f.setId(id);
        f.setPrefColumnCount(10);
        return f;
    }
}
