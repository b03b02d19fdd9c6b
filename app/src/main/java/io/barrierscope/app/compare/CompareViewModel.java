package io.barrierscope.app.compare;

import io.barrierscope.app.timeline.TimelineHit;
import io.barrierscope.app.timeline.TimelineModel;
import io.barrierscope.app.timeline.TimelineViewModel;
import io.barrierscope.exec.Op;
import io.barrierscope.explore.RunDiff;
import io.barrierscope.explore.RunInput;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.trace.TimeTravel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Two runs side by side or stacked (a buggy sample and its fix, a failing schedule and the default, any two files): each
 * run recorded to its end with a timeline of its own, the engine's {@link RunDiff} of the two
 * (where they part and why, the generations and phases whose arrivals differ, the final memory
 * differences), and one cursor: moving it in either timeline moves the other to the matching
 * step by {@link RunAlignment} (barrier generations and mbarrier phases, not raw step numbers),
 * and zooming or panning either timeline shows the matching stretch of the other.
 * The runs are made and compared on the {@code background} executor; results come through
 * {@code ui}. Everything else runs on the UI thread.
 */
public final class CompareViewModel {
    /** One run: how the window names it and how to make it afresh (it is run twice: recorded, and diffed). */
    public record Side(String label, Supplier<LaunchedRun> open) {
        /**
         * A side made from a file as {@code diff} takes it (a trace, a launch file, a sample
         * directory), named after its sample folder or file.
         */
        public static Side of(Path input) {
            Path p = input.toAbsolutePath().normalize();
            String name = Files.isDirectory(p) ? String.valueOf(p.getFileName())
                    : p.getFileName().toString().equals("launch.json") ? FixedTwin.name(p) : String.valueOf(p.getFileName());
            return new Side(name, () -> RunInput.open(p));
        }
    }

    /** How the two runs are laid out: left and right, or one above the other (their step axes in line). */
    public enum Layout { SIDE_BY_SIDE, STACKED }

    /** A run recorded to its end: its timeline's model, and the replay that knows each step's instruction. */
    private record Recorded(TimelineModel model, TimeTravel tt) {}

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
    private final ObjectProperty<Layout> layout = new SimpleObjectProperty<>(Layout.SIDE_BY_SIDE);
    private final ReadOnlyStringWrapper positionA = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper positionB = new ReadOnlyStringWrapper("");
    private TimeTravel ttA;
    private TimeTravel ttB;
    /** Set while one timeline's visible range is copied to the other (so the copy is not copied back). */
    private boolean syncing;
    private RunAlignment alignment;
    private RunDiff.Result result;
    private Object token;

    public CompareViewModel(Executor background, Executor ui) {
        this.background = background;
        this.ui = ui;
    }

    /**
     * File > "Compare two runs…" once both files are chosen: opens their comparison (made from
     * each file as {@code diff} takes it) through {@code open}; a cancelled pick (null) opens
     * nothing. The debugger's own session is not touched: the runs are made afresh.
     */
    public static boolean compareFiles(Path a, Path b, BiConsumer<Side, Side> open) {
        if (a == null || b == null) return false;
        open.accept(Side.of(a), Side.of(b));
        return true;
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
                Recorded ma = record(a.open().get());
                Recorded mb = record(b.open().get());
                LaunchedRun ra = a.open().get();
                LaunchedRun rb = b.open().get();
                RunDiff.Result r = RunDiff.compare(ra, rb, Math.max(ra.maxSteps(), rb.maxSteps()));
                RunAlignment al = RunAlignment.of(ma.model().syncPoints(), ma.model().knownSteps(),
                        mb.model().syncPoints(), mb.model().knownSteps());
                ui.execute(() -> {
                    if (token == mine) loaded(ma, mb, r, al);
                });
            } catch (BadInputException | PtxException e) { // the first line names file:line:col where there is one
                String msg = e.getMessage();
                ui.execute(() -> {
                    if (token == mine) status.set("Cannot compare: " + msg.lines().findFirst().orElse(msg));
                });
            } catch (RuntimeException e) { // an unreadable file: said, never a window stuck on "Running"
                String msg = String.valueOf(e.getMessage() != null ? e.getMessage() : e);
                ui.execute(() -> {
                    if (token == mine) status.set("Cannot compare: " + msg.lines().findFirst().orElse(msg));
                });
            }
        });
    }

    /** Runs to the end (or the step limit) with time travel's recording, and reads it as a timeline. */
    private static Recorded record(LaunchedRun run) {
        TimeTravel tt = new TimeTravel(run);
        TimelineModel model = TimelineModel.of(tt);
        tt.replayTo(run.maxSteps(), true);
        model.update();
        return new Recorded(model, tt);
    }

    private void loaded(Recorded ra, Recorded rb, RunDiff.Result r, RunAlignment al) {
        result = r;
        alignment = al;
        ttA = ra.tt();
        ttB = rb.tt();
        TimelineViewModel va = new TimelineViewModel(ra.model());
        TimelineViewModel vb = new TimelineViewModel(rb.model());
        va.onSeekProperty().set(this::seekA);
        vb.onSeekProperty().set(this::seekB);
        // Zooming or panning either timeline shows the matching stretch of the other.
        va.startProperty().addListener(o -> follow(va, vb, true));
        va.endProperty().addListener(o -> follow(va, vb, true));
        vb.startProperty().addListener(o -> follow(vb, va, false));
        vb.endProperty().addListener(o -> follow(vb, va, false));
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

    /**
     * Shows in {@code to} the stretch matching {@code from}'s visible range, its edges mapped
     * through the alignment (in steps; a cycles axis is read as steps and back).
     */
    private void follow(TimelineViewModel from, TimelineViewModel to, boolean aToB) {
        if (syncing || alignment == null) return;
        double s = steps(from, from.getStart());
        double e = steps(from, from.getEnd());
        double ts = aToB ? alignment.toB(s) : alignment.toA(s);
        double te = aToB ? alignment.toB(e) : alignment.toA(e);
        syncing = true;
        try {
            to.startProperty().set(axis(to, ts));
            to.endProperty().set(Math.max(axis(to, te), axis(to, ts) + 1e-3));
        } finally {
            syncing = false;
        }
    }

    private static double steps(TimelineViewModel t, double v) {
        return t.axisProperty().get() == TimelineViewModel.Axis.CYCLES ? t.model().stepAtCycles(v) : v;
    }

    private static double axis(TimelineViewModel t, double step) {
        return t.axisProperty().get() == TimelineViewModel.Axis.CYCLES ? t.model().cyclesAt(Math.max(0, Math.round(step))) : step;
    }

    /** Side by side becomes stacked and back. */
    public void toggleLayout() { layout.set(layout.get() == Layout.SIDE_BY_SIDE ? Layout.STACKED : Layout.SIDE_BY_SIDE); }

    private void setCursors(long a, long b) {
        cursorA.set(a);
        cursorB.set(b);
        positionA.set(position(ttA, a));
        positionB.set(position(ttB, b));
        if (timelineA.get() != null) timelineA.get().positionProperty().set(a);
        if (timelineB.get() != null) timelineB.get().positionProperty().set(b);
    }

    /** "warp 3 · PTX line 42: bar.sync 0;": the step at {@code step} (the last one past the end). */
    static String position(TimeTravel tt, long step) {
        if (tt == null || tt.recording().steps() == 0) return "";
        long s = Math.min(Math.max(0, step), tt.recording().steps() - 1);
        int warp = tt.recording().warpOf(s);
        Op op = tt.interpreter().op(tt.recording().pcOf(s));
        if (op == null || op.insn == null) return "warp " + warp;
        return "warp " + warp + " · PTX line " + op.insn.pos().line() + ": " + op.insn.text().strip().replaceAll("\\s+", " ");
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
    public ObjectProperty<Layout> layoutProperty() { return layout; }
    /** Where each run is at its cursor: warp, PTX line and instruction. */
    public ReadOnlyStringProperty positionAProperty() { return positionA.getReadOnlyProperty(); }
    public ReadOnlyStringProperty positionBProperty() { return positionB.getReadOnlyProperty(); }
    /** The engine's comparison, null until loaded. */
    public RunDiff.Result result() { return result; }
    RunAlignment alignment() { return alignment; }
}
