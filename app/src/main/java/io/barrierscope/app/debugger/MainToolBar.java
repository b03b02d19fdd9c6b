package io.barrierscope.app.debugger;

import io.barrierscope.app.session.LaunchSettings;
import io.barrierscope.app.session.Move;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.Separator;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/**
 * The toolbar: the moves back and forth (each with its key in the tooltip), pause and reset, the
 * focused warp they act on, the policy and seed with Re-run, the open file's name, and the samples, theme, presentation and
 * help buttons.
 */
final class MainToolBar {
    private MainToolBar() {}

    static ToolBar of(DebuggerViewModel vm) {
        var fwd = vm.canStepProperty();
        var back = vm.canStepBackProperty();
        Button reverse = button("reverseButton", "◀◀", "Reverse-continue: back to the previous breakpoint hit (Shift+F5)",
                () -> vm.move(Move.REVERSE_CONTINUE), back);
        Button backOver = button("backOverButton", "◀ Over", "Back over the focused warp's last barrier or wait (Shift+F8)",
                () -> vm.move(Move.STEP_BACK_OVER), back);
        Button backWarp = button("backWarpButton", "◀ Warp", "The focused warp's previous step (Shift+F11)",
                () -> vm.move(Move.STEP_BACK_WARP), back);
        Button stepBack = button("stepBackButton", "◀ Step", "One warp step back (Shift+F10)", () -> vm.move(Move.STEP_BACK), back);
        Button step = button("stepButton", "Step ▶", "One warp step (F10)", vm::step, fwd);
        Button warp = button("stepWarpButton", "Warp ▶", "Until the focused warp has taken a step (F11)",
                () -> vm.move(Move.STEP_WARP), fwd);
        Button over = button("stepOverButton", "Over ▶", "Until the focused warp passes its barrier or wait (F8)",
                () -> vm.move(Move.STEP_OVER), fwd);
        Button run = button("runButton", "Continue ▶▶", "To the next breakpoint or the end (F5)", vm::run, fwd);
        Button pause = button("pauseButton", "Pause", "Pause the run (Shift+F5)", vm::pause, vm.canPauseProperty());
        Button reset = button("resetButton", "Reset", "Back to the start, step 0 (Ctrl+R)", vm::reset, vm.loadedProperty());

        ComboBox<String> policy = new ComboBox<>();
        policy.setId("policyChooser");
        policy.getItems().setAll(LaunchSettings.POLICIES);
        policy.valueProperty().bindBidirectional(vm.policyProperty());
        policy.setTooltip(new Tooltip("The scheduling policy for Re-run: round-robin, random or adversarial"));
        policy.setFocusTraversable(false);
        TextField seed = new TextField();
        seed.setId("seedField");
        seed.setPrefColumnCount(5);
        seed.textProperty().bindBidirectional(vm.seedProperty());
        seed.setTooltip(new Tooltip("The seed of the random and adversarial policies, for Re-run"));
        seed.setOnAction(e -> vm.rerun());
        seed.setFocusTraversable(false); // the window's keys, not the seed, have the keyboard at start
        Button rerun = button("rerunButton", "Re-run", "Run again under this policy and seed; breakpoints stay (Ctrl+Shift+R)",
                vm::rerun, vm.idleProperty());

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
        // A narrow window shortens the file's name (it is in the title too), never the buttons.
        file.setMinWidth(0);
        policy.setMinWidth(Region.USE_PREF_SIZE);
        Pane grow = new Pane();
        HBox.setHgrow(grow, Priority.ALWAYS);
        Button welcome = button("welcomeButton", "Samples", "The bundled samples (Ctrl+Shift+W)", vm.welcome()::show, null);
        ToggleButton dark = toggle("darkButton", "Dark", "Dark theme (Ctrl+Shift+D)");
        dark.selectedProperty().bindBidirectional(vm.appearance().darkProperty());
        ToggleButton present = toggle("presentButton", "Present", "Presentation mode: large fonts, high contrast (Ctrl+Shift+P)");
        present.selectedProperty().bindBidirectional(vm.appearance().presentationProperty());
        // The way out is on the button itself, in words (the menus are hidden in presentation mode).
        present.textProperty().bind(Bindings.when(present.selectedProperty()).then("Exit presentation").otherwise("Present"));
        Button help = button("helpButton", "?", "Keyboard shortcuts and barrier terms (F1)", vm.appearance()::toggleHelp, null);
        MenuButton focus = focusChooser(vm.focus());
        // A toolbar too narrow for everything puts its last items in the overflow menu: what a
        // teacher needs (the steps, Present, Help) comes first, Re-run's policy and seed last.
        // In presentation mode those (and the file name, which the title has) are left out.
        Node[] forEngineers = {policy, seed, rerun, file};
        for (Node n : forEngineers) {
            n.visibleProperty().bind(vm.appearance().presentationProperty().not());
            n.managedProperty().bind(n.visibleProperty());
        }
        ToolBar bar = new ToolBar(reverse, backOver, backWarp, stepBack, step, warp, over, run, pause, reset,
                present, help, dark, welcome, focus, new Separator(), policy, seed, rerun, file, grow);
        bar.setId("mainToolBar");
        return bar;
    }

    /**
     * "focus: CTA 1 / warp 3 ▾": the warp F11 and F8 act on, and a menu of the launch's warps by
     * cluster and CTA (only the levels it has) to choose another.
     */
    static MenuButton focusChooser(FocusViewModel vm) {
        MenuButton b = new MenuButton();
        b.setId("focusChooser");
        b.textProperty().bind(vm.textProperty());
        b.setTooltip(new Tooltip("The focused warp: the one Warp (F11) and Over (F8) step. Choose another here, "
                + "or select a thread or lane anywhere"));
        b.setFocusTraversable(false);
        b.setMinWidth(Region.USE_PREF_SIZE);
        b.disableProperty().bind(Bindings.createBooleanBinding(() -> vm.choicesProperty().get().isEmpty(), vm.choicesProperty()));
        vm.choicesProperty().addListener((o, a, choices) -> fill(b, vm, choices));
        fill(b, vm, vm.choicesProperty().get());
        return b;
    }

    private static void fill(MenuButton b, FocusViewModel vm, java.util.List<FocusViewModel.Choice> choices) {
        b.getItems().clear();
        java.util.Map<String, Menu> menus = new java.util.HashMap<>();
        for (FocusViewModel.Choice c : choices) {
            MenuItem item = new MenuItem(c.name());
            item.setId("focusWarp" + c.warp());
            item.setOnAction(e -> vm.pick(c.warp()));
            java.util.List<MenuItem> into = b.getItems();
            if (c.cluster() != null) into = submenu(menus, into, c.cluster(), c.cluster()).getItems();
            if (c.cta() != null) into = submenu(menus, into, c.cluster() + "/" + c.cta(), c.cta()).getItems();
            into.add(item);
        }
    }

    private static Menu submenu(java.util.Map<String, Menu> menus, java.util.List<MenuItem> parent, String key, String name) {
        return menus.computeIfAbsent(key, k -> {
            Menu m = new Menu(name);
            parent.add(m);
            return m;
        });
    }

    private static Button button(String id, String text, String tip, Runnable action, ObservableBooleanValue enabled) {
        Button b = new Button(text);
        b.setId(id);
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(e -> action.run());
        b.setFocusTraversable(false); // keys go to the window's shortcuts, not to a focused button
        b.setMinWidth(Region.USE_PREF_SIZE);
        if (enabled != null) b.disableProperty().bind(Bindings.not(enabled));
        return b;
    }

    private static ToggleButton toggle(String id, String text, String tip) {
        ToggleButton b = new ToggleButton(text);
        b.setId(id);
        b.setTooltip(new Tooltip(tip));
        b.setFocusTraversable(false);
        b.setMinWidth(Region.USE_PREF_SIZE);
        return b;
    }
}
