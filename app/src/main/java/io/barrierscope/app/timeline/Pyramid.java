package io.barrierscope.app.timeline;

import java.util.Arrays;

/**
 * An append-only list of ints that answers the OR, minimum or maximum of any index range in
 * O(log n): level k holds the combination of each aligned block of 2^k values, so a range is a
 * handful of blocks. It costs one extra int per value (n/2 + n/4 + ...), and appending updates
 * one block per level, so a live run extends it cheaply.
 */
final class Pyramid {
    static final int OR = 0;
    static final int MIN = 1;
    static final int MAX = 2;

    private final int op;
    /** levels[0] are the values; levels[k][i] combines values [i << k, (i + 1) << k) (fewer in the last block). */
    private int[][] levels = new int[1][16];
    private int n;

    Pyramid(int op) { this.op = op; }

    int size() { return n; }

    int get(int i) { return levels[0][i]; }

    private int combine(int a, int b) {
        return switch (op) {
            case OR -> a | b;
            case MIN -> Math.min(a, b);
            default -> Math.max(a, b);
        };
    }

    void add(int v) {
        int i = n++;
        for (int k = 0; k < levels.length; k++) {
            int b = i >>> k;
            int[] lv = levels[k];
            if (b >= lv.length) lv = levels[k] = Arrays.copyOf(lv, b * 2);
            lv[b] = (i & ((1 << k) - 1)) == 0 ? v : combine(lv[b], v);
        }
        if (n > 1 && (n & (n - 1)) == 0) {
            // n = 2^k: from now on a whole block of 2^k values can be asked for
            int k = Integer.numberOfTrailingZeros(n);
            levels = Arrays.copyOf(levels, k + 1);
            levels[k] = new int[16];
            levels[k][0] = combine(levels[k - 1][0], levels[k - 1][1]);
        }
    }

    /** Combines {@code v} into the last value (only moves it the combining way: OR-ing bits, lowering a MIN, raising a MAX). */
    void combineLast(int v) {
        int i = n - 1;
        for (int k = 0; k < levels.length; k++) levels[k][i >>> k] = combine(levels[k][i >>> k], v);
    }

    /** The combination of values [from, to); requires 0 <= from < to <= size(). */
    int query(int from, int to) {
        int[] l0 = levels[0];
        int acc = l0[from];
        int i = from + 1;
        while (i < to) {
            // the largest aligned block starting at i that fits before to
            int k = Math.min(Integer.numberOfTrailingZeros(i), 31 - Integer.numberOfLeadingZeros(to - i));
            if (k >= levels.length) k = levels.length - 1;
            acc = combine(acc, levels[k][i >>> k]);
            i += 1 << k;
        }
        return acc;
    }
}
