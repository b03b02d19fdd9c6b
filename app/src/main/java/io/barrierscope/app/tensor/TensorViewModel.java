package io.barrierscope.app.tensor;

import io.barrierscope.app.session.TensorTile;
import io.barrierscope.exec.TensorFragments;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Tensor tab: one operand of a tensor-core instruction (mma.sync or wgmma.mma_async) shown as
 * its matrix. For a register operand each cell says which lane (of which warp of the warpgroup)
 * holds the element in which register, and its value; for a wgmma operand read through a matrix
 * descriptor, the shared-memory address the descriptor and its swizzle give the element, and the
 * value there. The tile comes from the session ({@link Source}); the inspected thread chooses the
 * warp or warpgroup. No JavaFX scene.
 */
public final class TensorViewModel {
    /** Fetches a tile from the run (the session's worker) and tells it back on the FX thread. */
    @FunctionalInterface
    public interface Source {
        void tile(int pc, String operand, Consumer<TensorTile> told);
    }

    private Source source;
    private final ReadOnlyObjectWrapper<TensorTile> tile = new ReadOnlyObjectWrapper<>(TensorTile.none());
    private final ObservableList<String> instructions = FXCollections.observableArrayList();
    private final ObservableList<String> operands = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper header = new ReadOnlyStringWrapper("");
    /** Whether the tab is showing: only then does a move fetch the tile again. */
    private final BooleanProperty active = new SimpleBooleanProperty(false);
    private List<TensorFragments.Instruction> known = List.of();
    private int pc = -1;
    private String operand = "D";

    public TensorViewModel() {
        active.addListener((o, was, on) -> {
            if (on) refresh();
        });
    }

    public void setSource(Source s) { this.source = s; }

    public ReadOnlyObjectProperty<TensorTile> tileProperty() { return tile.getReadOnlyProperty(); }

    /** "line 198: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", per instruction. */
    public ObservableList<String> instructions() { return instructions; }

    /** The operands of the chosen instruction: A, B, (C,) D. */
    public ObservableList<String> operands() { return operands; }

    public ReadOnlyStringProperty headerProperty() { return header.getReadOnlyProperty(); }

    public BooleanProperty activeProperty() { return active; }

    /** The index of the instruction shown in {@link #instructions()}, or -1. */
    public int instructionIndex() {
        for (int i = 0; i < known.size(); i++) if (known.get(i).pc() == tile.get().pc()) return i;
        return -1;
    }

    public String operand() { return tile.get().operand(); }

    /** Fetches the tile again (after a move, or another thread inspected) when the tab shows. */
    public void refresh() {
        if (source != null && active.get()) source.tile(pc, operand, this::show);
    }

    /** Shows instruction {@code index} of {@link #instructions()} and its operand {@code name}. */
    public void choose(int index, String name) {
        if (index >= 0 && index < known.size()) pc = known.get(index).pc();
        if (name != null) operand = name;
        if (source != null) source.tile(pc, operand, this::show);
    }

    /** Takes a tile from the session. */
    public void show(TensorTile t) {
        if (!t.instructions().equals(known)) {
            known = t.instructions();
            List<String> names = new ArrayList<>();
            for (TensorFragments.Instruction i : known) names.add("line " + i.line() + ": " + i.mnemonic());
            instructions.setAll(names);
        }
        List<String> ops = new ArrayList<>();
        TensorFragments.Instruction shown = known.stream().filter(i -> i.pc() == t.pc()).findFirst().orElse(null);
        if (shown != null) for (TensorFragments.Tile o : shown.operands()) ops.add(o.name());
        if (!ops.equals(operands)) operands.setAll(ops);
        pc = t.pc();
        if (!t.operand().isEmpty()) operand = t.operand();
        tile.set(t);
        header.set(t.pc() < 0 ? "No mma.sync or wgmma.mma_async in this kernel."
                : t.operand() + " (" + t.rows() + " x " + t.cols() + " " + t.type() + ") of " + t.subject()
                + (t.note().isEmpty() ? "" : "; " + t.note()));
    }

    /** The cell at (row, col) of the tile shown, or null. */
    public TensorTile.Cell cell(int row, int col) {
        TensorTile t = tile.get();
        return row < 0 || col < 0 || row >= t.rows() || col >= t.cols() ? null : t.cell(row, col);
    }

    /** Who holds a cell, short: "L5 %f3" (with "w1 " in a warpgroup), or the shared address "0x1a40". */
    public String holder(TensorTile.Cell c) {
        if (c == null) return "";
        if (c.lane() < 0) return "0x" + Long.toHexString(c.address());
        boolean group = tile.get().subject().startsWith("warpgroup");
        return (group ? "w" + c.warp() + " " : "") + "L" + c.lane() + " " + c.register();
    }

    /** The tooltip of a cell: element, holder, bits and value in full. */
    public String describe(TensorTile.Cell c) {
        if (c == null) return "";
        String where = c.lane() < 0 ? "shared memory at 0x" + Long.toHexString(c.address())
                : "lane " + c.lane() + (tile.get().subject().startsWith("warpgroup") ? " of warp " + c.warp() + " of the warpgroup" : "")
                + ", register " + c.register();
        return operand() + "[" + c.row() + "][" + c.col() + "] = " + c.value() + " (bits 0x" + Long.toHexString(c.bits()) + ")\nheld in " + where;
    }

    /**
     * What a cell's colour says: for a register operand its lane (0..31; the same colour is the same
     * thread's fragment), for a descriptor operand the 16-byte chunk of its 128-byte line (0..7), which
     * shows the swizzle.
     */
    public int colourKey(TensorTile.Cell c) {
        if (c == null) return -1;
        return c.lane() >= 0 ? c.lane() : (int) ((c.address() >> 4) & 7);
    }
}
