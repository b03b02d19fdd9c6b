package io.barrierscope.app.classroom;

import java.util.function.BooleanSupplier;
import javafx.beans.property.DoubleProperty;
import javafx.scene.Node;
import javafx.scene.control.Control;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableView;
import javafx.scene.control.skin.CellSkinBase;
import javafx.scene.control.skin.VirtualFlow;

/**
 * Tables whose rows are all one height: that height is fixed ({@code fixedCellSize}) once a
 * laid-out row shows it, and set again when it changes (presentation mode's font, the theme).
 * With rows of unknown height the table's virtual flow measures rows it does not show (each
 * measure gives a spare row an index, so CSS styles its cells and the flow lays it out) to
 * estimate its scroll range, at every stop that changes the rows; with the height fixed it places
 * and scrolls by arithmetic. The height is the one the flow would give the row itself: the
 * tallest of its cells' preferred heights and the row's {@code -fx-cell-size}
 * (docs/performance.md, "Window responsiveness").
 */
public final class FixedRows {
    private final Control table;
    private final DoubleProperty fixed;
    private final BooleanSupplier uniform;
    private VirtualFlow<?> flow;

    private FixedRows(Control table, DoubleProperty fixed, BooleanSupplier uniform) {
        this.table = table;
        this.fixed = fixed;
        this.uniform = uniform;
        // The rows' flow lays itself out without its table (a stop that changes only rows), so the
        // check runs after the layout of every pulse in which the table or its flow was laid out.
        Runnable check = this::afterLayout;
        table.sceneProperty().addListener((o, was, now) -> {
            if (was != null) was.removePostLayoutPulseListener(check);
            if (now != null) now.addPostLayoutPulseListener(check);
            pending = true;
        });
        table.needsLayoutProperty().addListener((o, was, now) -> pending |= now);
    }

    /** A layout of the table or of its flow happened since the last check (or the flow is not known yet). */
    private boolean pending = true;

    /** A table whose rows are all one height. */
    public static <T> TableView<T> table() { return table(() -> true); }

    /**
     * A table whose rows are one height while {@code uniform} says so (read at each layout and
     * when the items change); while it does not, the rows keep their own heights.
     */
    public static <T> TableView<T> table(BooleanSupplier uniform) {
        TableView<T> t = new TableView<>();
        FixedRows rows = new FixedRows(t, t.fixedCellSizeProperty(), uniform);
        // Rows of other heights arrive: free the height before the layout that shows them.
        javafx.collections.ListChangeListener<T> changed = c -> rows.recheck();
        t.getItems().addListener(changed);
        t.itemsProperty().addListener((o, was, now) -> {
            if (was != null) was.removeListener(changed);
            if (now != null) now.addListener(changed);
            rows.recheck();
        });
        return t;
    }

    /** A tree table whose rows are all one height. */
    public static <T> TreeTableView<T> tree() {
        TreeTableView<T> t = new TreeTableView<>();
        new FixedRows(t, t.fixedCellSizeProperty(), () -> true);
        return t;
    }

    private void recheck() {
        if (fixed.get() > 0 && !uniform.getAsBoolean()) fixed.set(-1);
    }

    private void afterLayout() {
        if (!pending) return;
        pending = flow == null;
        if (!uniform.getAsBoolean()) {
            if (fixed.get() > 0) fixed.set(-1);
        } else {
            double natural = naturalRowHeight();
            if (natural > 0 && natural != fixed.get()) fixed.set(natural);
        }
        settle();
    }

    /**
     * Lays the table out again at once if the pass that just ended left it asking for it (a new row
     * height; after a font change, its vertical scroll bar's new width, which the table reads only
     * in its next layout). That second layout restyles: the constrained resize policies set or
     * clear the table's {@code :constrained-resize} pseudo-class as the columns' snapped widths
     * overflow the content width by a pixel or not. Left to the next pulse, the restyle happens
     * after that pulse's CSS pass and leaves the branch above the table marked for CSS, so JavaFX
     * runs one more pulse that changes nothing and repaints the whole window (docs/performance.md,
     * "The presentation toggle's extra frames"); done here, the next pulse's CSS pass clears it.
     */
    private void settle() {
        for (int i = 0; i < 2; i++) table.layout(); // nothing to do when clean
    }

    /** The height the flow would give a row in view, the tallest of them; 0 when none shows an item. */
    private double naturalRowHeight() {
        if (flow == null && table.lookup(".virtual-flow") instanceof VirtualFlow<?> f) {
            flow = f;
            f.needsLayoutProperty().addListener((o, was, now) -> pending |= now);
        }
        if (flow == null) return 0;
        IndexedCell<?> first = flow.getFirstVisibleCell();
        IndexedCell<?> last = flow.getLastVisibleCell();
        if (first == null || last == null) return 0;
        double h = 0;
        for (int i = first.getIndex(); i <= last.getIndex(); i++) {
            IndexedCell<?> row = flow.getVisibleCell(i);
            if (row == null || row.isEmpty()) continue;
            double r = row.getSkin() instanceof CellSkinBase<?> s ? s.getCellSize() : 0;
            for (Node n : row.getChildrenUnmodifiable()) {
                if (n instanceof IndexedCell<?> cell && cell.isVisible()) r = Math.max(r, cell.prefHeight(-1));
            }
            h = Math.max(h, row.snapSizeY(r));
        }
        return h;
    }
}
