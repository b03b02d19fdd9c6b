package io.barrierscope.explore;

import io.barrierscope.exec.Machine;
import io.barrierscope.trace.StateHash;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * Explore's state hash of one machine, made incremental: the per-thread arrays (pc, status,
 * registers, wait fields, carry, call stacks, cluster-barrier phase, last mbarrier polls) enter the hash as one digest per warp, recomputed
 * only for the warps whose part changed since this machine's last hash. A change is found by
 * comparing the warp's part with a copy kept from that hash, not by tracking writes: barrier
 * releases, wakes and checkpoint restores change other warps than the one that stepped, and a
 * comparison cannot miss any of them. Comparing is a vectorized memory compare, several times
 * cheaper than feeding every word through the hash's multiply chain.
 *
 * <p>A digest is a function of the warp's values alone (never of what was cached before), so the
 * hash is the same on every runner and with any history: deterministic, and the same states told
 * apart as by the word-by-word {@link StateHash#of(io.barrierscope.exec.Interpreter)} (docs/explore.md,
 * "State hashes").
 */
final class WarpDigests implements StateHash.Digests {

    private final Machine m;
    private final int regsPerWarp;
    private final long[] digest;
    private final boolean[] valid;
    // The per-thread arrays as of each warp's digest.
    private final int[] pc;
    private final byte[] status;
    private final long[] regs;
    private final int[] waitArg;
    private final int[] waitArg2;
    private final long[] wakeTime;
    private final long[] waitValue;
    private final byte[] carry;
    private final int[] callDepth;
    private final int[][] callStack;
    private final long[] clusterPhase;
    private final long[] pollKey;
    private final long[] pollVersion;
    private final long[] pollEffects;
    /** Tests: warp digests computed (a warp found unchanged costs none). */
    long digests;

    WarpDigests(Machine m) {
        this.m = m;
        this.regsPerWarp = 32 * m.regsPerThread;
        this.digest = new long[m.warps];
        this.valid = new boolean[m.warps];
        this.pc = new int[m.slots];
        this.status = new byte[m.slots];
        this.regs = new long[m.regs.length];
        this.waitArg = new int[m.slots];
        this.waitArg2 = new int[m.slots];
        this.wakeTime = new long[m.slots];
        this.waitValue = new long[m.slots];
        this.carry = new byte[m.slots];
        this.callDepth = new int[m.slots];
        this.callStack = new int[m.slots][];
        this.clusterPhase = new long[m.slots];
        this.pollKey = new long[m.slots];
        this.pollVersion = new long[m.slots];
        this.pollEffects = new long[m.slots];
    }

    @Override
    public void threads(Machine machine, LongConsumer h) {
        if (machine != m) throw new IllegalArgumentException("digests of another machine");
        for (int w = 0; w < m.warps; w++) {
            if (!valid[w] || changed(w)) {
                digest[w] = digest(w);
                keep(w);
                valid[w] = true;
                digests++;
            }
            h.accept(digest[w]);
        }
    }

    private boolean changed(int w) {
        int a = w << 5;
        int b = a + 32;
        int r = w * regsPerWarp;
        if (!Arrays.equals(m.regs, r, r + regsPerWarp, regs, r, r + regsPerWarp)
                || !Arrays.equals(m.pc, a, b, pc, a, b)
                || !Arrays.equals(m.status, a, b, status, a, b)
                || !Arrays.equals(m.waitArg, a, b, waitArg, a, b)
                || !Arrays.equals(m.waitArg2, a, b, waitArg2, a, b)
                || !Arrays.equals(m.wakeTime, a, b, wakeTime, a, b)
                || !Arrays.equals(m.waitValue, a, b, waitValue, a, b)
                || !Arrays.equals(m.carry, a, b, carry, a, b)
                || !Arrays.equals(m.callDepth, a, b, callDepth, a, b)
                || !Arrays.equals(m.clusterArrivedPhase, a, b, clusterPhase, a, b)
                || !Arrays.equals(m.lastPollKey, a, b, pollKey, a, b)
                || !Arrays.equals(m.lastPollVersion, a, b, pollVersion, a, b)
                || !Arrays.equals(m.lastPollEffects, a, b, pollEffects, a, b)) {
            return true;
        }
        for (int s = a; s < b; s++) {
            int n = m.callDepth[s];
            if (n > 0 && !Arrays.equals(m.callStack[s], 0, n, callStack[s], 0, n)) return true;
        }
        return false;
    }

    private void keep(int w) {
        int a = w << 5;
        int r = w * regsPerWarp;
        System.arraycopy(m.regs, r, regs, r, regsPerWarp);
        System.arraycopy(m.pc, a, pc, a, 32);
        System.arraycopy(m.status, a, status, a, 32);
        System.arraycopy(m.waitArg, a, waitArg, a, 32);
        System.arraycopy(m.waitArg2, a, waitArg2, a, 32);
        System.arraycopy(m.wakeTime, a, wakeTime, a, 32);
        System.arraycopy(m.waitValue, a, waitValue, a, 32);
        System.arraycopy(m.carry, a, carry, a, 32);
        System.arraycopy(m.callDepth, a, callDepth, a, 32);
        System.arraycopy(m.clusterArrivedPhase, a, clusterPhase, a, 32);
        System.arraycopy(m.lastPollKey, a, pollKey, a, 32);
        System.arraycopy(m.lastPollVersion, a, pollVersion, a, 32);
        System.arraycopy(m.lastPollEffects, a, pollEffects, a, 32);
        for (int s = a; s < a + 32; s++) {
            int n = m.callDepth[s];
            if (n > 0) callStack[s] = Arrays.copyOf(m.callStack[s], n);
        }
    }

    /**
     * Warp {@code w}'s part, word by word in the order of the word-by-word hash (each array's
     * 32 entries, then the live call stacks by slot), through the same multiply chain and final
     * avalanche. Every part is fixed-length but the call stacks, which carry their slot and depth.
     */
    private long digest(int w) {
        int a = w << 5;
        long h = 0x6A09E667F3BCC909L ^ w;
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.pc[s]);
        for (int s = a; s < a + 32; s += 8) h = StateHash.mix(h, (long) I64.get(m.status, s));
        int r = w * regsPerWarp;
        for (int i = r; i < r + regsPerWarp; i++) h = StateHash.mix(h, m.regs[i]);
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.waitArg[s]);
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.waitArg2[s]);
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.wakeTime[s]);
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.waitValue[s]);
        for (int s = a; s < a + 32; s += 8) h = StateHash.mix(h, (long) I64.get(m.carry, s));
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.clusterArrivedPhase[s]);
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.lastPollKey[s]);
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.lastPollVersion[s]);
        for (int s = a; s < a + 32; s++) h = StateHash.mix(h, m.lastPollEffects[s]);
        for (int s = a; s < a + 32; s++) {
            int n = m.callDepth[s];
            if (n <= 0) continue;
            h = StateHash.mix(h, s);
            h = StateHash.mix(h, n);
            for (int i = 0; i < n; i++) h = StateHash.mix(h, m.callStack[s][i]);
        }
        return StateHash.fmix(h);
    }

    /** Longs per block of {@link #longs}, bytes per block of {@link #bytes}. */
    private static final int LONG_BLOCK = 64;
    private static final int BYTE_BLOCK = 512;

    /** An array's block digests and the copy they were taken of (looked up by key, never iterated). */
    private static final class Blocks {
        final long[] digest;
        final boolean[] valid;
        final Object copy;

        Blocks(int blocks, Object copy) {
            this.digest = new long[blocks];
            this.valid = new boolean[blocks];
            this.copy = copy;
        }
    }

    private final java.util.Map<Integer, Blocks> blocks = new java.util.HashMap<>();

    @Override
    public void longs(int key, long[] a, LongConsumer h) {
        if (a == null) {
            h.accept(-1);
            return;
        }
        h.accept(a.length);
        Blocks c = blocks.get(key);
        if (c == null || ((long[]) c.copy).length != a.length) {
            c = new Blocks((a.length + LONG_BLOCK - 1) / LONG_BLOCK, new long[a.length]);
            blocks.put(key, c);
        }
        long[] kept = (long[]) c.copy;
        for (int b = 0; b < c.digest.length; b++) {
            int from = b * LONG_BLOCK;
            int to = Math.min(from + LONG_BLOCK, a.length);
            if (!c.valid[b] || !Arrays.equals(a, from, to, kept, from, to)) {
                long x = 0x452821E638D01377L ^ b;
                for (int i = from; i < to; i++) x = StateHash.mix(x, a[i]);
                c.digest[b] = StateHash.fmix(x);
                System.arraycopy(a, from, kept, from, to - from);
                c.valid[b] = true;
                digests++;
            }
            h.accept(c.digest[b]);
        }
    }

    @Override
    public void bytes(int key, byte[] a, LongConsumer h) {
        if (a == null) {
            h.accept(-1);
            return;
        }
        h.accept(a.length);
        Blocks c = blocks.get(key);
        if (c == null || ((byte[]) c.copy).length != a.length) {
            c = new Blocks((a.length + BYTE_BLOCK - 1) / BYTE_BLOCK, new byte[a.length]);
            blocks.put(key, c);
        }
        byte[] kept = (byte[]) c.copy;
        for (int b = 0; b < c.digest.length; b++) {
            int from = b * BYTE_BLOCK;
            int to = Math.min(from + BYTE_BLOCK, a.length);
            if (!c.valid[b] || !Arrays.equals(a, from, to, kept, from, to)) {
                long x = 0xBE5466CF34E90C6CL ^ b;
                int i = from;
                for (; i + 8 <= to; i += 8) x = StateHash.mix(x, (long) I64.get(a, i));
                long tail = 0;
                for (int k = 0; i < to; i++, k += 8) tail |= (a[i] & 0xFFL) << k;
                x = StateHash.mix(x, tail);
                c.digest[b] = StateHash.fmix(x);
                System.arraycopy(a, from, kept, from, to - from);
                c.valid[b] = true;
                digests++;
            }
            h.accept(c.digest[b]);
        }
    }

    private static final java.lang.invoke.VarHandle I64 =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
}
