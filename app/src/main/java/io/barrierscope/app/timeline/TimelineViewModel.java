package io.barrierscope.app.timeline;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * What the timeline shows and how the user moves around it, without any scene graph: the visible
 * range on the chosen axis (warp steps or virtual time), the rows (a lane per warp, or one row for
 * a collapsed CTA or cluster), the session's position, the hovered and selected events, and the
 * seek requests a click or the scrubber makes. Pixel positions are relative to the lanes area,
 * whose width the view reports through {@link #viewportWidthProperty()}. FX thread only.
 */
public final class TimelineViewModel {
    public enum Axis { STEPS, CYCLES }

    /** A row: lanes [laneFrom, laneTo) drawn merged; {@code group} when it stands for a collapsed CTA or cluster. */
    public record Row(int laneFrom, int laneTo, String label, boolean group) {}

    /** The narrowest range, in axis units (zooming in further only magnifies steps). */
    static final double MIN_SPAN = 8;
    /** Pixels either side of the pointer that count as "under" it when hovering or clicking. */
    static final double HIT_SLOP = 3;

    private final TimelineModel model;
    private final DoubleProperty start = new SimpleDoubleProperty(0);
    private final DoubleProperty end = new SimpleDoubleProperty(1);
    private final ObjectProperty<Axis> axis = new SimpleObjectProperty<>(Axis.STEPS);
    private final DoubleProperty viewportWidth = new SimpleDoubleProperty(1000);
    private final LongProperty position = new SimpleLongProperty(0);
    private final IntegerProperty firstRow = new SimpleIntegerProperty(0);
    private final ReadOnlyObjectWrapper<TimelineHit> hovered = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<TimelineHit> selected = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<List<Row>> rows = new ReadOnlyObjectWrapper<>(List.of());
    /** Bumped whenever what is drawn changes (data, range, rows), so the view knows to redraw. */
    private final ReadOnlyLongWrapper revision = new ReadOnlyLongWrapper();
    private final ObjectProperty<LongConsumer> onSeek = new SimpleObjectProperty<>();
    private final ObjectProperty<Consumer<TimelineHit>> onPick = new SimpleObjectProperty<>();
    /** The warp (global number) selected in the window, -1 for none: its lane is marked. */
    private final ReadOnlyIntegerWrapper selectedWarp = new ReadOnlyIntegerWrapper(-1);
    /** How many rows the view shows (it reports them), to scroll a selected lane into view. */
    private final IntegerProperty viewportRows = new SimpleIntegerProperty(8);
    /** Warps (global numbers) whose lanes are highlighted, e.g. the waiters of the selected barrier. */
    private final ObjectProperty<Set<Integer>> highlightedLanes = new SimpleObjectProperty<>(Set.of());
    private final Set<Integer> collapsedCtas = new HashSet<>();
    private final Set<Integer> collapsedClusters = new HashSet<>();
    /** Whether the range follows the whole run as it grows (after "fit all", until the user zooms or pans). */
    private boolean follow = true;

    public TimelineViewModel(TimelineModel model) {
        this.model = model;
        rebuildRows();
        fitAll();
        start.addListener((o, a, b) -> bump());
        end.addListener((o, a, b) -> bump());
        viewportWidth.addListener((o, a, b) -> bump());
        firstRow.addListener((o, a, b) -> bump());
        highlightedLanes.addListener((o, a, b) -> bump());
        selectedWarp.addListener((o, a, b) -> bump());
    }

    /** Marks the lane of {@code warp} (-1: none) and scrolls the rows to it if it is out of view. */
    public void selectWarp(int warp) {
        selectedWarp.set(warp >= 0 && warp < model.lanes() ? warp : -1);
        if (selectedWarp.get() < 0) return;
        int row = rowOfLane(model.laneOfWarp(warp));
        int first = firstRow.get();
        int shown = Math.max(1, viewportRows.get());
        if (row < first || row >= first + shown) firstRow.set(Math.max(0, Math.min(rows.get().size() - 1, row - shown / 2)));
    }

    /** Whether a row shows the selected warp (a collapsed row: among its warps). */
    public boolean selected(Row row) {
        int w = selectedWarp.get();
        if (w < 0) return false;
        int lane = model.laneOfWarp(w);
        return lane >= row.laneFrom() && lane < row.laneTo();
    }

    public ReadOnlyIntegerProperty selectedWarpProperty() { return selectedWarp.getReadOnlyProperty(); }
    public IntegerProperty viewportRowsProperty() { return viewportRows; }
    /**
     * Called with what a click on a lane picked; the window selects its warp everywhere and goes
     * to its step. Without one, a click only asks to seek ({@link #onSeekProperty()}).
     */
    public ObjectProperty<Consumer<TimelineHit>> onPickProperty() { return onPick; }

    /** Whether a row shows a highlighted warp (a collapsed row: any of its warps). */
    public boolean highlighted(Row row) {
        Set<Integer> h = highlightedLanes.get();
        if (h == null || h.isEmpty()) return false;
        for (int l = row.laneFrom(); l < row.laneTo(); l++) if (h.contains(model.warpOfLane(l))) return true;
        return false;
    }

    /** Warps (global numbers) whose lanes are highlighted; never null once set through here. */
    public ObjectProperty<Set<Integer>> highlightedLanesProperty() { return highlightedLanes; }

    private void bump() { revision.set(revision.get() + 1); }

    public TimelineModel model() { return model; }

    public DoubleProperty startProperty() { return start; }
    public DoubleProperty endProperty() { return end; }
    public double getStart() { return start.get(); }
    public double getEnd() { return end.get(); }
    public ObjectProperty<Axis> axisProperty() { return axis; }
    public DoubleProperty viewportWidthProperty() { return viewportWidth; }
    /** The session's current position (warp steps executed), drawn as the cursor; the window keeps it up to date. */
    public LongProperty positionProperty() { return position; }
    /** The first row shown (vertical scrolling). */
    public IntegerProperty firstRowProperty() { return firstRow; }
    public ReadOnlyObjectProperty<TimelineHit> hoveredProperty() { return hovered.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<TimelineHit> selectedProperty() { return selected.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<List<Row>> rowsProperty() { return rows.getReadOnlyProperty(); }
    public ReadOnlyLongProperty revisionProperty() { return revision.getReadOnlyProperty(); }
    /** Called with a step to go to (a click on an event, the scrubber); the window runs TimeTravel.seek on its worker. */
    public ObjectProperty<LongConsumer> onSeekProperty() { return onSeek; }

    // ---- data ----

    /**
     * Call on the FX thread after {@link TimelineModel#update()} returned true on the worker: the
     * run grew, so the range follows it if it was showing all of it, and the view redraws.
     */
    public void refresh() {
        if (follow) fitAll();
        bump();
    }

    /** The whole run on the current axis (at least one unit). */
    public double extent() {
        return Math.max(1, axis.get() == Axis.CYCLES ? model.knownCycles() : model.knownSteps());
    }

    /** Switches the axis, keeping the same steps in view. */
    public void setAxis(Axis a) {
        if (a == axis.get()) return;
        long s0 = stepAt(0);
        long s1 = Math.max(s0 + 1, stepAt(viewportWidth.get()));
        axis.set(a);
        if (a == Axis.CYCLES) setRange(model.cyclesAt(s0), model.cyclesAt(s1));
        else setRange(s0, s1);
        bump();
    }

    // ---- pixels and steps ----

    private double width() { return Math.max(1, viewportWidth.get()); }

    /** The axis value (step or cycle, fractional) at pixel x of the lanes area. */
    public double axisAt(double x) { return start.get() + x / width() * (end.get() - start.get()); }

    /** The fractional step at pixel x. */
    public double fractionalStepAt(double x) {
        double v = axisAt(x);
        return axis.get() == Axis.CYCLES ? model.stepAtCycles(v) : v;
    }

    /** The step under pixel x. */
    public long stepAt(double x) { return (long) Math.floor(fractionalStepAt(x)); }

    /** The pixel x of the start of {@code step} (possibly outside the lanes area). */
    public double xOfStep(long step) {
        double v = axis.get() == Axis.CYCLES ? model.cyclesAt(step) : step;
        return (v - start.get()) / (end.get() - start.get()) * width();
    }

    /** Fills the column bounds of {@code cols} (one column per pixel) for the visible range. */
    public void bounds(TimelineColumns cols) {
        model.bounds(axis.get() == Axis.CYCLES, start.get(), end.get(), cols);
    }

    // ---- zoom and pan ----

    /** Sets the range, shifted back inside the run where it can be, and no narrower than {@link #MIN_SPAN}. */
    private void setRange(double s, double e) {
        double ext = extent();
        double span = Math.max(MIN_SPAN, e - s);
        if (span >= ext) {
            s = 0;
            span = ext;
        } else if (s < 0) {
            s = 0;
        } else if (s + span > ext) {
            s = ext - span;
        }
        start.set(s);
        end.set(s + span);
    }

    /** Zooms by {@code factor} (above 1: in) keeping the axis value under pixel x where it is. */
    public void zoomAt(double x, double factor) {
        double pivot = axisAt(x);
        double span = Math.max(MIN_SPAN, (end.get() - start.get()) / factor);
        double s = pivot - x / width() * span;
        follow = false;
        setRange(s, s + span);
        if (end.get() - start.get() >= extent()) follow = true;
    }

    /** Zooms around the middle of the view (keyboard). */
    public void zoom(double factor) { zoomAt(width() / 2, factor); }

    /** Moves the range by a fraction of its width (positive: later). */
    public void panBy(double fraction) {
        double span = end.get() - start.get();
        follow = false;
        setRange(start.get() + fraction * span, end.get() + fraction * span);
    }

    /** Moves the range by pixels (a drag to the right shows earlier steps). */
    public void panPixels(double dx) { panBy(-dx / width()); }

    /** Shows the whole run, and keeps showing it as it grows. */
    public void fitAll() {
        follow = true;
        start.set(0);
        end.set(extent());
    }

    /** Centers the view on {@code step}, keeping the zoom. */
    public void goToStep(long step) {
        double v = axis.get() == Axis.CYCLES ? model.cyclesAt(step) : step;
        double span = end.get() - start.get();
        follow = false;
        setRange(v - span / 2, v + span / 2);
    }

    /** Home: the start of the run, keeping the zoom. */
    public void goToStart() { panBy(-start.get() / Math.max(1e-9, end.get() - start.get())); }

    /** End: the end of the run, keeping the zoom. */
    public void goToEnd() { panBy((extent() - end.get()) / Math.max(1e-9, end.get() - start.get())); }

    // ---- rows ----

    public void toggleCta(int cta) {
        if (!collapsedCtas.remove(cta)) collapsedCtas.add(cta);
        rebuildRows();
    }

    public void toggleCluster(int cluster) {
        if (!collapsedClusters.remove(cluster)) collapsedClusters.add(cluster);
        rebuildRows();
    }

    public boolean isCtaCollapsed(int cta) { return collapsedCtas.contains(cta); }

    public boolean isClusterCollapsed(int cluster) { return collapsedClusters.contains(cluster); }

    private void rebuildRows() {
        List<Row> out = new ArrayList<>();
        int n = model.lanes();
        int l = 0;
        while (l < n) {
            int cluster = model.clusterOfLane(l);
            int cta = model.ctaOfLane(l);
            if (collapsedClusters.contains(cluster)) {
                int e = l;
                int ctas = 0;
                for (int last = -1; e < n && model.clusterOfLane(e) == cluster; e++) {
                    if (model.ctaOfLane(e) != last) ctas++;
                    last = model.ctaOfLane(e);
                }
                out.add(new Row(l, e, "cluster " + cluster + " (" + ctas + " CTAs)", true));
                l = e;
            } else if (collapsedCtas.contains(cta)) {
                int e = l;
                while (e < n && model.ctaOfLane(e) == cta) e++;
                out.add(new Row(l, e, model.ctaLabel(cta) + " (" + (e - l) + " warps)", true));
                l = e;
            } else {
                out.add(new Row(l, l + 1, model.laneLabel(l), false));
                l++;
            }
        }
        rows.set(List.copyOf(out));
        firstRow.set(Math.max(0, Math.min(firstRow.get(), out.size() - 1)));
        bump();
    }

    /** The row showing {@code lane}. */
    public int rowOfLane(int lane) {
        List<Row> r = rows.get();
        int lo = 0;
        int hi = r.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (r.get(mid).laneFrom() <= lane) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }

    /** Scrolls the rows by {@code n} (clamped). */
    public void scrollRows(int n) {
        firstRow.set(Math.max(0, Math.min(rows.get().size() - 1, firstRow.get() + n)));
    }

    // ---- hover, select, seek ----

    /** What is under pixel x of row {@code row}, or null (the nearest marker or completion within a few pixels, else the span). */
    public TimelineHit hitAt(double x, int row) {
        List<Row> r = rows.get();
        if (row < 0 || row >= r.size() || x < 0 || x >= width()) return null;
        long at = stepAt(x);
        long from = stepAt(Math.max(0, x - HIT_SLOP));
        long to = stepAt(x + HIT_SLOP);
        Row rw = r.get(row);
        TimelineHit best = null;
        for (int lane = rw.laneFrom(); lane < rw.laneTo(); lane++) {
            TimelineHit h = model.hit(lane, from, to, at);
            if (h == null) continue;
            // in a collapsed row, the nearest event of any of its lanes, else the first lane's span
            if (best == null || h.event() && (!best.event() || Math.abs(h.step() - at) < Math.abs(best.step() - at))) best = h;
        }
        if (best != null && !best.event()) { // a span of state: with the copies and wgmma operations in flight then
            String async = model.asyncAt(best.lane(), at);
            if (!async.isEmpty()) best = new TimelineHit(best.lane(), best.step(), best.seekStep(), best.description() + "\n" + async, false);
        }
        return best;
    }

    /** Marks {@code h} as the selected event (drawn as a click's selection is), e.g. where two compared runs part. */
    public void select(TimelineHit h) { selected.set(h); }

    /** The pointer moved over pixel x of row {@code row} (null row index -1: it left). */
    public void hover(double x, int row) { hovered.set(row < 0 ? null : hitAt(x, row)); }

    /** A click: selects what is under the pointer, its warp's lane, and asks to seek to it. */
    public void click(double x, int row) {
        TimelineHit h = hitAt(x, row);
        selected.set(h);
        if (h == null) return;
        Consumer<TimelineHit> pick = onPick.get();
        if (pick != null) {
            pick.accept(h);
        } else {
            selectWarp(model.warpOfLane(h.lane()));
            seek(h.seekStep());
        }
    }

    /** The scrubber at pixel x (it spans the whole run): asks to seek to the step there. */
    public void scrub(double x) {
        double frac = Math.max(0, Math.min(1, x / width()));
        double v = frac * extent();
        long step = (long) Math.floor(axis.get() == Axis.CYCLES ? model.stepAtCycles(v) : v);
        seek(Math.min(step, model.knownSteps()));
    }

    /** The pixel x on the scrubber of {@code step}. */
    public double scrubberX(long step) {
        double v = axis.get() == Axis.CYCLES ? model.cyclesAt(step) : step;
        return v / extent() * width();
    }

    private void seek(long step) {
        LongConsumer c = onSeek.get();
        if (c != null) c.accept(step);
    }

    /** A tick spacing on the axis ("nice": 1, 2 or 5 times a power of ten) at least {@code minPixels} apart. */
    public double tickSpacing(double minPixels) {
        double perPixel = (end.get() - start.get()) / width();
        double raw = Math.max(1, perPixel * minPixels);
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) if (m * p >= raw) return m * p;
        return 10 * p;
    }
}
