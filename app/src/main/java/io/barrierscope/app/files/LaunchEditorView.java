package io.barrierscope.app.files;

import io.barrierscope.app.files.LaunchEditorViewModel.Kind;
import io.barrierscope.app.files.LaunchEditorViewModel.Param;
import io.barrierscope.app.session.LaunchSettings;
import java.io.File;
import java.nio.file.Path;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/**
 * The launch editor's fields: kernel, grid, block, cluster, dynamic shared memory, policy, seed, one row
 * per kernel parameter (buffer: name, element type, count, init; or a value; a tensor map or struct
 * with the note saying what the launch file needs), and where the launch file goes.
 */
public final class LaunchEditorView extends VBox {
    private final LaunchEditorViewModel vm;
    private final GridPane paramGrid = new GridPane();

    public LaunchEditorView(LaunchEditorViewModel vm) {
        this.vm = vm;
        setId("launchEditor");
        setSpacing(8);
        ComboBox<String> kernel = new ComboBox<>();
        kernel.setId("launchKernel");
        kernel.getItems().setAll(vm.kernels());
        kernel.valueProperty().bindBidirectional(vm.kernel);
        ComboBox<String> policy = new ComboBox<>();
        policy.setId("launchPolicy");
        policy.getItems().setAll(LaunchSettings.POLICIES);
        policy.valueProperty().bindBidirectional(vm.policy);

        GridPane shape = new GridPane();
        shape.setHgap(8);
        shape.setVgap(6);
        String[] names = {"Kernel", "Grid (CTAs)", "Block (threads)", "Cluster", "Dynamic shared bytes", "Policy", "Seed"};
        Node[] inputs = {kernel, field("launchGrid", vm.grid), field("launchBlock", vm.block), field("launchCluster", vm.cluster),
                field("launchDynamicShared", vm.dynamicShared), policy, field("launchSeed", vm.seed)};
        ((TextField) inputs[3]).setPromptText("none (the kernel's own)");
        for (int i = 0; i < names.length; i++) {
            shape.add(new Label(names[i]), 0, i);
            shape.add(inputs[i], 1, i);
        }

        paramGrid.setId("launchParams");
        paramGrid.setHgap(6);
        paramGrid.setVgap(4);
        vm.params().addListener((ListChangeListener<Param>) c -> rebuildParams());
        rebuildParams();
        ScrollPane params = new ScrollPane(paramGrid);
        params.setFitToWidth(true);
        params.setPrefViewportHeight(160);

        TextField file = field("launchFile", vm.launchFile);
        file.setPrefColumnCount(36);
        HBox.setHgrow(file, Priority.ALWAYS);
        Button browse = new Button("Browse…");
        browse.setId("launchBrowse");
        browse.setOnAction(e -> browse());
        Label error = new Label();
        error.setId("launchError");
        error.getStyleClass().add("breakpoint-error");
        error.setWrapText(true);
        error.textProperty().bind(vm.error);
        getChildren().addAll(shape, new Label("Kernel parameters"), params,
                new Label("Save the launch file as"), new HBox(6, file, browse), error);
    }

    /** One row per parameter: name and PTX type, then the fields its kind takes. */
    private void rebuildParams() {
        paramGrid.getChildren().clear();
        int row = 0;
        for (Param p : vm.params()) {
            Label name = new Label(p.name() + " " + p.ptxType());
            name.setId("param-" + p.name());
            paramGrid.add(name, 0, row);
            if (p.note() != null) {
                Label note = new Label(p.note());
                note.setId("paramNote-" + p.name());
                note.setWrapText(true);
                note.getStyleClass().add("breakpoint-error");
                paramGrid.add(note, 1, row, 5, 1);
                row++;
                continue;
            }
            ComboBox<Kind> kind = new ComboBox<>();
            kind.setId("paramKind-" + p.name());
            kind.getItems().setAll(p.pointerSized() ? java.util.List.of(Kind.BUFFER, Kind.VALUE) : java.util.List.of(Kind.VALUE));
            kind.valueProperty().bindBidirectional(p.kind);
            ComboBox<String> type = new ComboBox<>();
            type.setId("paramType-" + p.name());
            type.getItems().setAll(LaunchEditorViewModel.TYPES);
            type.valueProperty().bindBidirectional(p.type);
            TextField buffer = field("paramBuffer-" + p.name(), p.buffer);
            buffer.setPromptText("buffer name");
            TextField count = field("paramCount-" + p.name(), p.count);
            count.setPromptText("elements");
            ComboBox<String> init = new ComboBox<>();
            init.setId("paramInit-" + p.name());
            init.setEditable(true); // random:SEED takes any seed
            init.getItems().setAll(LaunchEditorViewModel.INITS);
            init.valueProperty().bindBidirectional(p.init);
            TextField value = field("paramValue-" + p.name(), p.value);
            Runnable show = () -> {
                boolean isBuffer = p.kind.get() == Kind.BUFFER;
                for (Node n : new Node[] {buffer, count, init}) {
                    n.setVisible(isBuffer);
                    n.setManaged(isBuffer);
                }
                value.setVisible(!isBuffer);
                value.setManaged(!isBuffer);
            };
            p.kind.addListener((o, a, b) -> show.run());
            show.run();
            paramGrid.add(kind, 1, row);
            paramGrid.add(type, 2, row);
            paramGrid.add(new HBox(6, buffer, count, init, value), 3, row);
            row++;
        }
        if (vm.params().isEmpty()) paramGrid.add(new Label("(the kernel takes no parameters)"), 0, 0);
    }

    private void browse() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Save the launch file");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter("Launch files", "*.json"));
        Path current = Path.of(vm.launchFile.get());
        if (current.getParent() != null && current.getParent().toFile().isDirectory()) chooser.setInitialDirectory(current.getParent().toFile());
        chooser.setInitialFileName(String.valueOf(current.getFileName()));
        File f = chooser.showSaveDialog(getScene() == null ? null : getScene().getWindow());
        if (f != null) vm.launchFile.set(f.getName().endsWith(".json") ? f.toString() : f + ".json");
    }

    private static TextField field(String id, javafx.beans.property.StringProperty p) {
        TextField f = new TextField();
        f.setId(id);
        f.setPrefColumnCount(8);
        f.textProperty().bindBidirectional(p);
        return f;
    }
}
