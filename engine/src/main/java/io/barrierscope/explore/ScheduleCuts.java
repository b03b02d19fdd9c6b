package io.barrierscope.explore;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The pieces of a schedule the minimiser tries: chunks, complements, a decision moved earlier. */
final class ScheduleCuts {
    private ScheduleCuts() {}

    /** {@code c} without entry {@code j - 1}, with entry {@code j} at decision {@code at}. */
    static Schedule moved(Schedule c, int j, long at) {
        long[] idx = new long[c.size() - 1];
        char[] k = new char[idx.length];
        long[] v = new long[idx.length];
        int n = 0;
        for (int i = 0; i < c.size(); i++) {
            if (i == j - 1) continue;
            idx[n] = i == j ? at : c.index(i);
            k[n] = c.kind(i);
            v[n] = c.value(i);
            n++;
        }
        return new Schedule(idx, k, v);
    }

    /** {@code s}'s entries in {@code n} contiguous chunks of near-equal size. */
    static List<Schedule> split(Schedule s, int n) {
        List<Schedule> out = new ArrayList<>();
        int size = s.size();
        int from = 0;
        for (int i = 0; i < n; i++) {
            int to = from + (size - from) / (n - i);
            out.add(slice(s, from, to));
            from = to;
        }
        return out;
    }

    static Schedule slice(Schedule s, int from, int to) {
        long[] idx = new long[to - from];
        char[] k = new char[to - from];
        long[] v = new long[to - from];
        for (int i = from; i < to; i++) {
            idx[i - from] = s.index(i);
            k[i - from] = s.kind(i);
            v[i - from] = s.value(i);
        }
        return new Schedule(idx, k, v);
    }

    /** {@code s} without the entries of {@code part} (same decision indices). */
    static Schedule without(Schedule s, Schedule part) {
        long[] drop = new long[part.size()];
        for (int i = 0; i < drop.length; i++) drop[i] = part.index(i);
        int n = 0;
        long[] idx = new long[s.size()];
        char[] k = new char[s.size()];
        long[] v = new long[s.size()];
        for (int i = 0; i < s.size(); i++) {
            if (Arrays.binarySearch(drop, s.index(i)) >= 0) continue;
            idx[n] = s.index(i);
            k[n] = s.kind(i);
            v[n] = s.value(i);
            n++;
        }
        return new Schedule(Arrays.copyOf(idx, n), Arrays.copyOf(k, n), Arrays.copyOf(v, n));
    }
}
