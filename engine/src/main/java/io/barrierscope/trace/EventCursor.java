package io.barrierscope.trace;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.exec.StepLog;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;

/**
 * Walks a {@link Recording} forward, one event at a time, decoding into its public fields (one
 * object reused for every event, so a timeline can scan millions without allocating): the warp
 * steps and the encoded events merged in the order they happened. Fields not used by the current
 * {@link #type} keep stale values.
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

    /** The warp step stream, the next step to return and the index of its masks. */
    private final StepLog steps;
    private long nextStep;
    private long maskIndex;
    /** The next encoded event, decoded ahead (its header) to merge it with the steps: its label and type nibble. */
    private boolean ahead;
    private long aheadStep;
    private int aheadType;

    EventCursor(Recording r) {
        this.r = r;
        this.steps = r.steps;
        this.chunk = 0;
        this.buf = r.chunk(0);
        this.len = r.chunkLength(0);
    }

    /**
     * Positions the encoded stream at {@code position} (the label of the event before it being
     * {@code stepBefore}, the cycles offset there {@code offsetBefore}) and the step stream at
     * step {@code at}; {@link #skipTo} then passes the encoded events labelled before {@code at}.
     */
    void seek(long position, long offsetBefore, long stepBefore, long at) {
        chunk = (int) (position >>> Recording.CHUNK_BITS);
        pos = (int) (position & (Recording.CHUNK - 1));
        buf = r.chunk(chunk);
        len = r.chunkLength(chunk);
        offset = offsetBefore;
        pendingStep = stepBefore;
        step = stepBefore;
        nextStep = at;
        maskIndex = steps.maskIndex(at);
        ahead = false;
    }

    /** The label the next encoded event is relative to (the last decoded one's). */
    private long pendingStep;
    /** Cycles minus warp steps while skipping (it changes at time jumps only). */
    private long offset;

    /** Advances past encoded events labelled before {@code target}; the next {@link #next} returns the first event at or after it. */
    void skipTo(long target) {
        while (peek() && aheadStep < target) {
            ahead = false;
            decode(aheadType);
            expanding = 0; // a record standing for several events is skipped whole
            if (type == Type.TIME_JUMP) offset = cycles - step;
        }
        cycles = nextStep + offset;
    }

    /** Decodes the header of the next encoded event into the look-ahead; false if there is none. */
    private boolean peek() {
        if (ahead) return true;
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
        aheadStep = pendingStep + delta;
        pendingStep = aheadStep;
        aheadType = h & 0xF;
        ahead = true;
        return true;
    }

    /**
     * A record standing for several events (see {@link Recording#T_ARRIVE_WAIT}) returns them one
     * per call: what it has left, all with its label.
     */
    private int expanding;
    private long xMask;
    private long xReleased;
    private int xW0;
    private int xSlot;
    private int xLanes;
    private long xObject;
    private long xGeneration;

    /** Decodes the next event; false at the end of the recording. */
    public boolean next() {
        if (expanding != 0) {
            expand();
            return true;
        }
        boolean event = peek();
        long s = nextStep;
        boolean stepLeft = s < steps.size();
        // Events labelled s come before warp step s, except the end, which follows it.
        if (event && (!stepLeft || aheadStep < s || (aheadStep == s && aheadType != Recording.T_END))) {
            ahead = false;
            decode(aheadType);
            return true;
        }
        if (!stepLeft) return false;
        type = Type.WARP_STEP;
        step = s;
        warp = steps.warp(s);
        pc = steps.pc(s);
        int k = steps.maskWords(s);
        if (k == 0) {
            group = -1;
            active = -1;
        } else {
            group = steps.group(s, maskIndex);
            active = steps.active(s, maskIndex);
            maskIndex += k;
        }
        nextStep = s + 1;
        cycles++;
        return true;
    }

    /** Decodes the fields of an encoded event whose header is read. */
    private void decode(int t) {
        step = aheadStep;
        switch (t) {
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
            case Recording.T_ARRIVE_WAIT -> {
                int w = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
                pos += 2;
                xLanes = int32();
                xSlot = (w << 5) + Integer.numberOfTrailingZeros(xLanes);
                long cta = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
                xObject = cta << 32 | (buf[pos + 2] & 0xFF);
                pos += 3;
                xGeneration = int32();
                type = Type.STATUS;
                slot = xSlot;
                lanes = xLanes;
                from = ThreadStatus.RUNNABLE;
                to = ThreadStatus.BAR_WAIT;
                expanding = Recording.T_ARRIVE_WAIT;
            }
            case Recording.T_COMPLETE_RELEASE -> {
                xW0 = (int) uvarint();
                xReleased = uvarint();
                xObject = uvarint();
                xGeneration = svarint();
                xMask = xReleased;
                expanding = Recording.T_COMPLETE_RELEASE;
                expand();
            }
            default -> throw new IllegalStateException("corrupt recording: event type " + t);
        }
    }

    /** The next event of the record being expanded. */
    private void expand() {
        if (expanding == Recording.T_COMPLETE_RELEASE && xMask != 0) {
            type = Type.STATUS;
            slot = (xW0 + Long.numberOfTrailingZeros(xMask)) << 5;
            lanes = -1;
            from = ThreadStatus.BAR_WAIT;
            to = ThreadStatus.RUNNABLE;
            xMask &= xMask - 1;
            return;
        }
        type = Type.SYNC;
        object = xObject;
        a = xGeneration;
        if (expanding == Recording.T_ARRIVE_WAIT) {
            kind = SyncEvent.BAR_ARRIVE;
            slot = xSlot;
            b = xLanes;
        } else {
            kind = SyncEvent.BAR_COMPLETE;
            slot = -1;
            b = xReleased;
        }
        expanding = 0;
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
