package io.barrierscope.app.console;

import io.barrierscope.app.session.ConsoleLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Console tab: the kernel's device printf output up to the current position of time travel
 * (going back hides what was printed later; the recording keeps it), each line with its thread
 * and step, filtered by words. Every line is kept and none is dropped: the rows are a prefix of
 * the recorded lines (see {@link ShownLines}), so a long output scrolls like a short one.
 * Activating a line goes to the step that printed it and selects its thread.
 */
public final class ConsoleViewModel {
    private final List<ConsoleLine> all = new ArrayList<>();
    private final ShownLines shown = new ShownLines(all);
    private final ObservableList<ConsoleLine> rows = FXCollections.unmodifiableObservableList(shown);
    private final StringProperty filter = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Console");
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(EMPTY);
    private long now;
    /** The filter's words, lower case; empty: every line matches. */
    private String[] words = new String[0];
    private Consumer<ConsoleLine> onActivate = l -> {};

    static final String EMPTY = "No output yet: the kernel's printf lines appear here as they are printed.";

    public ConsoleViewModel() {
        filter.addListener((o, a, b) -> refilter());
    }

    /** Lines the recording gained (in step order); those before the position show at once. */
    public void append(List<ConsoleLine> lines) {
        for (ConsoleLine l : lines) {
            all.add(l);
            if (words.length > 0 && matches(l)) shown.matched(all.size() - 1);
        }
        show();
    }

    /** The position moved: the lines printed before {@code step} show. */
    public void update(long step) {
        now = step;
        show();
    }

    /** A new run: no lines yet. */
    public void clear() {
        shown.reset(null, 0); // before the lines go: the rows it removes are read from them
        all.clear();
        now = 0;
        refilter();
    }

    /** The user picked a line: the run goes to the step that printed it and its thread is selected. */
    public void activate(ConsoleLine line) {
        if (line != null) onActivate.accept(line);
    }

    public void setOnActivate(Consumer<ConsoleLine> action) { onActivate = action == null ? l -> {} : action; }

    private void refilter() {
        String f = filter.get() == null ? "" : filter.get().toLowerCase(Locale.ROOT);
        words = java.util.Arrays.stream(f.split(",")).map(String::strip).filter(w -> !w.isEmpty()).toArray(String[]::new);
        if (words.length == 0) {
            shown.reset(null, 0);
        } else {
            int[] m = new int[16];
            int n = 0;
            for (int i = 0; i < all.size(); i++) {
                if (!matches(all.get(i))) continue;
                if (n == m.length) m = java.util.Arrays.copyOf(m, n * 2);
                m[n++] = i;
            }
            shown.reset(m, n);
        }
        show();
    }

    private void show() {
        shown.show(visible());
        int printed = visibleOf(all.size(), i -> all.get(i).step());
        int later = all.size() - printed;
        title.set(printed == 0 ? "Console" : "Console (" + printed + ")");
        String afterNow = later == 0 ? "" : " · " + (printed == 0 ? lines(later) : later + " more") + " later in the recording";
        if (all.isEmpty()) summary.set(EMPTY);
        else if (printed == 0) summary.set("Nothing printed up to step " + now + afterNow);
        else if (words.length == 0) summary.set(lines(printed) + " printed up to step " + now + afterNow);
        else summary.set(shown.size() + " of " + lines(printed) + " match" + afterNow);
    }

    private static String lines(int n) { return n == 1 ? "1 line" : n + " lines"; }

    /** How many matching lines were printed before the position. */
    private int visible() { return visibleOf(shown.matching(), i -> shown.match(i).step()); }

    /** The first index in [0, n) whose step is at or after the position (steps ascend). */
    private int visibleOf(int n, java.util.function.IntToLongFunction stepOf) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (stepOf.applyAsLong(mid) < now) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Phrases (comma-separated) that all occur in the line's thread, step or text. */
    private boolean matches(ConsoleLine l) {
        for (String w : words) {
            if (!contains(l.text(), w) && !contains(l.thread(), w) && !("step " + l.step()).contains(w)) return false;
        }
        return true;
    }

    private static boolean contains(String s, String lowerWord) {
        int n = lowerWord.length();
        for (int i = 0; i + n <= s.length(); i++) if (s.regionMatches(true, i, lowerWord, 0, n)) return true;
        return false;
    }

    /** The lines printed before the position that match the filter, oldest first. */
    public ObservableList<ConsoleLine> rows() { return rows; }
    /** Words every shown line contains (its text, thread or "step N"); commas separate phrases. */
    public StringProperty filterProperty() { return filter; }
    /** "Console" or "Console (12)": the lines printed so far, for the tab. */
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    /** E.g. "12 lines printed up to step 345 · 28 more later in the recording". */
    public ReadOnlyStringProperty summaryProperty() { return summary.getReadOnlyProperty(); }
}
