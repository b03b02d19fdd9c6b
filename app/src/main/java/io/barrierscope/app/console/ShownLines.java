package io.barrierscope.app.console;

import io.barrierscope.app.session.ConsoleLine;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.ObservableListBase;

/**
 * The console's rows without copying them: a prefix of the matching lines of an append-only
 * list. Moving the position changes only how long the prefix is, and that is one range change,
 * so a step costs the same with a million lines as with ten.
 */
final class ShownLines extends ObservableListBase<ConsoleLine> {
    private final List<ConsoleLine> all;
    /** Indices into {@code all} of the lines that match the filter, ascending; null: every line. */
    private int[] matches;
    private int matchCount;
    private int size;

    ShownLines(List<ConsoleLine> all) { this.all = all; }

    @Override
    public ConsoleLine get(int i) {
        if (i < 0 || i >= size) throw new IndexOutOfBoundsException(i + " of " + size);
        return all.get(matches == null ? i : matches[i]);
    }

    @Override
    public int size() { return size; }

    /** How many lines match (shown or not). */
    int matching() { return matches == null ? all.size() : matchCount; }

    /** The line of the i-th match. */
    ConsoleLine match(int i) { return all.get(matches == null ? i : matches[i]); }

    /** Replaces which lines match (null: all), showing none of them until {@link #show}. */
    void reset(int[] matching, int count) {
        show(0);
        matches = matching;
        matchCount = count;
    }

    /** Lines appended to {@code all} that match: their indices join the matches (nothing shown changes). */
    void matched(int index) {
        if (matches == null) return;
        if (matchCount == matches.length) matches = java.util.Arrays.copyOf(matches, Math.max(16, matchCount * 2));
        matches[matchCount++] = index;
    }

    /** Shows the first {@code n} matching lines. */
    void show(int n) {
        if (n == size) return;
        int old = size;
        beginChange();
        if (n > old) {
            size = n;
            nextAdd(old, n);
        } else {
            List<ConsoleLine> removed = new ArrayList<>(old - n);
            for (int i = n; i < old; i++) removed.add(get(i));
            size = n;
            nextRemove(n, removed);
        }
        endChange();
    }
}
