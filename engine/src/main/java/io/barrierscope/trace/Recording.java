package io.barrierscope.trace;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.StepLog;
import io.barrierscope.exec.ThreadStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The events of one run in two streams: the warp steps, one packed int each in the interpreter's
 * {@link StepLog} (logging a step is one array store, not an encoding), and everything else (sync
 * events, status changes, time jumps, diagnostics, printf, the end) compactly encoded in
 * append-only byte chunks with an index every {@link #BLOCK} warp steps. A cursor merges them.
 *
 * <p>Events are labelled with the index of the warp step they belong to: those of step s happened
 * after s-1 finished and up to the end of s, so the state after s steps contains exactly the
 * events labelled below s. Within one label the other events come before the warp step, except the
 * run's end, which comes after it. An encoded event is a header byte (low nibble the type, high
 * nibble the label delta from the previous encoded event, 15 meaning a varint follows) and its
 * fields as varints. {@link #encoded()} writes both streams merged in that format (a warp step of a
 * full warp taking 3 to 5 bytes), which is what trace files store.
 */
public final class Recording {
    /** Warp steps per index entry. */
    public static final int BLOCK = 1024;
    /** Bytes per chunk of encoded events; a position is chunk << CHUNK_BITS | offset. */
    static final int CHUNK_BITS = 16;
    static final int CHUNK = 1 << CHUNK_BITS;
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
    /** A warp's lanes began to wait on a CTA barrier (a status change) and arrived on it (a sync event). */
    static final int T_ARRIVE_WAIT = 10;
    /** Whole warps left a CTA barrier's wait (status changes) and its generation completed (a sync event). */
    static final int T_COMPLETE_RELEASE = 11;

    final int warps;
    final StepLog steps;
    private final List<byte[]> chunks = new ArrayList<>();
    /** Bytes used in each full chunk (a chunk is closed when the next event might not fit). */
    private int[] chunkLen = new int[8];
    private byte[] cur;
    private int pos;
    private long lastStep;
    /** Virtual time minus warp steps taken, after the last time jump (it changes only at jumps). */
    private long cyclesOffset;
    private long otherEvents;
    /** Per block: the encoded position of its first event, and the cycles offset before it. */
    private long[] blockPos = new long[64];
    private long[] blockOffset = new long[64];
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

    /** A recording of a launch of {@code warps} warps running a program of {@code codeLength} ops. */
    public Recording(int warps, int codeLength) {
        this.warps = warps;
        this.steps = new StepLog(warps, codeLength);
        cur = new byte[CHUNK];
        chunks.add(cur);
    }

    /** Where the interpreter logs warp steps (see {@link io.barrierscope.exec.Interpreter#logSteps}). */
    StepLog stepLog() { return steps; }

    /** Starts a new chunk when the next event might not fit (chunks are small: never copied, little zeroing). */
    private void room() {
        if (pos <= CHUNK - MAX_EVENT) return;
        if (chunks.size() > chunkLen.length) chunkLen = Arrays.copyOf(chunkLen, chunkLen.length * 2);
        chunkLen[chunks.size() - 1] = pos;
        cur = new byte[CHUNK];
        chunks.add(cur);
        pos = 0;
    }

    // ---- writing (the recorder) ----

    private void header(int type, long step) {
        if (pendingStatus) flushStatus();
        room();
        if (step >= nextBlockStep) indexBlocks(step);
        long delta = step - lastStep;
        lastStep = step;
        otherEvents++;
        if (delta < 15) {
            cur[pos++] = (byte) (type | (delta << 4));
        } else {
            cur[pos++] = (byte) (type | 0xF0);
            pos = uvarint(cur, pos, delta);
        }
    }

    /** The first step of the block after the last indexed one. */
    private long nextBlockStep;

    /** Index entries for the blocks up to {@code step}'s: they start at the event about to be written. */
    private void indexBlocks(long step) {
        while (step >= (long) blocks * BLOCK) {
            if (blocks == blockPos.length) {
                blockPos = Arrays.copyOf(blockPos, blocks * 2);
                blockOffset = Arrays.copyOf(blockOffset, blocks * 2);
                blockBase = Arrays.copyOf(blockBase, blocks * 2);
            }
            blockBase[blocks] = lastStep;
            blockPos[blocks] = ((long) (chunks.size() - 1) << CHUNK_BITS) | pos;
            blockOffset[blocks] = cyclesOffset;
            blocks++;
        }
        nextBlockStep = (long) blocks * BLOCK;
    }

    /** Writes {@code v} as a varint at {@code c[p]}; returns the position after it. */
    private static int uvarint(byte[] c, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            c[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        c[p++] = (byte) v;
        return p;
    }

    private static long zigzag(long v) { return (v << 1) ^ (v >> 63); }

    private static int int32(byte[] c, int p, int v) {
        c[p] = (byte) v;
        c[p + 1] = (byte) (v >>> 8);
        c[p + 2] = (byte) (v >>> 16);
        c[p + 3] = (byte) (v >>> 24);
        return p + 4;
    }

    /** Logs a warp step (the interpreter logs them directly; tests use this). */
    void warpStep(long step, int warp, int pc, int group, int active) { steps.add(step, warp, pc, group, active); }

    void sync(long step, int kind, int slot, long object, long a, long b) {
        header(T_SYNC, step);
        byte[] c = cur;
        int p = pos;
        c[p++] = (byte) kind;
        p = uvarint(c, p, zigzag(slot));
        p = uvarint(c, p, object);
        p = uvarint(c, p, zigzag(a));
        pos = uvarint(c, p, zigzag(b));
    }

    /**
     * A warp's lanes began to wait on a CTA barrier and arrived on it (see
     * {@link io.barrierscope.exec.ExecutionListener#barrierArriveWait}): one record for both events,
     * with fixed-width fields (warp 2 bytes, lanes 4, CTA 2, barrier 1, generation 4), cheaper to
     * write than varints; fields that do not fit are written as the two events.
     */
    void arriveWait(long step, int warp, int lanes, long object, long generation) {
        if (warp > 0xFFFF || (object >>> 32) > 0xFFFF || (object & 0xFFFFFFFFL) > 0xFF || generation < 0
                || generation > Integer.MAX_VALUE) {
            status(step, warp, lanes, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT);
            sync(step, io.barrierscope.exec.SyncEvent.BAR_ARRIVE.ordinal(), (warp << 5) + Integer.numberOfTrailingZeros(lanes),
                    object, generation, lanes);
            return;
        }
        header(T_ARRIVE_WAIT, step);
        otherEvents++; // the record stands for two events
        byte[] c = cur;
        int p = pos;
        c[p] = (byte) warp;
        c[p + 1] = (byte) (warp >>> 8);
        int32(c, p + 2, lanes);
        int cta = (int) (object >>> 32);
        c[p + 6] = (byte) cta;
        c[p + 7] = (byte) (cta >>> 8);
        c[p + 8] = (byte) object;
        pos = int32(c, p + 9, (int) generation);
    }

    /**
     * A generation completing and releasing whole warps (see
     * {@link io.barrierscope.exec.ExecutionListener#barrierCompleteRelease}): one record for the
     * releases and the completion.
     */
    void completeRelease(long step, int firstWarp, long released, long object, long generation) {
        header(T_COMPLETE_RELEASE, step);
        otherEvents += Long.bitCount(released);
        byte[] c = cur;
        int p = uvarint(c, pos, firstWarp);
        p = uvarint(c, p, released);
        p = uvarint(c, p, object);
        pos = uvarint(c, p, zigzag(generation));
    }

    /** One thread's status change (gathered with the next ones of its warp, see {@link #status(long, int, int, byte, byte)}). */
    void status(long step, int slot, byte from, byte to) { status(step, slot >>> 5, 1 << (slot & 31), from, to); }

    /** Lanes of a warp changing status together; consecutive changes of one warp with the same from/to merge. */
    void status(long step, int warp, int lanes, byte from, byte to) {
        if (pendingStatus && psStep == step && psWarp == warp && psFrom == from && psTo == to && (psLanes & lanes) == 0) {
            psLanes |= lanes;
            return;
        }
        if (pendingStatus) flushStatus();
        pendingStatus = true;
        psStep = step;
        psWarp = warp;
        psLanes = lanes;
        psFrom = from;
        psTo = to;
    }

    private void flushStatus() {
        pendingStatus = false;
        boolean one = Integer.bitCount(psLanes) == 1;
        header(one ? T_STATUS : T_STATUS_LANES, psStep);
        byte[] c = cur;
        int p = pos;
        if (one) {
            p = uvarint(c, p, ((long) psWarp << 5) | Integer.numberOfTrailingZeros(psLanes));
        } else {
            p = uvarint(c, p, psWarp);
            p = int32(c, p, psLanes);
        }
        c[p] = psFrom;
        c[p + 1] = psTo;
        pos = p + 2;
    }

    /** Writes out a status change still being gathered (before anyone reads). */
    private void settle() {
        if (pendingStatus) flushStatus();
    }

    void jump(long step, long newCycles) {
        header(T_JUMP, step);
        pos = uvarint(cur, pos, newCycles);
        // A jump labelled s happens with s warp steps taken.
        cyclesOffset = newCycles - step;
    }

    void diagnostic(long step, Diagnostic d) {
        header(T_DIAG, step);
        pos = uvarint(cur, pos, diagnostics.size());
        diagnostics.add(d);
    }

    void printf(long step, PrintfLine line) {
        header(T_PRINTF, step);
        pos = uvarint(cur, pos, printf.size());
        printf.add(line);
    }

    void end(long step, Outcome o) {
        header(T_END, step);
        cur[pos++] = (byte) o.ordinal();
        outcome = o;
    }

    // ---- reading ----

    /** Events recorded: warp steps and the others (a status change of several lanes of a warp at once is one event). */
    public long events() {
        settle();
        return otherEvents + steps.size();
    }

    /** Warp steps recorded: the recording covers the states after 0..steps() steps. */
    public long steps() { return steps.size(); }

    /** The warp that took step {@code step} (below {@link #steps()}). */
    public int warpOf(long step) { return steps.warp(step); }

    /** The PC of the op executed at step {@code step} (below {@link #steps()}). */
    public int pcOf(long step) { return steps.pc(step); }

    /** Bytes held: the logged steps and the encoded other events. */
    public long bytes() { return steps.bytes() + otherBytes(); }

    private long otherBytes() {
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
        long at = Math.max(0, Math.min(step, steps.size()));
        EventCursor c = new EventCursor(this);
        int b = (int) (Math.max(0, step) / BLOCK);
        if (b < blocks) {
            c.seek(blockPos[b], blockOffset[b], blockBase[b], at);
        } else {
            // No event is labelled in this block or later: start after them all.
            c.seek(((long) (chunks.size() - 1) << CHUNK_BITS) | pos, cyclesOffset, lastStep, at);
        }
        c.skipTo(step);
        return c;
    }

    byte[] chunk(int i) { return chunks.get(i); }

    int chunkCount() { return chunks.size(); }

    /**
     * The events of both streams merged in order, encoded as described above (for trace files, and
     * to compare a re-executed run with a trace).
     */
    byte[] encoded() {
        settle();
        Merged out = new Merged();
        EventCursor c = cursor(0);
        while (c.next()) out.add(c);
        return out.bytes();
    }

    /**
     * Where the merged encoding of these events first differs from {@code expected} (a trace's
     * event stream), or -1 when they are equal. Encodes in a small window compared as it fills,
     * so checking a re-executed trace never holds a second copy of its events.
     */
    long mismatch(byte[] expected) {
        settle();
        Merged out = new Merged();
        out.expected = expected;
        EventCursor c = cursor(0);
        while (c.next() && out.firstDifference < 0) out.add(c);
        out.flush();
        if (out.firstDifference >= 0) return out.firstDifference;
        return out.compared == expected.length ? -1 : Math.min(out.compared, expected.length);
    }

    /** Whether two recordings hold the same events (for checking a re-executed trace). */
    public boolean sameEvents(Recording other) {
        return events() == other.events() && Arrays.equals(encoded(), other.encoded());
    }

    /** The encoder of the merged stream. */
    private static final class Merged {
        private byte[] buf = new byte[1 << 16];
        private int pos;
        private long last;
        /** When set, bytes are compared with it window by window instead of kept. */
        byte[] expected;
        long compared;
        long firstDifference = -1;

        /** Compares the window with {@code expected} and empties it (comparing mode only). */
        void flush() {
            if (expected == null || firstDifference >= 0) return;
            int n = (int) Math.max(0, Math.min(pos, expected.length - compared));
            int at = Arrays.mismatch(buf, 0, n, expected, (int) compared, (int) compared + n);
            if (at >= 0) firstDifference = compared + at;
            else if (n < pos) firstDifference = compared + n;
            compared += pos;
            pos = 0;
        }

        void add(EventCursor c) {
            if (expected != null && pos > buf.length - MAX_EVENT) flush();
            if (pos > buf.length - MAX_EVENT) {
                if (buf.length > Integer.MAX_VALUE / 2 - 16) throw new IllegalStateException("recording too large to save");
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            switch (c.type) {
                case WARP_STEP -> {
                    int t = c.group == -1 && c.active == -1 ? T_STEP_FULL : c.group == c.active ? T_STEP : T_STEP_GUARD;
                    header(t, c.step);
                    uvarint(c.warp);
                    uvarint(c.pc);
                    if (t != T_STEP_FULL) int32(c.group);
                    if (t == T_STEP_GUARD) int32(c.active);
                }
                case SYNC -> {
                    header(T_SYNC, c.step);
                    buf[pos++] = (byte) c.kind.ordinal();
                    svarint(c.slot);
                    uvarint(c.object);
                    svarint(c.a);
                    svarint(c.b);
                }
                case STATUS -> {
                    if (Integer.bitCount(c.lanes) == 1) {
                        header(T_STATUS, c.step);
                        uvarint(c.slot);
                    } else {
                        header(T_STATUS_LANES, c.step);
                        uvarint(c.slot >> 5);
                        int32(c.lanes);
                    }
                    buf[pos++] = c.from;
                    buf[pos++] = c.to;
                }
                case TIME_JUMP -> {
                    header(T_JUMP, c.step);
                    uvarint(c.cycles);
                }
                case DIAGNOSTIC -> {
                    header(T_DIAG, c.step);
                    uvarint(c.index);
                }
                case PRINTF -> {
                    header(T_PRINTF, c.step);
                    uvarint(c.index);
                }
                case END -> {
                    header(T_END, c.step);
                    buf[pos++] = (byte) c.outcome.ordinal();
                }
            }
        }

        private void header(int type, long step) {
            long delta = step - last;
            last = step;
            if (delta < 15) {
                buf[pos++] = (byte) (type | (delta << 4));
            } else {
                buf[pos++] = (byte) (type | 0xF0);
                uvarint(delta);
            }
        }

        private void uvarint(long v) {
            while ((v & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[pos++] = (byte) v;
        }

        private void svarint(long v) { uvarint((v << 1) ^ (v >> 63)); }

        private void int32(int v) {
            buf[pos++] = (byte) v;
            buf[pos++] = (byte) (v >>> 8);
            buf[pos++] = (byte) (v >>> 16);
            buf[pos++] = (byte) (v >>> 24);
        }

        byte[] bytes() { return Arrays.copyOf(buf, pos); }
    }
}
