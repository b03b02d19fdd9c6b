package io.barrierscope.app.threads;

import io.barrierscope.app.session.Inspection;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The shared memory of the inspected thread's CTA, eight bytes a row (the size of an mbarrier),
 * each row named by the variable it is in, with mbarrier objects decoded. Rows are offsets; their
 * text is made when a cell asks ({@link #row}), so a 227 KiB CTA costs no 29 000 strings a step.
 */
public final class SharedMemoryViewModel {
    public static final int ROW_BYTES = 8;

    /** One row's texts. {@code mbarrier} is empty for plain words. */
    public record Row(int offset, String offsetText, String variable, String hex, String words, String mbarrier,
                      boolean isMbarrier) {}

    private final ObservableList<Integer> offsets = FXCollections.observableArrayList();
    private final ObservableList<Integer> readOnlyOffsets = FXCollections.unmodifiableObservableList(offsets);
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Shared memory");
    private final ReadOnlyLongWrapper revision = new ReadOnlyLongWrapper();
    private final BooleanProperty onlyInUse = new SimpleBooleanProperty(false);
    private Inspection shown;

    public SharedMemoryViewModel() {
        onlyInUse.addListener((o, a, b) -> update(shown));
    }

    public void update(Inspection i) {
        shown = i;
        if (i == null) {
            offsets.clear();
            title.set("Shared memory");
            revision.set(revision.get() + 1);
            return;
        }
        List<Integer> next = new ArrayList<>();
        for (int off = 0; off < i.shared().length; off += ROW_BYTES) {
            if (!onlyInUse.get() || inUse(i, off)) next.add(off);
        }
        if (!offsets.equals(next)) offsets.setAll(next);
        long valid = i.mbarriers().stream().filter(Inspection.MbarrierWord::valid).count();
        title.set("Shared memory of " + i.ctaName() + ": " + i.shared().length + " bytes, "
                + (valid == 1 ? "1 mbarrier" : valid + " mbarriers"));
        revision.set(revision.get() + 1); // same offsets, new bytes: the view redraws its cells
    }

    public void clear() { update(null); }

    /** The texts of the row at a shared offset (as shown now). */
    public Row row(int offset) {
        Inspection i = shown;
        if (i == null || offset < 0 || offset >= i.shared().length) return new Row(offset, "", "", "", "", "", false);
        byte[] b = i.shared();
        int end = Math.min(b.length, offset + ROW_BYTES);
        StringBuilder hex = new StringBuilder();
        for (int k = offset; k < end; k++) {
            if (k > offset) hex.append(' ');
            hex.append(Character.forDigit((b[k] >> 4) & 0xF, 16)).append(Character.forDigit(b[k] & 0xF, 16));
        }
        StringBuilder words = new StringBuilder();
        for (int k = offset; k + 4 <= end; k += 4) {
            if (k > offset) words.append(", ");
            words.append(int32(b, k));
        }
        Inspection.MbarrierWord w = i.mbarrierAt(offset);
        return new Row(offset, String.format("0x%04x", offset), variable(i, offset), hex.toString(), words.toString(),
                w == null ? "" : decode(w), w != null && w.valid());
    }

    /** E.g. "phase 3 (parity 1) · pending 63 of 64 · tx +256", or "invalidated (phase 2)". */
    public static String decode(Inspection.MbarrierWord w) {
        if (!w.valid()) return "not a valid mbarrier (invalidated or never initialised)";
        StringBuilder sb = new StringBuilder("phase ").append(w.phase()).append(" (parity ").append(w.parity())
                .append(") · pending ").append(w.pending()).append(" of ").append(w.expected()).append(" · tx ");
        if (w.tx() > 0) sb.append('+').append(w.tx()).append(" (").append(w.tx()).append(" bytes to come)");
        else if (w.tx() < 0) sb.append(w.tx()).append(" (").append(-w.tx()).append(" bytes over-delivered)");
        else sb.append('0');
        if (w.txExpected() > 0 || w.txCompleted() > 0) {
            sb.append(" · this phase: ").append(w.txExpected()).append(" bytes expected, ").append(w.txCompleted())
                    .append(" arrived");
        }
        return sb.toString();
    }

    /** "full" at a variable's first row, "full+8" inside it, "" outside every variable. */
    private static String variable(Inspection i, int offset) {
        Inspection.Symbol s = i.symbolAt(offset);
        if (s == null) return "";
        long rel = offset - s.offset();
        return rel == 0 ? s.name() : s.name() + "+" + rel;
    }

    private static boolean inUse(Inspection i, int offset) {
        if (i.mbarrierAt(offset) != null) return true;
        Inspection.Symbol s = i.symbolAt(offset);
        if (s != null && s.offset() == offset) return true;
        byte[] b = i.shared();
        for (int k = offset; k < Math.min(b.length, offset + ROW_BYTES); k++) if (b[k] != 0) return true;
        return false;
    }

    private static int int32(byte[] b, int k) {
        return (b[k] & 0xFF) | (b[k + 1] & 0xFF) << 8 | (b[k + 2] & 0xFF) << 16 | (b[k + 3] & 0xFF) << 24;
    }

    /** The shared offsets of the rows shown (every row, or only those in use). */
    public ObservableList<Integer> offsets() { return readOnlyOffsets; }
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    /** Changes with every update: cells re-read their row. */
    public ReadOnlyLongProperty revisionProperty() { return revision.getReadOnlyProperty(); }
    /** Show only rows with a variable's start, a non-zero byte or an mbarrier. */
    public BooleanProperty onlyInUseProperty() { return onlyInUse; }
}
