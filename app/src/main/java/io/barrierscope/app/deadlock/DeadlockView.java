package io.barrierscope.app.deadlock;

import javafx.geometry.Orientation;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * The deadlock pane: the wait-for graph drawn on a canvas (blocked groups, then the barriers
 * they wait on, then the threads those still need; the cycle in red), the picked node's story
 * under it, and the engine's text explanation below. A graph of at most a few dozen boxes, so
 * it is redrawn whole on every change.
 */
public final class DeadlockView {
    /** Colours of one theme. */
    private record Palette(Color background, Color box, Color boxText, Color subText, Color border, Color edge,
                           Color cycle, Color exited, Color selected) {}

    private static final Palette LIGHT = new Palette(Color.web("#ffffff"), Color.web("#f3f6fa"), Color.web("#1f2328"),
            Color.web("#57606a"), Color.web("#8c959f"), Color.web("#6e7781"), Color.web("#d1242f"),
            Color.web("#eaeef2"), Color.web("#0969da"));
    private static final Palette DARK = new Palette(Color.web("#1e1f22"), Color.web("#2b2d31"), Color.web("#e6edf3"),
            Color.web("#9aa4ae"), Color.web("#5c6370"), Color.web("#8b949e"), Color.web("#ff6b6b"),
            Color.web("#25272b"), Color.web("#58a6ff"));

    private final DeadlockViewModel vm;
    private final Canvas canvas = new Canvas(10, 10);
    private final SplitPane root = new SplitPane();
    private final ScrollPane scroll;
    private Palette palette = LIGHT;
    /** 1, or larger in presentation mode. */
    private double baseScale = 1;
    /** What is drawn: the base scale, shrunk (a little) to fit the pane's width. */
    private double scale = 1;

    public DeadlockView(DeadlockViewModel vm) {
        this.vm = vm;
        canvas.setId("deadlockCanvas");
        Label headline = new Label();
        headline.setId("deadlockHeadline");
        headline.getStyleClass().add("pane-title");
        headline.setMaxWidth(Double.MAX_VALUE);
        headline.textProperty().bind(vm.headlineProperty());
        Label detail = new Label();
        detail.setId("deadlockDetail");
        detail.getStyleClass().add("deadlock-detail");
        detail.setWrapText(true);
        detail.setMaxWidth(Double.MAX_VALUE);
        // Room for a few lines from the start, so picking a box does not shift the graph.
        detail.setMinHeight(64);
        detail.setPrefHeight(64);
        detail.setAlignment(javafx.geometry.Pos.TOP_LEFT);
        detail.textProperty().bind(vm.detailProperty());
        detail.managedProperty().bind(vm.deadlockedProperty());
        detail.visibleProperty().bind(vm.deadlockedProperty());
        scroll = new ScrollPane(canvas);
        scroll.setId("deadlockGraph");
        scroll.getStyleClass().add("deadlock-graph");
        scroll.managedProperty().bind(vm.deadlockedProperty());
        scroll.visibleProperty().bind(vm.deadlockedProperty());
        BorderPane top = new BorderPane(scroll, headline, null, detail, null);

        TextArea text = new TextArea();
        text.setId("deadlockText");
        text.setEditable(false);
        text.setWrapText(true);
        text.getStyleClass().add("report-area");
        text.textProperty().bind(vm.textProperty());

        root.setOrientation(Orientation.VERTICAL);
        root.getItems().addAll(top, new VBox(text));
        VBox.setVgrow(text, javafx.scene.layout.Priority.ALWAYS);
        root.setDividerPositions(0.62);

        canvas.setOnMouseClicked(e -> vm.select(graphOrNull() == null ? null
                : graphOrNull().nodeAt(e.getX() / scale, e.getY() / scale)));
        vm.graphProperty().addListener((o, a, g) -> draw());
        scroll.viewportBoundsProperty().addListener((o, a, b) -> {
            if (Math.abs(a.getWidth() - b.getWidth()) > 1) draw();
        });
        vm.selectedProperty().addListener((o, a, s) -> draw());
        draw();
    }

    public Node root() { return root; }

    /** Switches the graph's colours with the window's theme. */
    public void setDark(boolean dark) {
        if (palette == (dark ? DARK : LIGHT)) return; // a toggle of the other setting redraws nothing here
        palette = dark ? DARK : LIGHT;
        draw();
    }

    /** Scales the drawing (presentation mode enlarges it). */
    public void setScale(double s) {
        if (s == baseScale) return;
        baseScale = s;
        draw();
    }

    private WaitGraph graphOrNull() { return vm.graphProperty().get(); }

    private void draw() {
        WaitGraph g = graphOrNull();
        // Fit the pane's width when that costs at most a quarter of the size; beyond, scroll.
        double room = scroll.getViewportBounds().getWidth();
        double fit = g == null || room <= 0 ? 1 : Math.max(0.75, Math.min(1, (room - 2) / (g.width() * baseScale)));
        scale = baseScale * fit;
        double w = g == null ? 10 : g.width() * scale;
        double h = g == null ? 10 : g.height() * scale;
        canvas.setWidth(w);
        canvas.setHeight(h);
        GraphicsContext gc = canvas.getGraphicsContext2D();
        gc.setTransform(1, 0, 0, 1, 0, 0);
        gc.setFill(palette.background());
        gc.fillRect(0, 0, w, h);
        if (g == null) return;
        gc.scale(scale, scale);
        for (WaitGraph.Edge e : g.edges()) if (!e.inCycle()) drawEdge(gc, g, e); // red on top
        for (WaitGraph.Edge e : g.edges()) if (e.inCycle()) drawEdge(gc, g, e);
        for (WaitGraph.Node n : g.nodes()) drawNode(gc, n, n.id() == vm.selectedProperty().get());
        gc.setFill(palette.subText());
        gc.setFont(Font.font("System", FontWeight.BOLD, 12));
        gc.setTextBaseline(VPos.TOP);
        String[] titles = {"Blocked threads", "wait on", "which still needs"};
        for (int c = 0; c < titles.length; c++) {
            gc.fillText(titles[c], WaitGraph.MARGIN + c * (WaitGraph.NODE_W + WaitGraph.COL_GAP), 6);
        }
    }

    private void drawEdge(GraphicsContext gc, WaitGraph g, WaitGraph.Edge e) {
        WaitGraph.Node a = g.node(e.from());
        WaitGraph.Node b = g.node(e.to());
        if (a == null || b == null) return;
        double x1 = a.x() + WaitGraph.NODE_W;
        double y1 = a.y() + WaitGraph.NODE_H / 2;
        double x2 = b.x();
        double y2 = b.y() + WaitGraph.NODE_H / 2;
        Color c = e.inCycle() ? palette.cycle() : palette.edge();
        gc.setStroke(c);
        gc.setLineWidth(e.inCycle() ? 2.5 : 1.2);
        double mid = (x1 + x2) / 2;
        gc.beginPath();
        gc.moveTo(x1, y1);
        gc.bezierCurveTo(mid, y1, mid, y2, x2 - 7, y2);
        gc.stroke();
        gc.setFill(c);
        gc.fillPolygon(new double[] {x2, x2 - 9, x2 - 9}, new double[] {y2, y2 - 5, y2 + 5}, 3);
    }

    private void drawNode(GraphicsContext gc, WaitGraph.Node n, boolean picked) {
        double w = WaitGraph.NODE_W;
        double h = WaitGraph.NODE_H;
        gc.setFill(n.exited() ? palette.exited() : palette.box());
        gc.fillRoundRect(n.x(), n.y(), w, h, 8, 8);
        gc.setStroke(picked ? palette.selected() : n.inCycle() ? palette.cycle() : palette.border());
        gc.setLineWidth(picked || n.inCycle() ? 2.5 : 1);
        gc.strokeRoundRect(n.x(), n.y(), w, h, 8, 8);
        gc.setTextAlign(TextAlignment.LEFT);
        gc.setTextBaseline(VPos.TOP);
        gc.setFill(n.inCycle() ? palette.cycle() : palette.boxText());
        gc.setFont(Font.font("System", FontWeight.BOLD, 12));
        gc.fillText(clip(n.title(), 36), n.x() + 8, n.y() + 6, w - 14);
        gc.setFill(palette.subText());
        gc.setFont(Font.font("System", 11));
        gc.fillText(clip(n.subtitle(), 42), n.x() + 8, n.y() + 25, w - 14);
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
