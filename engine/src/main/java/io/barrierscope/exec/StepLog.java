package io.barrierscope.exec;

import java.util.Arrays;

/**
 * Every warp step of a run, in order, as the interpreter takes it: the recorder's store of steps.
 * A step of a whole warp is one int (its warp and PC packed), so logging it costs the interpreter
 * one array store and no call into the recorder; the rarer steps of part of a warp keep their
 * lane masks in a side list. Steps below the log's size are re-executions (a seek) and are not
 * logged again. Read by step index: {@link #warp}, {@link #pc}, {@link #group}, {@link #active}.
 */
public final class StepLog {
    /** Steps per entry of the mask index (the masks of a step are found by scanning at most this many words). */
    public static final int BLOCK = 1024;
    private static final int KIND_SHIFT = 30;
    private static final int VALUE_MASK = (1 << KIND_SHIFT) - 1;
    /** Kinds: the whole warp executed; part of it, all passing the guard (one mask); part passing (two masks). */
    private static final int FULL = 0;
    private static final int GROUP = 1;
    private static final int GUARDED = 2;

    /** Bits of the PC in a step's word (the warp is above them). */
    final int pcBits;
    private final int pcMask;
    /** Warp and PC do not fit one word (a huge program or grid): the warps go to a second list. */
    private final boolean wide;
    private final Ints warps;
    /**
     * The steps' words, in chunks of {@link #CHUNK} (the current one is {@code cur}, step
     * {@code base + i} at {@code cur[i]}). The interpreter's fast path appends a whole-warp step
     * itself, a call per step costing more than the store: when the step is {@code base + pos}
     * and {@code pos < end}, it stores the word at {@code cur[pos++]}; anything else goes through
     * {@link #add}. {@code end} stays 0 for wide words, so that every step takes the slow path.
     */
    int[] cur = new int[0];
    int pos;
    int end;
    long base;
    private static final int CHUNK_BITS = 14;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private int[][] chunks = new int[8][];
    private final Ints masks = new Ints();
    /** Per block of {@link #BLOCK} steps up to {@link #maskFilled}: the masks logged before the block. */
    private long[] maskStart = new long[16];
    private int maskFilled = -1;

    /** A log for a launch of {@code warpCount} warps running a program of {@code codeLength} ops. */
    public StepLog(int warpCount, int codeLength) {
        int pb = bitsFor(codeLength);
        int wb = bitsFor(warpCount);
        wide = pb + wb > KIND_SHIFT;
        if (pb > KIND_SHIFT) throw new IllegalArgumentException("program too large to log: " + codeLength + " ops");
        pcBits = wide ? KIND_SHIFT : pb;
        pcMask = (1 << pcBits) - 1;
        warps = wide ? new Ints() : null;
    }

    private static int bitsFor(int n) { return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1))); }

    /** Logs step {@code step}: {@code group} lanes of {@code warp} executed the op at {@code pc}, {@code active} passed the guard. */
    public void add(long step, int warp, int pc, int group, int active) {
        long size = base + pos;
        if (step != size) {
            if (step < size) return; // a re-execution: logged when first taken
            throw new IllegalStateException("warp step " + step + " logged after step " + (size - 1));
        }
        int word = wide ? pc : (warp << pcBits) | pc;
        if ((group & active) != -1) {
            addMasks(step, group, active);
            word |= (group == active ? GROUP : GUARDED) << KIND_SHIFT;
        }
        if (pos == cur.length) nextChunk();
        cur[pos++] = word;
        if (wide) warps.add(warp);
    }

    /** The current chunk is full (or none yet): a new one, allocated as needed and never copied. */
    private void nextChunk() {
        if (cur.length > 0) {
            if ((int) (base >>> CHUNK_BITS) == chunks.length) chunks = Arrays.copyOf(chunks, chunks.length * 2);
            chunks[(int) (base >>> CHUNK_BITS)] = cur;
            base += CHUNK;
        }
        cur = new int[CHUNK];
        pos = 0;
        end = wide ? 0 : CHUNK;
    }

    private int word(long step) {
        long i = step - base;
        return i >= 0 ? cur[(int) i] : chunks[(int) (step >>> CHUNK_BITS)][(int) step & (CHUNK - 1)];
    }

    private void addMasks(long step, int group, int active) {
        int b = (int) (step / BLOCK);
        if (b >= maskStart.length) maskStart = Arrays.copyOf(maskStart, Math.max(b + 1, maskStart.length * 2));
        // No masks were logged in the blocks after maskFilled: they all start at the current count.
        while (maskFilled < b) maskStart[++maskFilled] = masks.size();
        masks.add(group);
        if (group != active) masks.add(active);
    }

    /** Steps logged: steps 0 .. size() - 1. */
    public long size() { return base + pos; }

    public int warp(long step) { return wide ? warps.get(step) : (word(step) & VALUE_MASK) >>> pcBits; }

    public int pc(long step) { return word(step) & pcMask; }

    /** Whether the whole warp executed step {@code step} (group and active both all lanes). */
    public boolean full(long step) { return word(step) >>> KIND_SHIFT == FULL; }

    /** Mask words step {@code step} has in the side list: 0 for a whole warp, 1 (group = active) or 2. */
    public int maskWords(long step) { return word(step) >>> KIND_SHIFT; }

    /** Index in the mask list of the masks of step {@code step} (or of the next step that has masks). */
    public long maskIndex(long step) {
        int b = (int) (step / BLOCK);
        long i = b <= maskFilled ? maskStart[b] : masks.size();
        for (long s = (long) b * BLOCK; s < step; s++) i += maskWords(s);
        return i;
    }

    /** The group mask of a step whose masks start at {@code maskIndex} (-1 for a whole-warp step). */
    public int group(long step, long maskIndex) { return maskWords(step) == FULL ? -1 : masks.get(maskIndex); }

    /** The active mask of a step whose masks start at {@code maskIndex}. */
    public int active(long step, long maskIndex) {
        int k = maskWords(step);
        return k == FULL ? -1 : masks.get(k == GUARDED ? maskIndex + 1 : maskIndex);
    }

    /** Bytes held (the ints logged). */
    public long bytes() { return 4 * (size() + masks.size() + (wide ? warps.size() : 0)); }

    /** An append-only list of ints in chunks of 64 KiB, allocated as needed and never copied, read by index. */
    static final class Ints {
        private static final int CHUNK_BITS = 14;
        private static final int CHUNK = 1 << CHUNK_BITS;
        private int[][] chunks = new int[8][];
        private int full;
        int[] cur = new int[0];
        int pos;

        void add(int v) {
            if (pos == cur.length) next();
            cur[pos++] = v;
        }

        private void next() {
            if (cur.length > 0) {
                if (full == chunks.length) chunks = Arrays.copyOf(chunks, full * 2);
                chunks[full++] = cur;
            }
            cur = new int[CHUNK];
            pos = 0;
        }

        long size() { return ((long) full << CHUNK_BITS) + pos; }

        int get(long i) {
            int c = (int) (i >>> CHUNK_BITS);
            return c == full ? cur[(int) i & (CHUNK - 1)] : chunks[c][(int) i & (CHUNK - 1)];
        }
    }
}
