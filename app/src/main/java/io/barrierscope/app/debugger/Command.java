package io.barrierscope.app.debugger;

import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.input.KeyCombination;

/**
 * An action of the window with its key: the menus, the scene's key filter and the help
 * overlay all read the same list, so a key shown is a key that works.
 *
 * @param group the menu it belongs to ("File", "Run", "View", "Help")
 */
public record Command(String group, String name, KeyCombination key, Runnable action, ObservableBooleanValue enabled) {
    /** Runs the action if it is enabled now. */
    public void fire() {
        if (enabled.get()) action.run();
    }
}
