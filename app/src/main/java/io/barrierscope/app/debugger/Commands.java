package io.barrierscope.app.debugger;

import io.barrierscope.app.session.Move;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;

/**
 * The window's commands and their keys, in the debugger conventions people know: F5 continue,
 * F10 step, F11 step into (here: the focused warp), F8 step over (here: past the focused warp's
 * barrier or wait), F9 breakpoint, F1 help. Shift with any move key makes the same move
 * backwards, as reverse debuggers do; Shift+F5 pauses while a run goes on (its old meaning) and
 * reverse-continues otherwise. Keys for the tabs follow the order they were added.
 */
final class Commands {
    private static final ObservableBooleanValue ALWAYS = Bindings.createBooleanBinding(() -> true);

    /** What the view does itself (dialogs, focus), as opposed to what the view model does. */
    interface ViewActions {
        void chooseFile();

        void saveTrace();

        void exportChrome();

        void exportTimelinePng();

        void exportTimelineSvg();

        void goToStep();

        void quit();

        void focusThreadFilter();

        void focusBreakpointField();

        /** Shows the Explore panel with its fields. */
        void explore();
    }

    private Commands() {}

    static List<Command> of(DebuggerViewModel vm, ViewActions view) {
        var welcome = vm.welcome();
        var look = vm.appearance();
        var fwd = vm.canStepProperty();
        var back = vm.canStepBackProperty();
        var hasTimeline = vm.timelineProperty().isNotNull();
        return List.of(
                new Command("File", "Open a launch file, PTX or trace…", ctrl(KeyCode.O), view::chooseFile, ALWAYS),
                new Command("File", "Save the trace…", ctrl(KeyCode.S), view::saveTrace, vm.idleProperty()),
                new Command("File", "Export the trace for Perfetto…", ctrl(KeyCode.E), view::exportChrome, vm.idleProperty()),
                new Command("File", "Export the timeline as PNG…", ctrlShift(KeyCode.I), view::exportTimelinePng, hasTimeline),
                new Command("File", "Export the timeline as SVG…", ctrlShift(KeyCode.G), view::exportTimelineSvg, hasTimeline),
                new Command("File", "Welcome: the bundled samples", ctrlShift(KeyCode.W), welcome::show, ALWAYS),
                new Command("File", "Quit", ctrl(KeyCode.Q), view::quit, ALWAYS),
                new Command("Run", "Continue: to the next breakpoint or the end", key(KeyCode.F5), vm::run, fwd),
                new Command("Run", "Pause the run (while running)", shift(KeyCode.F5), vm::pause, vm.canPauseProperty()),
                new Command("Run", "Reverse-continue: back to the previous breakpoint hit", shift(KeyCode.F5),
                        () -> vm.move(Move.REVERSE_CONTINUE), back),
                new Command("Run", "Step one warp step", key(KeyCode.F10), vm::step, fwd),
                new Command("Run", "Step back one warp step", shift(KeyCode.F10), () -> vm.move(Move.STEP_BACK), back),
                new Command("Run", "Step the focused warp (the toolbar's focus ▾ chooses it)", key(KeyCode.F11), () -> vm.move(Move.STEP_WARP), fwd),
                new Command("Run", "Step the focused warp back", shift(KeyCode.F11), () -> vm.move(Move.STEP_BACK_WARP), back),
                new Command("Run", "Step over: until the focused warp passes its barrier or wait", key(KeyCode.F8),
                        () -> vm.move(Move.STEP_OVER), fwd),
                new Command("Run", "Step back over the focused warp's last barrier or wait", shift(KeyCode.F8),
                        () -> vm.move(Move.STEP_BACK_OVER), back),
                new Command("Run", "Go to step…", ctrl(KeyCode.G), view::goToStep, vm.idleProperty()),
                new Command("Run", "Back to the start (step 0)", ctrl(KeyCode.R), vm::reset, vm.loadedProperty()),
                new Command("Run", "Re-run with the chosen policy and seed", ctrlShift(KeyCode.R), vm::rerun, vm.idleProperty()),
                new Command("Run", "Explore…: search schedules for deadlocks, races and hangs", ctrlShift(KeyCode.E),
                        view::explore, vm.loadedProperty()),
                new Command("Breakpoints", "Set or remove a breakpoint on the selected line", key(KeyCode.F9),
                        vm::toggleBreakpointHere, vm.loadedProperty()),
                new Command("Breakpoints", "Write a breakpoint (any kind)", ctrl(KeyCode.B), view::focusBreakpointField, ALWAYS),
                new Command("View", "Threads", ctrl(KeyCode.DIGIT1), () -> vm.showPanel(Panel.THREADS), ALWAYS),
                new Command("View", "Diagnostics", ctrl(KeyCode.DIGIT2), () -> vm.showPanel(Panel.DIAGNOSTICS), ALWAYS),
                new Command("View", "Console: the kernel's printf output", ctrl(KeyCode.DIGIT3), () -> vm.showPanel(Panel.CONSOLE), ALWAYS),
                new Command("View", "Deadlock explanation", ctrl(KeyCode.DIGIT4), () -> vm.showPanel(Panel.DEADLOCK), ALWAYS),
                new Command("View", "Lesson", ctrl(KeyCode.DIGIT5), () -> vm.showPanel(Panel.LESSON), ALWAYS),
                new Command("View", "Run report", ctrl(KeyCode.DIGIT6), () -> vm.showPanel(Panel.REPORT), ALWAYS),
                new Command("View", "Breakpoints", ctrl(KeyCode.DIGIT7), () -> vm.showPanel(Panel.BREAKPOINTS), ALWAYS),
                new Command("View", "Explore", ctrl(KeyCode.DIGIT8), () -> vm.showPanel(Panel.EXPLORE), ALWAYS),
                new Command("View", "Filter the threads", ctrl(KeyCode.F), view::focusThreadFilter, ALWAYS),
                new Command("View", "Dark theme on/off", ctrlShift(KeyCode.D), look::toggleDark, ALWAYS),
                new Command("View", "Presentation mode on/off", ctrlShift(KeyCode.P), look::togglePresentation, ALWAYS),
                new Command("Help", "Keyboard shortcuts and barrier terms", key(KeyCode.F1), look::toggleHelp, ALWAYS));
    }

    private static KeyCombination key(KeyCode k) { return new KeyCodeCombination(k); }

    private static KeyCombination shift(KeyCode k) { return new KeyCodeCombination(k, KeyCombination.SHIFT_DOWN); }

    private static KeyCombination ctrl(KeyCode k) { return new KeyCodeCombination(k, KeyCombination.SHORTCUT_DOWN); }

    private static KeyCombination ctrlShift(KeyCode k) {
        return new KeyCodeCombination(k, KeyCombination.SHORTCUT_DOWN, KeyCombination.SHIFT_DOWN);
    }
}
