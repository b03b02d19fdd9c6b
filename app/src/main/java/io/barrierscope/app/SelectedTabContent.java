package io.barrierscope.app;

import java.util.IdentityHashMap;
import java.util.Map;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;

/**
 * Keeps only the selected tab's content in the scene graph (docs/performance.md, "Window
 * responsiveness"). A tab pane keeps every tab's content as a hidden child, and hidden nodes still
 * take part in CSS and in the scene's lookups, so every theme change restyled the tables and trees
 * of tabs nobody sees. The contents are kept here, bound to their view models as before, so a tab
 * chosen again shows the present moment (and keeps its scroll position and selection, which live
 * in its nodes).
 */
public final class SelectedTabContent {
    private SelectedTabContent() {}

    /** From now on, only the selected tab of {@code pane} has its content attached; tabs added later are not handled. */
    public static void only(TabPane pane) {
        Map<Tab, Node> contents = new IdentityHashMap<>();
        for (Tab t : pane.getTabs()) {
            contents.put(t, t.getContent());
            if (!t.isSelected()) t.setContent(null);
        }
        pane.getSelectionModel().selectedItemProperty().addListener((o, before, now) -> {
            if (before != null && contents.containsKey(before)) before.setContent(null);
            if (now != null && contents.containsKey(now)) now.setContent(contents.get(now));
        });
    }
}
