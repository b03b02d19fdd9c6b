package io.barrierscope.app.timeline;

import java.util.List;
import javafx.application.Platform;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.geometry.Orientation;
import javafx.scene.control.ScrollBar;
import javafx.scene.paint.Color;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * The timeline drawn on a canvas: lane labels on the left, a time ruler with the scrubber under
 * it, one row per lane (or collapsed CTA/cluster) with state runs and markers, completion lines
 * across the lanes they released, and a legend. Every frame asks the model for one summary per
 * pixel column (never a node or a draw call per event) and fills rectangles only, adjacent
 * columns of one colour making one: the lanes into a pixel array handed over in one call
 * ({@link LaneRaster}), text, ruler and legend as canvas calls. The cursor, the selection and the scrubber's mark
 * live on a second canvas, so following the session's position redraws only that.
 *
 * <p>Mouse, as in Perfetto and Chrome tracing: the wheel scrolls the lanes, Ctrl+wheel zooms
 * around the pointer, Shift+wheel (or a horizontal wheel) pans, drag pans, click selects the event
 * under the pointer and asks to seek to it, double-click or the "Fit all" button fits the whole
 * run, the scrubber seeks by click or drag, a click on a label collapses or expands its CTA (with
 * Alt, its cluster). Keys: W and S zoom in and out (around the pointer when it is over the lanes),
 * A and D pan, + and - zoom, Left and Right pan, Home and End, Page Up/Down scroll rows, 0 fits.
 * The hover tooltip follows every scroll and zoom: it describes what is under the pointer now.
 */
public final class TimelineView extends Region {
    /** Marker placement per kind, shared with the other renderer (computed once: drawing allocates nothing). */
    private static final int[][] MARKER_BOXES = TimelineStyle.markerBoxes((int) TimelineView.ROW_H);

    static final double LABEL_W = 170;
    static final double RULER_H = 20;
    static final double SCRUB_H = 10;
    static final double LEGEND_H = 20;
    static final double ROW_H = 16;
    static final double TOP = RULER_H + SCRUB_H + 2;
    static final double FONT = 11;

    private final TimelineViewModel vm;
    private final TimelineModel model;
    private final Canvas content = new Canvas();
    private final Canvas overlay = new Canvas();
    private final Tooltip tooltip = new Tooltip();
    /** Shown when the lanes do not all fit, so the hidden ones are obviously there and reachable. */
    private final ScrollBar rowsBar = new ScrollBar();
    private boolean syncingBar;
    /** The geometry at the current scale (presentation mode enlarges the timeline). */
    private double scale = 1;
    private double rowH = ROW_H;
    private double labelW = LABEL_W;
    private double rulerH = RULER_H;
    private double scrubH = SCRUB_H;
    private double legendH = LEGEND_H;
    private double top = TOP;
    private int[][] markerBoxes = MARKER_BOXES;
    private Font font = Font.font(FONT);
    private TimelineColumns cols;
    private LaneRaster raster;
    private final AsyncLanePainter async = new AsyncLanePainter();
    /** The theme's colours for the lanes' background, labels, ruler and scrubber (the state colours are the same in both). */
    private Color bg = TimelinePalette.BACKGROUND;
    private Color labelBg = TimelinePalette.LABEL_BACKGROUND;
    private Color text = TimelinePalette.TEXT;
    private Color groupText = TimelinePalette.GROUP_LABEL;
    private Color scrubber = TimelinePalette.SCRUBBER;
    private Color scrubberRange = TimelinePalette.SCRUBBER_RANGE;
    private int bgArgb = LaneRaster.argb(TimelinePalette.BACKGROUND);
    private boolean dark;

    /** Draws on the dark theme's colours (the window's dark mode) or the light ones. */
    public void setDark(boolean on) {
        if (on == dark) return;
        dark = on;
        bg = on ? Color.web("#1e1f22") : TimelinePalette.BACKGROUND;
        labelBg = on ? Color.web("#2b2d31") : TimelinePalette.LABEL_BACKGROUND;
        text = on ? Color.web("#e6edf3") : TimelinePalette.TEXT;
        groupText = on ? Color.web("#9aa4ae") : TimelinePalette.GROUP_LABEL;
        scrubber = on ? Color.web("#44474d") : TimelinePalette.SCRUBBER;
        scrubberRange = on ? Color.web("#9aa4ae") : TimelinePalette.SCRUBBER_RANGE;
        bgArgb = LaneRaster.argb(bg);
        scheduleContent();
        scheduleOverlay();
    }

    /** Whether it draws on the dark theme's colours. */
    public boolean isDark() { return dark; }

    /** The lanes' background colour now. */
    public Color backgroundColour() { return bg; }
    private static final int COMPLETION = LaneRaster.argb(TimelinePalette.COMPLETION);
    private static final int[] STATE = argb(TimelinePalette.STATE);
    private static final int[] MARKER = argb(TimelinePalette.MARKER);
    private boolean contentPending;
    private boolean overlayPending;
    private double lastX;
    private boolean scrubbing;

    public TimelineView(TimelineViewModel vm) {
        this.vm = vm;
        this.model = vm.model();
        getStyleClass().add("timeline");
        setFocusTraversable(true);
        overlay.setMouseTransparent(true);
        getChildren().addAll(content, overlay, rowsBar);
        rowsBar.setId("timelineRowsBar");
        rowsBar.setOrientation(Orientation.VERTICAL);
        rowsBar.setFocusTraversable(false);
        rowsBar.setUnitIncrement(1);
        rowsBar.valueProperty().addListener((o, a, v) -> {
            if (!syncingBar) vm.firstRowProperty().set((int) Math.round(v.doubleValue()));
        });
        // Its clicks and drags are its own, not a pick or a pan of the lanes under it.
        rowsBar.addEventHandler(MouseEvent.ANY, MouseEvent::consume);
        rowsBar.addEventHandler(ScrollEvent.ANY, ScrollEvent::consume);
        vm.firstRowProperty().addListener((o, a, b) -> syncBar());
        vm.rowsProperty().addListener((o, a, b) -> {
            syncBar();
            requestLayout(); // the scrollbar may come or go, and the lanes widen or narrow with it
        });
        setMinSize(labelW + 100, top + legendH + 3 * rowH);
        setPrefSize(1000, top + legendH + 16 * rowH);
        vm.revisionProperty().addListener((o, a, b) -> scheduleContent());
        vm.axisProperty().addListener((o, a, b) -> scheduleContent());
        vm.positionProperty().addListener((o, a, b) -> scheduleOverlay());
        vm.selectedProperty().addListener((o, a, b) -> scheduleOverlay());
        vm.hoveredProperty().addListener((o, a, b) -> tooltip.setText(b == null ? "" : b.description()));
        setOnScroll(this::scroll);
        setOnMousePressed(this::pressed);
        setOnMouseDragged(this::dragged);
        setOnMouseReleased(e -> scrubbing = false);
        setOnMouseClicked(this::clicked);
        setOnMouseMoved(this::moved);
        setOnMouseExited(e -> {
            pointerX = Double.NaN;
            vm.hover(0, -1);
            tooltip.hide();
        });
        setOnKeyPressed(this::key);
        // What is under a still pointer changes when the lanes scroll or zoom under it.
        vm.firstRowProperty().addListener((o, a, b) -> refreshHover());
        vm.startProperty().addListener((o, a, b) -> refreshHover());
        vm.endProperty().addListener((o, a, b) -> refreshHover());
        fit.setId("timelineFitAll");
        fit.getStyleClass().add("timeline-fit");
        fit.setFocusTraversable(false);
        fit.setTooltip(new Tooltip("Fit all: show the whole run (0, or double-click the lanes)"));
        fit.setOnAction(e -> vm.fitAll());
        getChildren().add(fit);
    }

    private final javafx.scene.control.Button fit = new javafx.scene.control.Button("Fit all");

    /** The pointer's last place over the view (view and screen coordinates), or NaN when it is outside. */
    private double pointerX = Double.NaN;
    private double pointerY;
    private double pointerScreenX;
    private double pointerScreenY;

    /** Hovers again where the pointer is, so the tooltip describes what is under it after a scroll or zoom. */
    private void refreshHover() {
        if (Double.isNaN(pointerX)) return;
        int row = pointerX >= labelW ? rowAtY(pointerY) : -1;
        vm.hover(pointerX - labelW, row);
        showTooltip();
    }

    private void showTooltip() {
        if (vm.hoveredProperty().get() == null) {
            tooltip.hide();
        } else if (getScene() != null && getScene().getWindow() != null) {
            tooltip.show(this, pointerScreenX + 14, pointerScreenY + 14);
        }
    }

    public TimelineViewModel viewModel() { return vm; }

    /**
     * Draws everything {@code factor} times as large (presentation mode): rows, labels, ruler,
     * legend and text, so a classroom can read the lanes as it reads the source and the gauges.
     */
    public void setScale(double factor) {
        if (factor == scale || factor <= 0) return;
        scale = factor;
        rowH = Math.round(ROW_H * factor);
        labelW = Math.round(LABEL_W * factor);
        rulerH = Math.round(RULER_H * factor);
        scrubH = Math.round(SCRUB_H * factor);
        legendH = Math.round(LEGEND_H * factor);
        top = rulerH + scrubH + 2;
        markerBoxes = TimelineStyle.markerBoxes((int) rowH);
        font = Font.font(FONT * factor);
        setMinSize(labelW + 100, top + legendH + 3 * rowH);
        setPrefSize(1000, top + legendH + 16 * rowH);
        vm.viewportWidthProperty().set(laneWidth(Math.floor(getWidth())));
        vm.viewportRowsProperty().set(visibleRows());
        scheduleContent();
    }

    /** The width the lanes span: the view less the labels and, while some rows are hidden, the rows scrollbar. */
    private double laneWidth(double w) {
        boolean bar = vm.rowsProperty().get().size() > visibleRows();
        return Math.max(1, w - labelW - (bar ? rowsBar.prefWidth(-1) : 0));
    }

    /** 1, or larger in presentation mode. */
    public double scale() { return scale; }

    private static int[] argb(javafx.scene.paint.Color[] cs) {
        int[] out = new int[cs.length];
        for (int i = 0; i < cs.length; i++) out[i] = LaneRaster.argb(cs[i]);
        return out;
    }

    // ---- layout and scheduling ----

    @Override
    protected void layoutChildren() {
        double w = Math.floor(getWidth());
        double h = Math.floor(getHeight());
        // The scrollbar takes its width from the lanes, so the end of the run is never under it.
        if (content.getWidth() != w || content.getHeight() != h || vm.viewportWidthProperty().get() != laneWidth(w)) {
            content.setWidth(w);
            content.setHeight(h);
            overlay.setWidth(w);
            overlay.setHeight(h);
            vm.viewportWidthProperty().set(laneWidth(w));
            vm.viewportRowsProperty().set(visibleRows());
            scheduleContent();
        }
        double bw = rowsBar.prefWidth(-1);
        rowsBar.resizeRelocate(w - bw, top, bw, Math.max(0, h - top - legendH));
        // "Fit all" sits in the label column, right of the axis name, over the ruler and scrubber rows.
        double fh = Math.min(top - 2, fit.prefHeight(-1));
        double fw = fit.prefWidth(-1);
        fit.resizeRelocate(Math.max(0, labelW - fw - 4), Math.max(0, (top - fh) / 2), fw, fh);
        syncBar();
    }

    /** The scrollbar shows the rows in view among all of them, and only when some are hidden. */
    private void syncBar() {
        int all = vm.rowsProperty().get().size();
        int shown = visibleRows();
        boolean some = all > shown;
        rowsBar.setVisible(some);
        syncingBar = true;
        try {
            rowsBar.setMax(Math.max(0, all - shown));
            rowsBar.setVisibleAmount(shown);
            rowsBar.setBlockIncrement(Math.max(1, shown - 1));
            rowsBar.setValue(Math.min(vm.firstRowProperty().get(), rowsBar.getMax()));
        } finally {
            syncingBar = false;
        }
    }

    /** The hover tooltip (tests). */
    Tooltip tooltip() { return tooltip; }

    /** The rows scrollbar (tests). */
    ScrollBar rowsBar() { return rowsBar; }

    /** Redraws once, after the current event (several property changes make one frame). */
    private void scheduleContent() {
        if (contentPending) return;
        contentPending = true;
        Platform.runLater(() -> {
            contentPending = false;
            drawContent();
            drawOverlay();
        });
    }

    private void scheduleOverlay() {
        if (overlayPending) return;
        overlayPending = true;
        Platform.runLater(() -> {
            overlayPending = false;
            drawOverlay();
        });
    }

    /** Rows that fit under the ruler. */
    int visibleRows() { return (int) Math.max(1, Math.floor((getHeight() - top - legendH) / rowH)); }

    /** The row index at y, or -1. */
    int rowAtY(double y) {
        if (y < top || y >= getHeight() - legendH) return -1;
        int r = vm.firstRowProperty().get() + (int) Math.floor((y - top) / rowH);
        return r < vm.rowsProperty().get().size() ? r : -1;
    }

    /** The y of the top of row r (may be off screen). */
    public double rowY(int r) { return top + (r - vm.firstRowProperty().get()) * rowH; }

    /** The height of a row. */
    public double rowHeight() { return rowH; }

    /** The width of the lane labels, left of the lanes. */
    public double labelWidth() { return labelW; }

    // ---- drawing ----

    /** Draws everything but the cursor: package-private so the benchmark can time one frame. */
    void drawContent() {
        GraphicsContext g = content.getGraphicsContext2D();
        double w = content.getWidth();
        double h = content.getHeight();
        g.setFill(bg);
        g.fillRect(0, 0, w, h);
        int width = (int) (w - labelW);
        int height = (int) (h - top - legendH);
        if (width <= 0 || height <= 0) return;
        if (cols == null || cols.width != width) cols = new TimelineColumns(width);
        if (raster == null || raster.width != width || raster.height != height) raster = new LaneRaster(width, height);
        vm.bounds(cols);
        g.setFont(font);
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.LEFT);
        g.setFill(labelBg);
        g.fillRect(0, 0, labelW, h);
        List<TimelineViewModel.Row> rows = vm.rowsProperty().get();
        int first = vm.firstRowProperty().get();
        int last = Math.min(rows.size(), first + visibleRows());
        for (int r = first; r < last; r++) {
            TimelineViewModel.Row row = rows.get(r);
            if (vm.selected(row)) { // the selected thread's warp
                g.setFill(TimelinePalette.SELECTED_LANE);
                g.fillRect(0, rowY(r), labelW, rowH);
            } else if (vm.highlighted(row)) { // a waiter of the selected barrier
                g.setFill(TimelinePalette.HIGHLIGHT);
                g.fillRect(0, rowY(r), labelW, rowH);
            }
            boolean marked = vm.selected(row) || vm.highlighted(row); // on a light mark: dark text in either theme
            g.setFill(marked ? TimelinePalette.TEXT : row.group() ? groupText : text);
            g.fillText(row.label(), 4, rowY(r) + rowH / 2, labelW - 8);
        }
        raster.paint(() -> {
            raster.clear(bgArgb);
            async.beginFrame();
            for (int r = first; r < last; r++) {
                TimelineViewModel.Row row = rows.get(r);
                model.row(row.laneFrom(), row.laneTo(), cols);
                int ry = (int) (rowY(r) - top);
                drawStates(ry);
                drawMarkers(ry);
                async.draw(raster, model, cols, row.laneFrom(), row.laneTo(), ry, (int) rowH);
            }
            drawCompletions(first, last);
        });
        g.drawImage(raster.image, labelW, top);
        for (int r = first; r < last; r++) {
            if (!vm.selected(rows.get(r))) continue;
            g.setStroke(TimelinePalette.SELECTION); // the selected warp's lane, framed across the run
            g.strokeRect(labelW + 0.5, rowY(r) + 0.5, w - labelW - 1, rowH - 1);
        }
        drawRuler(g, w);
        TimelineLegend.draw(g, w, h - legendH, legendH, scale, labelBg, text, async.drewAny(), model.hasDeviations());
    }

    /** A row's state runs: adjacent columns showing the same state are one rectangle. */
    private void drawStates(int y) {
        int[] st = cols.states;
        int c = 0;
        while (c < cols.width) {
            int s = TimelinePalette.SEVEREST[st[c]];
            if (s < 0) {
                c++;
                continue;
            }
            int e = c + 1;
            while (e < cols.width && TimelinePalette.SEVEREST[st[e]] == s) e++;
            raster.fill(c, y + 3, e - c, (int) rowH - 6, STATE[s]);
            c = e;
        }
    }

    private void drawMarkers(int y) {
        int rh = (int) rowH;
        for (int k = 0; k < MarkerKind.COUNT; k++) {
            int[] m = cols.markers[k];
            int[] box = markerBoxes[k];
            int top = y + box[0];
            int height = box[1];
            int minW = box[2];
            boolean any = false;
            for (int c = 0; c < cols.width && !any; c++) any = m[c] != 0;
            if (!any) continue;
            // zoomed far out markers fill most columns: then a thin band, so the states stay readable
            if (TimelineStyle.dense(m, cols.width)) height = Math.min(height, 2);
            int c = 0;
            while (c < cols.width) {
                if (m[c] == 0) {
                    c++;
                    continue;
                }
                int e = c + 1;
                while (e < cols.width && m[e] != 0) e++;
                raster.fill(c, top, Math.max(minW, e - c), height, MARKER[k]);
                c = e;
            }
        }
    }

    private void drawCompletions(int first, int last) {
        model.completionColumns(cols);
        int bottom = (int) (rowY(last) - top);
        // dense completions (far out) as short ticks at the top of the lanes released, not lines hiding everything
        boolean dense = TimelineStyle.dense(cols.completions, cols.width);
        for (int c = 0; c < cols.width; c++) {
            if (cols.completions[c] == 0) continue;
            int r0 = vm.rowOfLane(cols.completionLo[c]);
            int r1 = vm.rowOfLane(cols.completionHi[c]);
            if (r1 < first || r0 >= last) continue;
            int y0 = Math.max(0, (int) (rowY(r0) - top) + 1);
            int y1 = Math.min(bottom, (int) (rowY(r1 + 1) - top) - 1);
            raster.fill(c, y0, 1, dense ? 3 : Math.max(2, y1 - y0), COMPLETION);
        }
    }

    private void drawRuler(GraphicsContext g, double w) {
        g.setFill(bg);
        g.fillRect(labelW, 0, w - labelW, rulerH);
        double spacing = vm.tickSpacing(90);
        double first = Math.ceil(vm.getStart() / spacing) * spacing;
        g.setFill(text);
        g.setTextAlign(TextAlignment.LEFT);
        double span = vm.getEnd() - vm.getStart();
        double width = w - labelW;
        for (double v = first; v <= vm.getEnd(); v += spacing) {
            double x = labelW + (v - vm.getStart()) / span * width;
            g.fillRect(Math.floor(x), rulerH - 6, 1, 6);
            if (x < w - 40) g.fillText(String.format("%,d", (long) v), x + 3, rulerH / 2 - 1);
        }
        g.fillText(vm.axisProperty().get() == TimelineViewModel.Axis.CYCLES ? "cycles" : "warp steps", 4, rulerH / 2);
        // the scrubber: the whole run, with the visible range marked
        g.setFill(scrubber);
        g.fillRect(labelW, rulerH, width, scrubH);
        double ext = vm.extent();
        double x0 = Math.max(0, vm.getStart() / ext * width);
        double x1 = Math.min(width, vm.getEnd() / ext * width);
        g.setFill(scrubberRange);
        g.fillRect(labelW + x0, rulerH + 2, Math.max(2, x1 - x0), scrubH - 4);
    }

    /** The cursor (the session's position), the selected event, and the scrubber's mark. */
    void drawOverlay() {
        GraphicsContext g = overlay.getGraphicsContext2D();
        double w = overlay.getWidth();
        double h = overlay.getHeight();
        g.clearRect(0, 0, w, h);
        double width = w - labelW;
        if (width <= 0) return;
        double bottom = h - legendH;
        TimelineHit sel = vm.selectedProperty().get();
        if (sel != null) {
            double x = vm.xOfStep(sel.step());
            if (x >= 0 && x < width) {
                g.setFill(TimelinePalette.SELECTION);
                g.fillRect(labelW + Math.floor(x), top, 1, bottom - top);
                int r = vm.rowOfLane(sel.lane());
                g.setStroke(TimelinePalette.SELECTION);
                g.strokeRect(labelW + Math.floor(x) - 3.5, rowY(r) + 0.5, 7, rowH - 1);
            }
        }
        long pos = vm.positionProperty().get();
        double x = vm.xOfStep(pos);
        g.setFill(TimelinePalette.CURSOR);
        if (x >= 0 && x <= width) g.fillRect(labelW + Math.floor(x), rulerH, 2, bottom - rulerH);
        g.fillRect(labelW + Math.min(width - 2, vm.scrubberX(pos)), rulerH, 2, scrubH);
    }

    // ---- input ----

    private boolean inScrubber(double y) { return y >= rulerH && y < rulerH + scrubH + 2; }

    private void scroll(ScrollEvent e) {
        track(e.getX(), e.getY(), e.getScreenX(), e.getScreenY());
        // a wheel notch is deltaY / multiplier (40 pixels on desktops)
        double notches = e.getDeltaY() / (e.getMultiplierY() > 0 ? e.getMultiplierY() : 40);
        if (e.isControlDown() || e.isShortcutDown()) {
            // zoom around the pointer: a notch away from you zooms in by 1.25
            if (e.getDeltaY() != 0) vm.zoomAt(Math.max(0, e.getX() - labelW), Math.pow(1.25, notches));
        } else if (e.isShiftDown() || (e.getDeltaY() == 0 && e.getDeltaX() != 0)) {
            double d = e.getDeltaX() != 0 ? e.getDeltaX() : e.getDeltaY();
            vm.panPixels(d);
        } else if (e.getDeltaY() != 0) {
            int rows = (int) Math.max(1, Math.round(Math.abs(notches) * 3));
            vm.scrollRows(notches > 0 ? -rows : rows);
        }
        e.consume();
    }

    private void track(double x, double y, double screenX, double screenY) {
        pointerX = x;
        pointerY = y;
        pointerScreenX = screenX;
        pointerScreenY = screenY;
    }

    /** The lanes' x of the pointer when it is over them, else their middle (keyboard zoom). */
    private double zoomPivot() {
        double lanes = vm.viewportWidthProperty().get();
        return !Double.isNaN(pointerX) && pointerX >= labelW && pointerX - labelW <= lanes ? pointerX - labelW : lanes / 2;
    }

    private void pressed(MouseEvent e) {
        requestFocus();
        lastX = e.getX();
        scrubbing = e.getButton() == MouseButton.PRIMARY && e.getX() >= labelW && inScrubber(e.getY());
        if (scrubbing) vm.scrub(e.getX() - labelW);
    }

    private void dragged(MouseEvent e) {
        if (scrubbing) {
            vm.scrub(e.getX() - labelW);
        } else if (e.getX() >= labelW || lastX >= labelW) {
            vm.panPixels(e.getX() - lastX);
        }
        lastX = e.getX();
    }

    private void clicked(MouseEvent e) {
        if (e.getButton() != MouseButton.PRIMARY || !e.isStillSincePress() || inScrubber(e.getY())) return;
        int row = rowAtY(e.getY());
        if (e.getX() < labelW) {
            if (row >= 0) toggle(row, e.isAltDown());
        } else if (e.getClickCount() >= 2) {
            vm.fitAll();
        } else if (row >= 0) {
            vm.click(e.getX() - labelW, row);
        }
    }

    /** A click on a label: expands a collapsed row, else collapses the lane's CTA (with Alt its cluster). */
    private void toggle(int row, boolean cluster) {
        TimelineViewModel.Row r = vm.rowsProperty().get().get(row);
        int lane = r.laneFrom();
        int k = model.clusterOfLane(lane);
        if (vm.isClusterCollapsed(k) || (cluster && !r.group())) vm.toggleCluster(k);
        else vm.toggleCta(model.ctaOfLane(lane));
    }

    private void moved(MouseEvent e) {
        track(e.getX(), e.getY(), e.getScreenX(), e.getScreenY());
        int row = e.getX() >= labelW ? rowAtY(e.getY()) : -1;
        vm.hover(e.getX() - labelW, row);
        showTooltip();
    }

    private void key(KeyEvent e) {
        switch (e.getCode()) {
            case W -> vm.zoomAt(zoomPivot(), 1.5);
            case S -> vm.zoomAt(zoomPivot(), 1 / 1.5);
            case A -> vm.panBy(-0.1);
            case D -> vm.panBy(0.1);
            case PLUS, EQUALS, ADD -> vm.zoom(1.5);
            case MINUS, SUBTRACT -> vm.zoom(1 / 1.5);
            case LEFT -> vm.panBy(-0.1);
            case RIGHT -> vm.panBy(0.1);
            case HOME -> vm.goToStart();
            case END -> vm.goToEnd();
            case PAGE_UP -> vm.scrollRows(-visibleRows());
            case PAGE_DOWN -> vm.scrollRows(visibleRows());
            case DIGIT0, NUMPAD0 -> vm.fitAll();
            default -> {
                return;
            }
        }
        e.consume();
    }
}
