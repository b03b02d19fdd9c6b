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
    final Ints words = new Ints();
    private final Ints warps;
    /**
     * The interpreter's fast path appends a whole-warp step itself (a call per step costs more
     * than the store): when the step is the next one to log ({@code size}) and {@code free > 0},
     * it stores the word at {@code words.cur[words.pos++]}, decrements {@code free} and sets
     * {@code size}; anything else goes through {@link #add}. {@code free} stays 0 for wide words,
     * so that every step takes the slow path.
     */
    int free;
    private final Ints masks = new Ints();
    /** Per block of {@link #BLOCK} steps up to {@link #maskFilled}: the masks logged before the block. */
    private long[] maskStart = new long[16];
    private int maskFilled = -1;
    long size;

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
        if (step != size) {
            if (step < size) return; // a re-execution: logged when first taken
            throw new IllegalStateException("warp step " + step + " logged after step " + (size - 1));
        }
        if ((group & active) == -1) {
            words.add(wide ? pc : (warp << pcBits) | pc);
        } else {
            addMasks(step, group, active);
            words.add((group == active ? GROUP : GUARDED) << KIND_SHIFT | (wide ? pc : (warp << pcBits) | pc));
        }
        if (wide) warps.add(warp);
        size = step + 1;
        free = wide ? 0 : words.cur.length - words.pos;
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
    public long size() { return size; }

    public int warp(long step) { return wide ? warps.get(step) : (words.get(step) & VALUE_MASK) >>> pcBits; }

    public int pc(long step) { return words.get(step) & pcMask; }

    /** Whether the whole warp executed step {@code step} (group and active both all lanes). */
    public boolean full(long step) { return words.get(step) >>> KIND_SHIFT == FULL; }

    /** Mask words step {@code step} has in the side list: 0 for a whole warp, 1 (group = active) or 2. */
    public int maskWords(long step) { return words.get(step) >>> KIND_SHIFT; }

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
    public long bytes() { return 4 * (words.size() + masks.size() + (wide ? warps.size() : 0)); }

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
