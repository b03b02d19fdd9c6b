package io.barrierscope.app.debugger;

import io.barrierscope.app.barriers.BarriersView;
import io.barrierscope.app.source.SourceView;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableStringValue;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The debugger window's content: menus and toolbar, the PTX source beside the barriers, the
 * end-of-run report below them, and a status bar. Code-behind only: all state is in the
 * {@link DebuggerViewModel}.
 */
public final class DebuggerView {
    /** A command with its key, shown in the menus and handled by a scene filter. */
    private record Command(String name, KeyCombination key, Runnable action, ObservableBooleanValue enabled) {}

    private final DebuggerViewModel vm;
    private final List<Path> samples;
    private final BorderPane root = new BorderPane();
    private final SplitPane vertical = new SplitPane();
    private final Node reportPane;
    private final List<Command> commands;

    /**
     * @param samples launch files listed in the Samples menu
     */
    public DebuggerView(DebuggerViewModel vm, List<Path> samples) {
        this.vm = vm;
        this.samples = samples;
        commands = List.of(
                new Command("Step", new KeyCodeCombination(KeyCode.F10), vm::step, vm.canStepProperty()),
                new Command("Run", new KeyCodeCombination(KeyCode.F5), vm::run, vm.canStepProperty()),
                new Command("Pause", new KeyCodeCombination(KeyCode.F5, KeyCombination.SHIFT_DOWN), vm::pause,
                        vm.canPauseProperty()),
                new Command("Reset", new KeyCodeCombination(KeyCode.R, KeyCombination.SHORTCUT_DOWN), vm::reset,
                        vm.loadedProperty()));

        SplitPane horizontal = new SplitPane(new SourceView(vm.source()).root(), new BarriersView(vm.barriers()).root());
        horizontal.setDividerPositions(0.5);
        reportPane = reportPane();
        vertical.setOrientation(Orientation.VERTICAL);
        vertical.getItems().add(horizontal);
        vm.reportVisibleProperty().addListener((o, was, show) -> showReport(show));
        showReport(vm.reportVisibleProperty().get());

        root.setTop(new VBox(menuBar(), toolBar()));
        root.setCenter(vertical);
        root.setBottom(statusBar());
        root.getStylesheets().add(DebuggerView.class.getResource("/io/barrierscope/app/barrierscope.css").toExternalForm());
    }

    public BorderPane root() { return root; }

    /**
     * Handles the debugger keys before anything else sees them: a scene filter runs ahead of
     * the accelerators, where the menu bar claims F10 for itself.
     */
    public void installShortcuts(Scene scene) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            for (Command c : commands) {
                if (c.key().match(e)) {
                    e.consume();
                    if (c.enabled().get()) c.action().run();
                    return;
                }
            }
        });
    }

    private MenuBar menuBar() {
        Menu file = new Menu("File");
        MenuItem open = new MenuItem("Open…");
        open.setAccelerator(new KeyCodeCombination(KeyCode.O, KeyCombination.SHORTCUT_DOWN));
        open.setOnAction(e -> chooseFile());
        MenuItem quit = new MenuItem("Quit");
        quit.setAccelerator(new KeyCodeCombination(KeyCode.Q, KeyCombination.SHORTCUT_DOWN));
        quit.setOnAction(e -> window().hide());
        file.getItems().addAll(open, new SeparatorMenuItem(), quit);

        Menu run = new Menu("Run");
        for (Command c : commands) {
            MenuItem item = new MenuItem(c.name());
            item.setAccelerator(c.key());
            item.setOnAction(e -> c.action().run());
            item.disableProperty().bind(Bindings.not(c.enabled()));
            run.getItems().add(item);
        }

        Menu sampleMenu = new Menu("Samples");
        for (Path p : samples) {
            MenuItem item = new MenuItem(p.getParent().getFileName().toString());
            item.setOnAction(e -> vm.open(p));
            sampleMenu.getItems().add(item);
        }
        sampleMenu.setDisable(samples.isEmpty());

        Menu help = new Menu("Help");
        MenuItem keys = new MenuItem("Keyboard shortcuts");
        keys.setAccelerator(new KeyCodeCombination(KeyCode.F1));
        keys.setOnAction(e -> showShortcuts());
        help.getItems().add(keys);
        return new MenuBar(file, run, sampleMenu, help);
    }

    private ToolBar toolBar() {
        Button step = button("stepButton", "Step", "One warp step (F10)", vm::step);
        step.disableProperty().bind(vm.canStepProperty().not());
        Button run = button("runButton", "▶ Run", "Run to the end (F5)", vm::run);
        run.disableProperty().bind(vm.canStepProperty().not());
        Button pause = button("pauseButton", "Pause", "Pause the run (Shift+F5)", vm::pause);
        pause.disableProperty().bind(vm.canPauseProperty().not());
        Button reset = button("resetButton", "Reset", "Start again (Ctrl+R)", vm::reset);
        reset.disableProperty().bind(vm.loadedProperty().not());
        Label file = new Label();
        file.setId("fileLabel");
        file.getStyleClass().add("file-label");
        // The PTX file's name; its full path in the tooltip.
        file.textProperty().bind(Bindings.createStringBinding(
                () -> {
                    String name = vm.source().sourceNameProperty().get();
                    return name.substring(name.lastIndexOf('/') + 1);
                },
                vm.source().sourceNameProperty()));
        Tooltip where = new Tooltip();
        where.textProperty().bind(vm.source().sourceNameProperty());
        file.setTooltip(where);
        return new ToolBar(step, run, pause, reset, file);
    }

    private static Button button(String id, String text, String tip, Runnable action) {
        Button b = new Button(text);
        b.setId(id);
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(e -> action.run());
        b.setFocusTraversable(false); // keys go to the window's shortcuts, not to a focused button
        return b;
    }

    private Node reportPane() {
        TextArea text = new TextArea();
        text.setId("reportText");
        text.setEditable(false);
        text.getStyleClass().add("report-area");
        text.textProperty().bind(vm.reportProperty());
        Tab tab = new Tab("Run report", text);
        tab.setClosable(false);
        TabPane tabs = new TabPane(tab);
        tabs.setId("reportPane");
        return tabs;
    }

    private void showReport(boolean show) {
        boolean shown = vertical.getItems().contains(reportPane);
        if (show && !shown) {
            vertical.getItems().add(reportPane);
            vertical.setDividerPositions(0.68);
        } else if (!show && shown) {
            vertical.getItems().remove(reportPane);
        }
    }

    private HBox statusBar() {
        Label outcome = statusLabel("outcomeLabel", vm.outcomeProperty());
        outcome.getStyleClass().add("outcome");
        // The outcome's name doubles as a style class (completed, deadlock, ...) for its colour.
        Consumer<String> restyle = s -> {
            outcome.getStyleClass().removeIf(c -> !c.equals("label") && !c.equals("outcome"));
            outcome.getStyleClass().add(s.replace(' ', '-'));
        };
        vm.outcomeProperty().addListener((o, a, s) -> restyle.accept(s));
        restyle.accept(vm.outcomeProperty().get());
        Region grow = new Region();
        HBox.setHgrow(grow, Priority.ALWAYS);
        Label message = statusLabel("messageLabel", vm.messageProperty());
        message.setMinWidth(0);
        HBox bar = new HBox(outcome, statusLabel("stepsLabel", vm.stepsProperty()),
                statusLabel("positionLabel", vm.positionProperty()),
                statusLabel("diagnosticsLabel", vm.diagnosticsProperty()), grow, message);
        bar.getStyleClass().add("status-bar");
        return bar;
    }

    private static Label statusLabel(String id, ObservableStringValue text) {
        Label l = new Label();
        l.setId(id);
        l.textProperty().bind(text);
        l.setMinWidth(Region.USE_PREF_SIZE);
        return l;
    }

    private void chooseFile() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle("Open a launch file or PTX");
        chooser.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter("Launch files and PTX", "*.json", "*.ptx"),
                new FileChooser.ExtensionFilter("All files", "*"));
        Path current = vm.openFile();
        if (current != null && current.getParent() != null) chooser.setInitialDirectory(current.getParent().toFile());
        var chosen = chooser.showOpenDialog(window());
        if (chosen != null) vm.open(chosen.toPath());
    }

    private void showShortcuts() {
        StringBuilder sb = new StringBuilder();
        for (Command c : commands) sb.append(c.key().getDisplayText()).append('\t').append(c.name()).append('\n');
        sb.append("Ctrl+O\tOpen a file\nF1\tThis list");
        Alert a = new Alert(Alert.AlertType.INFORMATION, sb.toString());
        a.setTitle("Keyboard shortcuts");
        a.setHeaderText("Keyboard shortcuts");
        a.initOwner(window());
        a.show();
    }

    private Window window() {
        return root.getScene() == null ? null : root.getScene().getWindow();
    }
}
