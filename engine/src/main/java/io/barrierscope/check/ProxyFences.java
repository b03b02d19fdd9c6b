package io.barrierscope.check;

import io.barrierscope.exec.MemoryModelHook;
import java.util.Arrays;

/**
 * The {@code fence.proxy.async} fences each thread executed (semantics.md section 13, PTX ISA
 * 9.7.13.4): per thread, the clock of every proxy fence and the state spaces it covers, in
 * program order. A generic-proxy write is safe to read or overwrite by an async-proxy operation
 * when its writer executed a covering proxy fence after the write, and that fence happens before
 * the operation's issue. Keeping every fence (not only the last) keeps the check exact when a
 * thread fences again after handing a tile over.
 */
final class ProxyFences {
    private int[][] clocks;
    private byte[][] spaces;
    private int[] count;

    ProxyFences(int slots) {
        clocks = new int[slots][];
        spaces = new byte[slots][];
        count = new int[slots];
    }

    /** Thread {@code t} executed a proxy fence at clock {@code c} covering {@code mask} (MemoryModelHook.PROXY_*). */
    void record(int t, int c, int mask) {
        int n = count[t];
        if (clocks[t] == null) {
            clocks[t] = new int[4];
            spaces[t] = new byte[4];
        } else if (n == clocks[t].length) {
            clocks[t] = Arrays.copyOf(clocks[t], n * 2);
            spaces[t] = Arrays.copyOf(spaces[t], n * 2);
        }
        clocks[t][n] = c;
        spaces[t][n] = (byte) mask;
        count[t] = n + 1;
    }

    /**
     * Whether thread {@code t} fenced, covering {@code need}, at a clock in
     * {@code [from, upTo]}: after its write at clock {@code from} and no later than what the
     * async operation's issuer has seen of {@code t} ({@code upTo}).
     */
    boolean fencedBetween(int t, int from, int upTo, int need) {
        int[] cs = clocks[t];
        if (cs == null) return false;
        // Clocks only grow: binary search for the first fence at or after the write.
        int lo = 0;
        int hi = count[t];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cs[mid] < from) lo = mid + 1;
            else hi = mid;
        }
        for (int i = lo; i < count[t] && cs[i] <= upTo; i++) if ((spaces[t][i] & need) != 0) return true;
        return false;
    }

    /** The state spaces a fence must cover to order a write by a thread of {@code writerCta} to {@code region}. */
    static int spacesFor(int region, int ctas, int writerCta) {
        if (region >= ctas) return MemoryModelHook.PROXY_GLOBAL;
        return region == writerCta ? MemoryModelHook.PROXY_SHARED_CTA | MemoryModelHook.PROXY_SHARED_CLUSTER
                : MemoryModelHook.PROXY_SHARED_CLUSTER;
    }

    ProxyFences copy() {
        ProxyFences p = new ProxyFences(count.length);
        for (int t = 0; t < count.length; t++) {
            if (clocks[t] == null) continue;
            p.clocks[t] = Arrays.copyOf(clocks[t], count[t]);
            p.spaces[t] = Arrays.copyOf(spaces[t], count[t]);
        }
        p.count = count.clone();
        return p;
    }

    void hashInto(java.util.function.LongConsumer h) {
        for (int t = 0; t < count.length; t++) {
            if (count[t] == 0) continue;
            h.accept(t);
            for (int i = 0; i < count[t]; i++) h.accept(((long) clocks[t][i] << 8) | spaces[t][i]);
        }
    }

    long bytes() {
        long b = 16L * count.length;
        for (int n : count) b += 5L * n;
        return b;
    }
}
