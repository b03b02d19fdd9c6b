package io.barrierscope.app.debugger;

import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;

/**
 * The window's commands and their keys, in the debugger conventions people know (F5 run,
 * Shift+F5 pause, F10 step, F1 help). Keys for the tabs follow the order they appear in.
 */
final class Commands {
    private static final ObservableBooleanValue ALWAYS = Bindings.createBooleanBinding(() -> true);

    /** What the view does itself (dialogs, focus), as opposed to what the view model does. */
    interface ViewActions {
        void chooseFile();

        void quit();

        void focusThreadFilter();
    }

    private Commands() {}

    static List<Command> of(DebuggerViewModel vm, ViewActions view) {
        var welcome = vm.welcome();
        var look = vm.appearance();
        return List.of(
                new Command("File", "Open a launch file or PTX…", ctrl(KeyCode.O), view::chooseFile, ALWAYS),
                new Command("File", "Welcome: the bundled samples", ctrlShift(KeyCode.W), welcome::show, ALWAYS),
                new Command("File", "Quit", ctrl(KeyCode.Q), view::quit, ALWAYS),
                new Command("Run", "Step one warp step", key(KeyCode.F10), vm::step, vm.canStepProperty()),
                new Command("Run", "Run to the end", key(KeyCode.F5), vm::run, vm.canStepProperty()),
                new Command("Run", "Pause", new KeyCodeCombination(KeyCode.F5, KeyCombination.SHIFT_DOWN), vm::pause,
                        vm.canPauseProperty()),
                new Command("Run", "Reset to the start", ctrl(KeyCode.R), vm::reset, vm.loadedProperty()),
                new Command("View", "Threads", ctrl(KeyCode.DIGIT1), () -> vm.showPanel(Panel.THREADS), ALWAYS),
                new Command("View", "Diagnostics", ctrl(KeyCode.DIGIT2), () -> vm.showPanel(Panel.DIAGNOSTICS), ALWAYS),
                new Command("View", "Deadlock explanation", ctrl(KeyCode.DIGIT3), () -> vm.showPanel(Panel.DEADLOCK), ALWAYS),
                new Command("View", "Lesson", ctrl(KeyCode.DIGIT4), () -> vm.showPanel(Panel.LESSON), ALWAYS),
                new Command("View", "Run report", ctrl(KeyCode.DIGIT5), () -> vm.showPanel(Panel.REPORT), ALWAYS),
                new Command("View", "Filter the threads", ctrl(KeyCode.F), view::focusThreadFilter, ALWAYS),
                new Command("View", "Dark theme on/off", ctrlShift(KeyCode.D), look::toggleDark, ALWAYS),
                new Command("View", "Presentation mode on/off", ctrlShift(KeyCode.P), look::togglePresentation, ALWAYS),
                new Command("Help", "Keyboard shortcuts and barrier terms", key(KeyCode.F1), look::toggleHelp, ALWAYS));
    }

    private static KeyCombination key(KeyCode k) { return new KeyCodeCombination(k); }

    private static KeyCombination ctrl(KeyCode k) { return new KeyCodeCombination(k, KeyCombination.SHORTCUT_DOWN); }

    private static KeyCombination ctrlShift(KeyCode k) {
        return new KeyCodeCombination(k, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    }
}
