package io.barrierscope.app.debugger;

import io.barrierscope.app.session.ThreadsState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The toolbar's focus chooser ("focus: cluster 0 / CTA 1 / warp 3 ▾"): which warp the
 * warp moves (F11, F8 and their reverses) act on, named by only the levels the launch has, and
 * the warps to choose from. The focused warp is the inspected thread's (the selection's), else
 * the warp the views follow, as the session decides it.
 */
public final class FocusViewModel {
    /**
     * One warp to choose: its global number and its names at each level ({@code cluster} and
     * {@code cta} null when the launch has one of them only).
     */
    public record Choice(int warp, String cluster, String cta, String name) {}

    private final ReadOnlyIntegerWrapper warp = new ReadOnlyIntegerWrapper(-1);
    private final ReadOnlyStringWrapper text = new ReadOnlyStringWrapper("focus: none");
    private final ReadOnlyObjectWrapper<List<Choice>> choices = new ReadOnlyObjectWrapper<>(List.of());
    private IntConsumer onPick = w -> {};

    /** A snapshot: the launch's warps and the warp the session focuses (-1: none). */
    public void update(ThreadsState t, int focused) {
        // The choices are the launch's warps and names: a run's states share its CTA list, so
        // the same list means the same choices (a step must not remake a thousand of them).
        if (t.ctas() != choicesFrom || t.warps().size() != choices.get().size()) {
            List<Choice> next = choicesOf(t);
            choicesFrom = t.ctas();
            if (!next.equals(choices.get())) choices.set(next);
        }
        show(focused);
    }

    /** The CTA list the choices were made from. */
    private List<ThreadsState.Cta> choicesFrom;

    /** The selection chose a warp: the warp moves now act on it. */
    public void follow(int w) {
        if (w >= 0) show(w);
    }

    /** The user picked a warp in the chooser. */
    public void pick(int w) {
        show(w);
        onPick.accept(w);
    }

    public void clear() {
        choices.set(List.of());
        choicesFrom = null;
        show(-1);
    }

    private void show(int w) {
        warp.set(w);
        Choice c = choices.get().stream().filter(x -> x.warp() == w).findFirst().orElse(null);
        text.set(c == null ? "focus: none" : "focus: " + shortName(c));
    }

    /** "cluster 0 / CTA 1 / warp 3": short, for the toolbar; the menu has the full names. */
    static String shortName(Choice c) {
        StringBuilder sb = new StringBuilder();
        if (c.cluster() != null) sb.append(compact(c.cluster())).append(" / ");
        if (c.cta() != null) sb.append(compact(c.cta())).append(" / ");
        return sb.append(c.name()).toString();
    }

    /** "CTA 1" from "CTA (1,0,0)", "CTA 1,2" from "CTA (1,2,0)". */
    static String compact(String name) {
        String s = name.replace("(", "").replace(")", "");
        while (s.endsWith(",0")) s = s.substring(0, s.length() - 2);
        return s;
    }

    static List<Choice> choicesOf(ThreadsState t) {
        boolean clusters = t.clusterShape().x() * t.clusterShape().y() * t.clusterShape().z() > 1;
        boolean ctas = t.ctas().size() > 1;
        List<Choice> out = new ArrayList<>(t.warps().size());
        for (ThreadsState.Warp w : t.warps()) {
            ThreadsState.Cta cta = w.cta() < t.ctas().size() ? t.ctas().get(w.cta()) : null;
            out.add(new Choice(w.warp(), clusters && cta != null ? cta.clusterName() : null,
                    ctas && cta != null ? cta.name() : null, "warp " + w.warpInCta()));
        }
        return List.copyOf(out);
    }

    /** Called with the warp the user picked (the window selects it, which focuses it). */
    public void setOnPick(IntConsumer action) { onPick = action == null ? w -> {} : action; }

    /** The focused warp (global number), -1 for none. */
    public ReadOnlyIntegerProperty warpProperty() { return warp.getReadOnlyProperty(); }
    /** E.g. "focus: CTA 1 / warp 3". */
    public ReadOnlyStringProperty textProperty() { return text.getReadOnlyProperty(); }
    /** Every warp of the launch, in order. */
    public ReadOnlyObjectProperty<List<Choice>> choicesProperty() { return choices.getReadOnlyProperty(); }
}
