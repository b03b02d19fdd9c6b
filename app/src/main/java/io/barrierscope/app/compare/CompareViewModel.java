package io.barrierscope.app.compare;

import io.barrierscope.app.timeline.TimelineHit;
import io.barrierscope.app.timeline.TimelineModel;
import io.barrierscope.app.timeline.TimelineViewModel;
import io.barrierscope.explore.RunDiff;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.trace.TimeTravel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Two runs side by side (a buggy sample and its fix, a failing schedule and the default): each
 * run recorded to its end with a timeline of its own, the engine's {@link RunDiff} of the two
 * (where they part and why, the generations and phases whose arrivals differ, the final memory
 * differences), and one cursor: moving it in either timeline moves the other to the matching
 * step by {@link RunAlignment} (barrier generations and mbarrier phases, not raw step numbers).
 * The runs are made and compared on the {@code background} executor; results come through
 * {@code ui}. Everything else runs on the UI thread.
 */
public final class CompareViewModel {
    /** One run: how the window names it and how to make it afresh (it is run twice: recorded, and diffed). */
    public record Side(String label, Supplier<LaunchedRun> open) {}

    private final Executor background;
    private final Executor ui;
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Compare runs");
    private final ReadOnlyStringWrapper labelA = new ReadOnlyStringWrapper("A");
    private final ReadOnlyStringWrapper labelB = new ReadOnlyStringWrapper("B");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private final ObservableList<String> differences = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<TimelineViewModel> timelineA = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<TimelineViewModel> timelineB = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyLongWrapper cursorA = new ReadOnlyLongWrapper();
    private final ReadOnlyLongWrapper cursorB = new ReadOnlyLongWrapper();
    /** The first step where the runs part, -1 when they do not. */
    private final ReadOnlyLongWrapper divergence = new ReadOnlyLongWrapper(-1);
    private RunAlignment alignment;
    private RunDiff.Result result;
    private Object token;

    public CompareViewModel(Executor background, Executor ui) {
        this.background = background;
        this.ui = ui;
    }

    /** Records both runs and compares them; the timelines and differences arrive when done. */
    public void load(Side a, Side b) {
        Object mine = new Object();
        token = mine;
        labelA.set(a.label());
        labelB.set(b.label());
        title.set("Compare: " + a.label() + " ↔ " + b.label());
        status.set("Running both and comparing ...");
        differences.clear();
        timelineA.set(null);
        timelineB.set(null);
        divergence.set(-1);
        background.execute(() -> {
            try {
                TimelineModel ma = record(a.open().get());
                TimelineModel mb = record(b.open().get());
                LaunchedRun ra = a.open().get();
                LaunchedRun rb = b.open().get();
                RunDiff.Result r = RunDiff.compare(ra, rb, Math.max(ra.maxSteps(), rb.maxSteps()));
                RunAlignment al = RunAlignment.of(ma.syncPoints(), ma.knownSteps(), mb.syncPoints(), mb.knownSteps());
                ui.execute(() -> {
                    if (token == mine) loaded(ma, mb, r, al);
                });
            } catch (BadInputException | PtxException e) {
                String msg = e.getMessage();
                ui.execute(() -> {
                    if (token == mine) status.set("Cannot compare: " + msg.lines().findFirst().orElse(msg));
                });
            }
        });
    }

    /** Runs to the end (or the step limit) with time travel's recording, and reads it as a timeline. */
    private static TimelineModel record(LaunchedRun run) {
        TimeTravel tt = new TimeTravel(run);
        TimelineModel model = TimelineModel.of(tt);
        tt.replayTo(run.maxSteps(), true);
        model.update();
        return model;
    }

    private void loaded(TimelineModel ma, TimelineModel mb, RunDiff.Result r, RunAlignment al) {
        result = r;
        alignment = al;
        TimelineViewModel va = new TimelineViewModel(ma);
        TimelineViewModel vb = new TimelineViewModel(mb);
        va.onSeekProperty().set(this::seekA);
        vb.onSeekProperty().set(this::seekB);
        timelineA.set(va);
        timelineB.set(vb);
        differences.setAll(describe(r, labelA.get(), labelB.get()));
        RunDiff.Divergence d = r.divergence();
        divergence.set(d == null ? -1 : d.step());
        status.set((r.same() ? "The runs are the same" : d != null ? "The runs part at step " + d.step() : "The runs take the same steps")
                + " · A " + r.outcomeA() + " after " + r.stepsA() + " steps, B " + r.outcomeB() + " after " + r.stepsB()
                + " · aligned on " + al.anchors() + " barrier generations and phases completed in both");
        if (d != null) goToDivergence();
        else seekA(0);
    }

    /** Puts the cursor of A at {@code step} and B's at the matching step. */
    public void seekA(long step) {
        if (alignment == null) return;
        setCursors(step, alignment.toB(step));
    }

    /** Puts the cursor of B at {@code step} and A's at the matching step. */
    public void seekB(long step) {
        if (alignment == null) return;
        setCursors(alignment.toA(step), step);
    }

    /**
     * Both cursors on the step where the runs part (the same step number: they ran alike until it),
     * each timeline centred there with the diverging warp's step selected.
     */
    public void goToDivergence() {
        if (divergence.get() < 0) return;
        long s = divergence.get();
        setCursors(s, s);
        RunDiff.Divergence d = result.divergence();
        mark(timelineA.get(), d.a(), s, d.why());
        mark(timelineB.get(), d.b(), s, d.why());
    }

    private static void mark(TimelineViewModel t, RunDiff.Step step, long at, String why) {
        if (t == null) return;
        TimelineModel m = t.model();
        int lane = step != null && step.warp() >= 0 && step.warp() < m.lanes() ? m.laneOfWarp(step.warp()) : 0;
        t.select(new TimelineHit(lane, at, at, "The runs part here: " + why, true));
        t.goToStep(at);
    }

    private void setCursors(long a, long b) {
        cursorA.set(a);
        cursorB.set(b);
        if (timelineA.get() != null) timelineA.get().positionProperty().set(a);
        if (timelineB.get() != null) timelineB.get().positionProperty().set(b);
    }

    /** The differences in words: the divergence and why, then each sync difference, then memory. */
    static List<String> describe(RunDiff.Result r, String a, String b) {
        List<String> out = new ArrayList<>();
        RunDiff.Divergence d = r.divergence();
        if (d == null) {
            out.add("No divergence: both runs took the same warp steps.");
        } else {
            out.add("First divergence at step " + d.step() + ": " + d.why());
            if (d.a() != null) out.add("  " + a + ": warp " + d.a().warp() + " ran " + d.a().insn() + " (PTX line " + d.a().line() + ")");
            if (d.b() != null) out.add("  " + b + ": warp " + d.b().warp() + " ran " + d.b().insn() + " (PTX line " + d.b().line() + ")");
        }
        for (RunDiff.SyncDifference s : r.sync()) {
            out.add(s.object() + " generation/phase " + s.generation() + ": arrivals " + a + " " + s.a() + " vs " + b + " " + s.b());
        }
        for (RunDiff.BufferDifference m : r.memory()) {
            StringBuilder sb = new StringBuilder("Buffer " + m.buffer() + ": " + m.differing() + " elements differ at the end");
            for (Object[] e : m.first()) sb.append("; [").append(e[0]).append("] ").append(e[1]).append(" vs ").append(e[2]);
            if (m.note() != null && !m.note().isEmpty()) sb.append(" (").append(m.note()).append(')');
            out.add(sb.toString());
        }
        if (r.sync().isEmpty() && r.memory().isEmpty()) out.add("Barrier arrivals and final buffers are the same.");
        return out;
    }

    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    public ReadOnlyStringProperty labelAProperty() { return labelA.getReadOnlyProperty(); }
    public ReadOnlyStringProperty labelBProperty() { return labelB.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    public ObservableList<String> differences() { return differences; }
    public ReadOnlyObjectProperty<TimelineViewModel> timelineAProperty() { return timelineA.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<TimelineViewModel> timelineBProperty() { return timelineB.getReadOnlyProperty(); }
    public ReadOnlyLongProperty cursorAProperty() { return cursorA.getReadOnlyProperty(); }
    public ReadOnlyLongProperty cursorBProperty() { return cursorB.getReadOnlyProperty(); }
    public ReadOnlyLongProperty divergenceProperty() { return divergence.getReadOnlyProperty(); }
    /** The engine's comparison, null until loaded. */
    public RunDiff.Result result() { return result; }
    RunAlignment alignment() { return alignment; }
}
