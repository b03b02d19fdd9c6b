package io.barrierscope.trace;

import io.barrierscope.check.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.SyncEvent;

/**
 * Walks a {@link Recording} forward, one event at a time, decoding into its public fields (one
 * object reused for every event, so a timeline can scan millions without allocating). Fields not
 * used by the current {@link #type} keep stale values.
 */
public final class EventCursor {
    /** What the current event is. */
    public enum Type { WARP_STEP, SYNC, STATUS, TIME_JUMP, DIAGNOSTIC, PRINTF, END }

    private final Recording r;
    private int chunk;
    private int pos;
    private byte[] buf;
    private int len;

    public Type type;
    /** The warp step the event belongs to (see {@link Recording}). */
    public long step;
    /** Virtual time after the event (a warp step advances it by one; a jump sets it). */
    public long cycles;
    // WARP_STEP
    public int warp;
    public int pc;
    public int group;
    public int active;
    // SYNC
    public SyncEvent kind;
    public int slot;
    public long object;
    public long a;
    public long b;
    // STATUS: slot is the lowest lane's; lanes the lanes of its warp that changed together
    public int lanes;
    public byte from;
    public byte to;
    // DIAGNOSTIC / PRINTF: index into the recording's lists
    public int index;
    // END
    public Outcome outcome;

    EventCursor(Recording r) {
        this.r = r;
        this.chunk = 0;
        this.buf = r.chunk(0);
        this.len = r.chunkLength(0);
    }

    void seek(long position, long cyclesBefore, long stepBefore) {
        chunk = (int) (position >>> 20);
        pos = (int) (position & 0xFFFFF);
        buf = r.chunk(chunk);
        len = r.chunkLength(chunk);
        cycles = cyclesBefore;
        step = stepBefore;
        pendingStep = stepBefore;
    }

    /** The label the next event is relative to (the last decoded event's step). */
    private long pendingStep;

    /** Advances past events labelled before {@code target}; the next {@link #next} returns the first at or after it. */
    void skipTo(long target) {
        while (true) {
            int savedChunk = chunk;
            int savedPos = pos;
            long savedCycles = cycles;
            long savedStep = pendingStep;
            if (!next()) return;
            if (step >= target) {
                chunk = savedChunk;
                buf = r.chunk(chunk);
                len = r.chunkLength(chunk);
                pos = savedPos;
                cycles = savedCycles;
                pendingStep = savedStep;
                step = savedStep;
                return;
            }
        }
    }

    /** Decodes the next event; false at the end of the recording. */
    public boolean next() {
        while (pos >= len) {
            if (chunk + 1 >= r.chunkCount()) return false;
            chunk++;
            buf = r.chunk(chunk);
            len = r.chunkLength(chunk);
            pos = 0;
        }
        int h = buf[pos++] & 0xFF;
        long delta = h >>> 4;
        if (delta == 15) delta = uvarint();
        step = pendingStep + delta;
        pendingStep = step;
        switch (h & 0xF) {
            case Recording.T_STEP_FULL, Recording.T_STEP, Recording.T_STEP_GUARD -> {
                type = Type.WARP_STEP;
                warp = (int) uvarint();
                pc = (int) uvarint();
                int t = h & 0xF;
                group = t == Recording.T_STEP_FULL ? -1 : int32();
                active = t == Recording.T_STEP_GUARD ? int32() : group;
                cycles++;
            }
            case Recording.T_SYNC -> {
                type = Type.SYNC;
                kind = SyncEvent.of(buf[pos++]);
                slot = (int) svarint();
                object = uvarint();
                a = svarint();
                b = svarint();
            }
            case Recording.T_STATUS -> {
                type = Type.STATUS;
                slot = (int) uvarint();
                lanes = 1 << (slot & 31);
                from = buf[pos++];
                to = buf[pos++];
            }
            case Recording.T_STATUS_LANES -> {
                type = Type.STATUS;
                int w = (int) uvarint();
                lanes = int32();
                slot = (w << 5) + Integer.numberOfTrailingZeros(lanes);
                from = buf[pos++];
                to = buf[pos++];
            }
            case Recording.T_JUMP -> {
                type = Type.TIME_JUMP;
                cycles = uvarint();
            }
            case Recording.T_DIAG -> {
                type = Type.DIAGNOSTIC;
                index = (int) uvarint();
            }
            case Recording.T_PRINTF -> {
                type = Type.PRINTF;
                index = (int) uvarint();
            }
            case Recording.T_END -> {
                type = Type.END;
                outcome = Outcome.values()[buf[pos++]];
            }
            default -> throw new IllegalStateException("corrupt recording: event type " + (h & 0xF));
        }
        return true;
    }

    /** The diagnostic of a DIAGNOSTIC event. */
    public Diagnostic diagnostic() { return r.diagnostics().get(index); }

    /** The printed line of a PRINTF event. */
    public PrintfLine printfLine() { return r.printf().get(index); }

    private long uvarint() {
        long v = 0;
        int shift = 0;
        while (true) {
            int b = buf[pos++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) return v;
            shift += 7;
        }
    }

    private long svarint() {
        long u = uvarint();
        return (u >>> 1) ^ -(u & 1);
    }

    private int int32() {
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    @Override
    public String toString() {
        return switch (type) {
            case WARP_STEP -> "step " + step + " warp " + warp + " pc " + pc + " group " + Integer.toHexString(group)
                    + (active != group ? " active " + Integer.toHexString(active) : "");
            case SYNC -> "step " + step + " " + kind + " slot " + slot + " object " + Long.toHexString(object) + " a " + a + " b " + b;
            case STATUS -> "step " + step + " slot " + slot + " lanes " + Integer.toHexString(lanes) + " " + from + "->" + to;
            case TIME_JUMP -> "step " + step + " time jumps to " + cycles;
            case DIAGNOSTIC -> "step " + step + " diagnostic " + diagnostic().code().code();
            case PRINTF -> "step " + step + " printf " + printfLine().text();
            case END -> "step " + step + " end " + outcome;
        };
    }
}
