package io.barrierscope.explore;

/**
 * Sets of warps as fixed-length bit arrays (warp w is bit w % 64 of word w / 64), for the
 * source-set reduction ({@link SourceSets}, {@link SourceSetSearch}, {@link TraceLog}) on launches
 * of any number of warps. An array of {@link #words} words holds a launch's warps; every method
 * walks the words in index order, so the results (the lowest warp, the iteration order) are a
 * function of the set alone.
 */
final class WarpBits {
    private WarpBits() {}

    /** Words for a launch of {@code warps} warps. */
    static int words(int warps) { return Math.max(1, (warps + 63) >>> 6); }

    static long[] empty(int warps) { return new long[words(warps)]; }

    /** The set of the given warps, in an array for {@code warps} warps. */
    static long[] of(int warps, int... ws) {
        long[] s = empty(warps);
        for (int w : ws) set(s, w);
        return s;
    }

    static void set(long[] s, int w) { s[w >>> 6] |= 1L << w; }

    static boolean get(long[] s, int w) { return s != null && (s[w >>> 6] & (1L << w)) != 0; }

    /** Whether {@code a} and {@code b} (null: empty) share a warp. */
    static boolean intersects(long[] a, long[] b) {
        if (a == null || b == null) return false;
        for (int i = 0; i < a.length; i++) if ((a[i] & b[i]) != 0) return true;
        return false;
    }

    /** Adds {@code b} (null: empty) to {@code into}. */
    static void or(long[] into, long[] b) {
        if (b == null) return;
        for (int i = 0; i < into.length; i++) into[i] |= b[i];
    }

    static boolean isEmpty(long[] s) {
        if (s == null) return true;
        for (long x : s) if (x != 0) return false;
        return true;
    }

    static int count(long[] s) {
        int c = 0;
        if (s != null) for (long x : s) c += Long.bitCount(x);
        return c;
    }

    /** The lowest warp of {@code s} at or above {@code from}, or -1. */
    static int next(long[] s, int from) {
        if (s == null) return -1;
        int i = from >>> 6;
        if (i >= s.length) return -1;
        long x = s[i] & (-1L << from);
        while (true) {
            if (x != 0) return (i << 6) + Long.numberOfTrailingZeros(x);
            if (++i == s.length) return -1;
            x = s[i];
        }
    }

    static void clear(long[] s) { java.util.Arrays.fill(s, 0); }
}
