package io.barrierscope.app.tensor;

import io.barrierscope.app.session.TensorTile;
import javafx.geometry.Insets;
import javafx.geometry.VPos;
import javafx.scene.Node;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * The Tensor tab ({@link TensorViewModel}): the instruction and operand to show, and the tile as
 * a grid drawn on a canvas (a 64 x 256 accumulator is 16,384 cells: no node per cell). Each cell
 * names its holder above its value; its colour is the lane holding it (or, for shared memory, the
 * 16-byte chunk of the swizzle pattern). Hovering a cell tells it in full.
 */
public final class TensorView {
    private static final double HEAD = 34;
    private static final double MAX_CANVAS = 8000;

    private final TensorViewModel vm;
    private final VBox root = new VBox(4);
    private final ComboBox<String> instruction = new ComboBox<>();
    private final ComboBox<String> operand = new ComboBox<>();
    private final Label header = new Label();
    private final Canvas canvas = new Canvas(10, 10);
    private final Tooltip tip = new Tooltip();
    private double cw = 78;
    private double ch = 32;
    private boolean updating;

    public TensorView(TensorViewModel vm) {
        this.vm = vm;
        root.setId("tensorView");
        root.setPadding(new Insets(4));
        instruction.setId("tensorInstruction");
        instruction.setItems(vm.instructions());
        instruction.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(instruction, Priority.ALWAYS);
        operand.setId("tensorOperand");
        operand.setItems(vm.operands());
        operand.setMinWidth(64);
        header.setId("tensorHeader");
        header.setWrapText(true);
        header.textProperty().bind(vm.headerProperty());
        canvas.setId("tensorGrid");
        instruction.valueProperty().addListener((o, a, b) -> {
            if (!updating && b != null) vm.choose(instruction.getSelectionModel().getSelectedIndex(), null);
        });
        operand.valueProperty().addListener((o, a, b) -> {
            if (!updating && b != null) vm.choose(-1, b);
        });
        vm.tileProperty().addListener((o, a, t) -> shown(t));
        Tooltip.install(canvas, tip);
        canvas.setOnMouseMoved(e -> {
            TensorTile.Cell c = vm.cell((int) ((e.getY() - HEAD) / ch), (int) ((e.getX() - HEAD) / cw));
            tip.setText(c == null ? "" : vm.describe(c));
        });
        ScrollPane scroll = new ScrollPane(canvas);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        root.getChildren().addAll(new HBox(4, instruction, operand), header, scroll);
        shown(vm.tileProperty().get());
    }

    public Node root() { return root; }

    /** The grid canvas (tests). */
    Canvas canvas() { return canvas; }

    private void shown(TensorTile t) {
        updating = true;
        try {
            int i = vm.instructionIndex();
            if (i >= 0) instruction.getSelectionModel().select(i);
            operand.setValue(t.operand().isEmpty() ? null : t.operand());
        } finally {
            updating = false;
        }
        draw(t);
    }

    private void draw(TensorTile t) {
        cw = Math.max(12, Math.min(78, (MAX_CANVAS - HEAD) / Math.max(1, t.cols())));
        ch = cw >= 40 ? 32 : Math.max(12, cw);
        canvas.setWidth(HEAD + t.cols() * cw + 1);
        canvas.setHeight(HEAD + t.rows() * ch + 1);
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.CENTER);
        g.setFont(Font.font(10));
        g.setFill(Color.DIMGRAY);
        for (int c = 0; c < t.cols(); c++) g.fillText(Integer.toString(c), HEAD + c * cw + cw / 2, HEAD / 2);
        for (int r = 0; r < t.rows(); r++) g.fillText(Integer.toString(r), HEAD / 2, HEAD + r * ch + ch / 2);
        boolean text = cw >= 40;
        for (int r = 0; r < t.rows(); r++) {
            for (int c = 0; c < t.cols(); c++) {
                TensorTile.Cell cell = t.cell(r, c);
                double x = HEAD + c * cw;
                double y = HEAD + r * ch;
                int key = vm.colourKey(cell);
                g.setFill(key < 0 ? Color.LIGHTGRAY : Color.hsb(key * (cell.lane() >= 0 ? 360.0 / 32 : 360.0 / 8), 0.28, 1.0));
                g.fillRect(x, y, cw, ch);
                g.setStroke(Color.gray(0.8));
                g.strokeRect(x + 0.5, y + 0.5, cw, ch);
                if (!text || cell == null) continue;
                g.setFill(Color.gray(0.35));
                g.fillText(vm.holder(cell), x + cw / 2, y + ch * 0.3, cw - 2);
                g.setFill(Color.BLACK);
                g.fillText(cell.value(), x + cw / 2, y + ch * 0.72, cw - 2);
            }
        }
    }
}
