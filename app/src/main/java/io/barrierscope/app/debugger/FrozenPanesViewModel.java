package io.barrierscope.app.debugger;

import java.util.EnumMap;
import java.util.Map;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * Which panes show an older moment than the status line. While a Continue runs, the heavy panes
 * keep the snapshot they showed when it began (only the status line and the timeline follow the
 * run, docs/performance.md "Cheaper frames during Continue"); each such pane carries a marker
 * saying so, "as of step N — running", until the stop's snapshot reaches it. A pane never shows
 * two moments at once, and never passes off an old one as the present.
 */
public final class FrozenPanesViewModel {
    /** The panes that keep their moment during a run (the inspector goes with the threads pane). */
    public enum Pane { PTX, CUDA, BARRIERS, THREADS, DIAGNOSTICS, CONSOLE, DEADLOCK }

    private final Map<Pane, ReadOnlyStringWrapper> markers = new EnumMap<>(Pane.class);

    public FrozenPanesViewModel() {
        for (Pane p : Pane.values()) markers.put(p, new ReadOnlyStringWrapper(""));
    }

    /** The step the markers name, or -1 when every pane shows the present moment. */
    private long markedStep = -1;

    /** A run goes on and the panes show the moment after {@code step} warp steps. */
    void running(long step) {
        if (step == markedStep) return; // called on every progress pulse of a run: the text is already there
        markedStep = step;
        String text = "as of step " + String.format(java.util.Locale.ROOT, "%,d", step) + " — running";
        for (ReadOnlyStringWrapper m : markers.values()) m.set(text);
    }

    /** Every pane shows the present moment. */
    void allCurrent() {
        markedStep = -1;
        for (ReadOnlyStringWrapper m : markers.values()) m.set("");
    }

    /** The marker over {@code p}: "" when it shows the present moment. */
    public ReadOnlyStringProperty markerProperty(Pane p) { return markers.get(p).getReadOnlyProperty(); }
}
