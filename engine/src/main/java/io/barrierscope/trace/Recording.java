package io.barrierscope.trace;

import io.barrierscope.check.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The events of one run, compactly encoded in append-only byte chunks, with an index every
 * {@link #BLOCK} warp steps so any step is found without decoding from the start.
 *
 * <p>An event is a header byte (low nibble the type, high nibble the step delta from the
 * previous event, 15 meaning a varint follows) and its fields as varints. A warp step of a full
 * warp takes 3 to 5 bytes; a synchronization event about a dozen. Events are labelled with the
 * index of the warp step they belong to: those of step s happened after s-1 finished and up to
 * the end of s, so the state after s steps contains exactly the events labelled below s.
 */
public final class Recording {
    /** Warp steps per index entry. */
    public static final int BLOCK = 1024;
    static final int CHUNK = 1 << 20;
    private static final int MAX_EVENT = 64;

    static final int T_STEP_FULL = 0;
    static final int T_STEP = 1;
    static final int T_STEP_GUARD = 2;
    static final int T_SYNC = 3;
    static final int T_STATUS = 4;
    static final int T_JUMP = 5;
    static final int T_DIAG = 6;
    static final int T_PRINTF = 7;
    static final int T_END = 8;
    /** Status change of several lanes of one warp (a barrier releasing a warp is one event, not 32). */
    static final int T_STATUS_LANES = 9;

    final int warps;
    private final List<byte[]> chunks = new ArrayList<>();
    /** Bytes used in each full chunk (a chunk is closed when the next event might not fit). */
    private int[] chunkLen = new int[8];
    private byte[] cur;
    private int pos;
    private long lastStep;
    private long cycles;
    private long events;
    private long warpSteps;
    /** Per block: the encoded position (chunk << 20 | offset) of its first event, and the cycles before it. */
    private long[] blockPos = new long[64];
    private long[] blockCycles = new long[64];
    /** Per block: the step label of the event before its first (deltas are relative to it). */
    private long[] blockBase = new long[64];
    private int blocks;
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private final List<PrintfLine> printf = new ArrayList<>();
    private Outcome outcome;
    /** A status change being gathered: consecutive changes of one warp's lanes, same step and same from/to. */
    private boolean pendingStatus;
    private long psStep;
    private int psWarp;
    private int psLanes;
    private byte psFrom;
    private byte psTo;

    public Recording(int warps) {
        this.warps = warps;
        newChunk();
    }

    private void newChunk() {
        if (cur != null) {
            if (chunks.size() > chunkLen.length) chunkLen = Arrays.copyOf(chunkLen, chunkLen.length * 2);
            chunkLen[chunks.size() - 1] = pos;
        }
        cur = new byte[CHUNK];
        chunks.add(cur);
        pos = 0;
    }

    // ---- writing (the recorder) ----

    private void header(int type, long step) {
        if (pendingStatus) flushStatus();
        if (pos > CHUNK - MAX_EVENT) newChunk();
        while (step >= (long) blocks * BLOCK) {
            if (blocks == blockPos.length) {
                blockPos = Arrays.copyOf(blockPos, blocks * 2);
                blockCycles = Arrays.copyOf(blockCycles, blocks * 2);
                blockBase = Arrays.copyOf(blockBase, blocks * 2);
            }
            blockBase[blocks] = lastStep;
            blockPos[blocks] = ((long) (chunks.size() - 1) << 20) | pos;
            blockCycles[blocks] = cycles;
            blocks++;
        }
        long delta = step - lastStep;
        lastStep = step;
        events++;
        if (delta < 15) {
            cur[pos++] = (byte) (type | (delta << 4));
        } else {
            cur[pos++] = (byte) (type | 0xF0);
            uvarint(delta);
        }
    }

    private void uvarint(long v) {
        byte[] c = cur;
        int p = pos;
        while ((v & ~0x7FL) != 0) {
            c[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        c[p++] = (byte) v;
        pos = p;
    }

    private void svarint(long v) { uvarint((v << 1) ^ (v >> 63)); }

    private void int32(int v) {
        cur[pos++] = (byte) v;
        cur[pos++] = (byte) (v >>> 8);
        cur[pos++] = (byte) (v >>> 16);
        cur[pos++] = (byte) (v >>> 24);
    }

    void warpStep(long step, int warp, int pc, int group, int active) {
        if (group == -1 && active == -1) {
            header(T_STEP_FULL, step);
            uvarint(warp);
            uvarint(pc);
        } else if (group == active) {
            header(T_STEP, step);
            uvarint(warp);
            uvarint(pc);
            int32(group);
        } else {
            header(T_STEP_GUARD, step);
            uvarint(warp);
            uvarint(pc);
            int32(group);
            int32(active);
        }
        cycles++;
        warpSteps = step + 1;
    }

    /**
     * Steps {@code first .. first + n - 1} (entry i is step first + i, none recorded yet): the same
     * bytes as n calls of {@link #warpStep}, with stretches of full-warp steps (the common case: a small
     * step delta, warp < 128, pc < 16384, room in the chunk) encoded in one tight loop.
     */
    void warpSteps(long first, int n, int[] warp, int[] pc, int[] group, int[] active) {
        int i = 0;
        while (i < n) {
            long step = first + i;
            long delta = step - lastStep;
            if (pendingStatus || delta < 0 || delta >= 15 || step >= (long) blocks * BLOCK) {
                warpStep(step, warp[i], pc[i], group[i], active[i]);
                i++;
                continue;
            }
            // A stretch within this chunk (4 bytes at most per step) and this index block.
            int lim = (int) Math.min(n, Math.min(i + (long) (CHUNK - MAX_EVENT - pos) / 4, (long) blocks * BLOCK - first));
            byte[] c = cur;
            int p = pos;
            int start = i;
            for (; i < lim; i++) {
                int w = warp[i];
                int q = pc[i];
                if ((group[i] & active[i]) != -1 || (w & ~0x7F) != 0 || (q & ~0x3FFF) != 0) break;
                c[p++] = (byte) (T_STEP_FULL | (delta << 4));
                delta = 1;
                c[p++] = (byte) w;
                if (q < 0x80) {
                    c[p++] = (byte) q;
                } else {
                    c[p++] = (byte) ((q & 0x7F) | 0x80);
                    c[p++] = (byte) (q >>> 7);
                }
            }
            int done = i - start;
            if (done > 0) {
                pos = p;
                lastStep = first + i - 1;
                events += done;
                cycles += done;
                warpSteps = first + i;
            }
            if (i < n && done == 0) {
                warpStep(step, warp[i], pc[i], group[i], active[i]);
                i++;
            }
        }
    }

    void sync(long step, int kind, int slot, long object, long a, long b) {
        header(T_SYNC, step);
        cur[pos++] = (byte) kind;
        svarint(slot);
        uvarint(object);
        svarint(a);
        svarint(b);
    }

    /** One thread's status change (gathered with the next ones of its warp, see {@link #status(long, int, int, byte, byte)}). */
    void status(long step, int slot, byte from, byte to) { status(step, slot >>> 5, 1 << (slot & 31), from, to); }

    /** Lanes of a warp changing status together; consecutive changes of one warp with the same from/to merge. */
    void status(long step, int warp, int lanes, byte from, byte to) {
        if (pendingStatus && psStep == step && psWarp == warp && psFrom == from && psTo == to && (psLanes & lanes) == 0) {
            psLanes |= lanes;
            return;
        }
        int bit = lanes;
        if (pendingStatus) flushStatus();
        pendingStatus = true;
        psStep = step;
        psWarp = warp;
        psLanes = bit;
        psFrom = from;
        psTo = to;
    }

    private void flushStatus() {
        pendingStatus = false;
        if (Integer.bitCount(psLanes) == 1) {
            header(T_STATUS, psStep);
            uvarint(((long) psWarp << 5) | Integer.numberOfTrailingZeros(psLanes));
        } else {
            header(T_STATUS_LANES, psStep);
            uvarint(psWarp);
            int32(psLanes);
        }
        cur[pos++] = psFrom;
        cur[pos++] = psTo;
    }

    /** Writes out a status change still being gathered (before anyone reads). */
    private void settle() {
        if (pendingStatus) flushStatus();
    }

    void jump(long step, long newCycles) {
        header(T_JUMP, step);
        uvarint(newCycles);
        cycles = newCycles;
    }

    void diagnostic(long step, Diagnostic d) {
        header(T_DIAG, step);
        uvarint(diagnostics.size());
        diagnostics.add(d);
    }

    void printf(long step, PrintfLine line) {
        header(T_PRINTF, step);
        uvarint(printf.size());
        printf.add(line);
    }

    void end(long step, Outcome o) {
        header(T_END, step);
        cur[pos++] = (byte) o.ordinal();
        outcome = o;
    }

    // ---- reading ----

    /** Events recorded (a status change of several lanes of a warp at once is one event). */
    public long events() {
        settle();
        return events;
    }

    /** Warp steps recorded: the recording covers the states after 0..steps() steps. */
    public long steps() { return warpSteps; }

    /** Bytes of encoded events. */
    public long bytes() {
        settle();
        long n = pos;
        for (int i = 0; i < chunks.size() - 1; i++) n += chunkLen[i];
        return n;
    }

    /** Bytes of chunk {@code i} holding events. */
    int chunkLength(int i) { return i == chunks.size() - 1 ? pos : chunkLen[i]; }

    /** The run's outcome once it ended, else null. */
    public Outcome outcome() { return outcome; }

    public boolean finished() { return outcome != null; }

    public List<Diagnostic> diagnostics() { return java.util.Collections.unmodifiableList(diagnostics); }

    public List<PrintfLine> printf() { return java.util.Collections.unmodifiableList(printf); }

    public int warps() { return warps; }

    /** A cursor before the first event labelled {@code step} or later. */
    public EventCursor cursor(long step) {
        settle();
        EventCursor c = new EventCursor(this);
        if (blocks == 0) return c;
        int b = (int) Math.min(Math.max(0, step) / BLOCK, blocks - 1);
        c.seek(blockPos[b], blockCycles[b], blockBase[b]);
        c.skipTo(step);
        return c;
    }

    byte[] chunk(int i) { return chunks.get(i); }

    int chunkCount() { return chunks.size(); }

    /** End position (chunk << 20 | offset) of the encoded events. */
    long endPosition() { return ((long) (chunks.size() - 1) << 20) | pos; }

    /** The encoded events as one contiguous array (for trace files). */
    byte[] encoded() {
        settle();
        long n = bytes();
        if (n > Integer.MAX_VALUE - 16) throw new IllegalStateException("recording too large to save (" + n + " bytes)");
        byte[] out = new byte[(int) n];
        int o = 0;
        for (int i = 0; i < chunks.size(); i++) {
            int len = chunkLength(i);
            System.arraycopy(chunks.get(i), 0, out, o, len);
            o += len;
        }
        return out;
    }

    /** Whether two recordings hold the same events (for checking a re-executed trace). */
    public boolean sameEvents(Recording other) {
        return events == other.events && Arrays.equals(encoded(), other.encoded());
    }
}
