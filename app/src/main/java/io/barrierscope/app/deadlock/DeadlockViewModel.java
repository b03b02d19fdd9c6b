package io.barrierscope.app.deadlock;

import io.barrierscope.check.Deadlock;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The deadlock pane: the engine's wait-for explanation as text and as a graph, a headline, and
 * the node the user picked (its whole story; its threads, barrier and line selected everywhere).
 */
public final class DeadlockViewModel {
    static final String NO_DEADLOCK = "No deadlock. When a run ends with no thread able to make progress, "
            + "this pane explains who waits on what, which threads are missing and where they are.";

    private final ReadOnlyObjectWrapper<WaitGraph> graph = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper text = new ReadOnlyStringWrapper(NO_DEADLOCK);
    private final ReadOnlyStringWrapper headline = new ReadOnlyStringWrapper("No deadlock");
    private final ReadOnlyStringWrapper detail = new ReadOnlyStringWrapper("");
    private final ReadOnlyIntegerWrapper selected = new ReadOnlyIntegerWrapper(Integer.MIN_VALUE);
    private final ReadOnlyBooleanWrapper deadlocked = new ReadOnlyBooleanWrapper(false);
    private Deadlock shown;
    private Consumer<WaitGraph.Node> onPick = n -> {};

    public void update(Deadlock d) {
        if (d == shown) return; // the engine keeps one explanation per run: nothing new
        shown = d;
        selected.set(Integer.MIN_VALUE);
        detail.set(d == null ? "" : "Click a box to see its whole story and its line in the source.");
        deadlocked.set(d != null);
        if (d == null) {
            graph.set(null);
            text.set(NO_DEADLOCK);
            headline.set("No deadlock");
            return;
        }
        graph.set(WaitGraph.of(d));
        text.set(d.text());
        headline.set(headline(d));
    }

    public void clear() { update(null); }

    /** The user picked a node (null: none). */
    public void select(WaitGraph.Node n) {
        selected.set(n == null ? Integer.MIN_VALUE : n.id());
        if (n == null) return;
        detail.set(n.detail());
        onPick.accept(n);
    }

    /** Called with a picked node: the window selects its threads, barrier and line everywhere. */
    public void setOnPick(Consumer<WaitGraph.Node> action) { onPick = action == null ? n -> {} : action; }

    static String headline(Deadlock d) {
        long groups = d.waits().size();
        String s = "Deadlock: " + groups + (groups == 1 ? " blocked thread group" : " blocked thread groups");
        if (!d.cycle().isEmpty()) s += " · cycle " + cycleText(d.cycle());
        return s;
    }

    /** "warp 0 → warp 1 → warp 0 (CTA (0,0,0))" when one CTA holds the whole cycle, else the full names. */
    static String cycleText(java.util.List<String> cycle) {
        String first = cycle.get(0);
        int cut = first.lastIndexOf(" warp ");
        String cta = cut > 0 ? first.substring(0, cut) : null;
        if (cta == null || !cycle.stream().allMatch(n -> n.startsWith(cta + " warp "))) return String.join(" → ", cycle);
        return String.join(" → ", cycle.stream().map(n -> n.substring(cta.length() + 1)).toList()) + " (" + cta + ")";
    }

    public ReadOnlyObjectProperty<WaitGraph> graphProperty() { return graph.getReadOnlyProperty(); }
    public ReadOnlyStringProperty textProperty() { return text.getReadOnlyProperty(); }
    public ReadOnlyStringProperty headlineProperty() { return headline.getReadOnlyProperty(); }
    public ReadOnlyStringProperty detailProperty() { return detail.getReadOnlyProperty(); }
    /** The picked node's id, or Integer.MIN_VALUE. */
    public ReadOnlyIntegerProperty selectedProperty() { return selected.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty deadlockedProperty() { return deadlocked.getReadOnlyProperty(); }
}
