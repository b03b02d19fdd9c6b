package io.barrierscope.app.timeline;

import io.barrierscope.exec.Program;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Asynchronous work in flight per lane (warp), from the recording: copies from issue to landing
 * (loads into shared memory, and stores out of it such as TMA tensor stores, whose landing is
 * what their bulk group waits for) and wgmma.mma_async operations from issue through
 * commit_group to the wait_group that retired them. Built by {@link TimelineModel} under its
 * lock; no JavaFX. The maps are looked up by key only, never iterated (order does not matter).
 */
final class AsyncSpans {
    /** Column flags: a copy into shared memory, a copy out of it (store), a wgmma issued but not committed, committed and not retired. */
    static final int LOAD = 1;
    static final int STORE = 2;
    static final int WGMMA_OPEN = 4;
    static final int WGMMA_COMMITTED = 8;
    /** Kinds of span. */
    static final byte COPY = 0;
    static final byte COPY_OUT = 1;
    static final byte WGMMA = 2;

    private final Program program;
    private final Lane[] lanes;
    /** Copy id -> lane << 32 | span index, while in flight. */
    private final Map<Long, Long> copies = new HashMap<>();
    /** warp << 32 | issue number -> span index in the warp's lane, while in flight. */
    private final Map<Long, Integer> ops = new HashMap<>();
    /** Copies issued in the current label whose instruction is not known yet (the warp step comes after its events). */
    private long[] pending = new long[8];
    private int pendingCount;

    /** One lane's spans, in issue order. {@code mid}: the commit step of a wgmma (-1 before it). */
    static final class Lane {
        long[] start = new long[4];
        long[] mid = new long[4];
        long[] end = new long[4];
        byte[] kind = new byte[4];
        /** Per span: the issuing instruction's PC (-1 while unknown). */
        int[] pc = new int[4];
        int n;
        /** wgmma spans of this warp issued and not yet committed, as indices. */
        int[] open = new int[4];
        int openCount;

        int add(long step, byte k, int atPc) {
            if (n == start.length) {
                int c = n * 2;
                start = Arrays.copyOf(start, c);
                mid = Arrays.copyOf(mid, c);
                end = Arrays.copyOf(end, c);
                kind = Arrays.copyOf(kind, c);
                pc = Arrays.copyOf(pc, c);
            }
            start[n] = step;
            mid[n] = -1;
            end[n] = Long.MAX_VALUE;
            kind[n] = k;
            pc[n] = atPc;
            return n++;
        }
    }

    AsyncSpans(int laneCount, Program program) {
        this.program = program;
        lanes = new Lane[laneCount];
        for (int i = 0; i < laneCount; i++) lanes[i] = new Lane();
    }

    Lane lane(int lane) { return lanes[lane]; }

    /** The last warp step read: its label, lane and PC (a copy issued in it after it was read takes its PC). */
    private long stepLabel = -1;
    private int stepLane = -1;
    private int stepPc = -1;

    void copyIssued(int lane, long step, long id) {
        int i = lanes[lane].add(step, COPY, -1);
        long key = (long) lane << 32 | i;
        copies.put(id, key);
        if (stepLabel == step && stepLane == lane) {
            classify(lanes[lane], i, stepPc);
            return;
        }
        if (pendingCount == pending.length) pending = Arrays.copyOf(pending, pendingCount * 2);
        pending[pendingCount++] = key;
    }

    void copyLanded(long step, long id) {
        Long key = copies.remove(id);
        if (key != null) lanes[(int) (key >>> 32)].end[(int) (long) key] = step;
    }

    /** A warp step: the copies its lane issued in this label were issued by the instruction at {@code pc}. */
    void warpStep(long step, int lane, int pc) {
        stepLabel = step;
        stepLane = lane;
        stepPc = pc;
        for (int p = 0; p < pendingCount; p++) {
            long key = pending[p];
            if ((int) (key >>> 32) != lane) continue;
            classify(lanes[lane], (int) key, pc);
            pending[p--] = pending[--pendingCount];
        }
    }

    private void classify(Lane l, int i, int pc) {
        l.pc[i] = pc;
        l.kind[i] = outOfShared(pc) ? COPY_OUT : COPY;
    }

    /** A label ended: a copy whose warp step was not seen keeps its default kind. */
    void endLabel() { pendingCount = 0; }

    /** Whether the instruction copies out of shared memory (a store: bulk or TMA tensor store, bulk reduction). */
    private boolean outOfShared(int pc) {
        if (pc < 0 || pc >= program.code.length) return false;
        String mn = program.code[pc].insn.mnemonic();
        return mn.contains(".global.shared");
    }

    void wgmmaIssued(int lane, int warp, long step, long seq, int pc) {
        Lane l = lanes[lane];
        int i = l.add(step, WGMMA, pc);
        ops.put((long) warp << 32 | seq, i);
        if (l.openCount == l.open.length) l.open = Arrays.copyOf(l.open, l.openCount * 2);
        l.open[l.openCount++] = i;
    }

    void wgmmaCommitted(int lane, long step) {
        Lane l = lanes[lane];
        for (int k = 0; k < l.openCount; k++) l.mid[l.open[k]] = step;
        l.openCount = 0;
    }

    void wgmmaRetired(int lane, int warp, long step, long seq) {
        Integer i = ops.remove((long) warp << 32 | seq);
        if (i != null) lanes[lane].end[i] = step;
    }

    /**
     * ORs into {@code flags[c]} (c < width) what lanes [from, to) had in flight during column c,
     * whose fractional step interval is [bounds[c], bounds[c + 1]); spans still open end at {@code known}.
     */
    void columns(int from, int to, double[] bounds, int width, long known, int[] flags) {
        for (int ln = from; ln < to; ln++) {
            Lane l = lanes[ln];
            for (int i = 0; i < l.n; i++) {
                long s = l.start[i];
                if (s >= known) continue;
                long e = Math.min(l.end[i], known);
                if (l.kind[i] == WGMMA) {
                    long m = l.mid[i] < 0 ? e : Math.min(l.mid[i], e);
                    mark(bounds, width, s, m, WGMMA_OPEN, flags);
                    mark(bounds, width, m, e, WGMMA_COMMITTED, flags);
                } else {
                    mark(bounds, width, s, e, l.kind[i] == COPY_OUT ? STORE : LOAD, flags);
                }
            }
        }
    }

    /** Marks the columns overlapping steps [s, e) (a span of no length still shows in its column). */
    private static void mark(double[] bounds, int width, long s, long e, int flag, int[] flags) {
        if (e < s) return;
        double hi = Math.max(e, s + 1);
        if (hi <= bounds[0] || s >= bounds[width]) return;
        int c = firstColumnEndingAfter(bounds, width, s);
        for (; c < width && bounds[c] < hi; c++) flags[c] |= flag;
    }

    private static int firstColumnEndingAfter(double[] bounds, int width, double x) {
        int lo = 0;
        int hi = width - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (bounds[mid + 1] > x) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }

    /** The spans of {@code lane} covering {@code step}, in words (hovering). */
    String describe(int lane, long step, long known) {
        Lane l = lanes[lane];
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < l.n; i++) {
            long e = Math.min(l.end[i], known);
            if (l.start[i] > step || Math.max(e, l.start[i] + 1) <= step) continue;
            if (b.length() > 0) b.append('\n');
            String what = l.pc[i] >= 0 && l.pc[i] < program.code.length ? program.code[l.pc[i]].insn.mnemonic() : "async copy";
            b.append(what).append(": issued at step ").append(l.start[i]);
            if (l.kind[i] == WGMMA) b.append(l.mid[i] >= 0 ? ", committed at step " + l.mid[i] : ", not committed yet");
            b.append(l.end[i] == Long.MAX_VALUE ? (l.kind[i] == WGMMA ? ", not retired yet" : ", in flight")
                    : (l.kind[i] == WGMMA ? ", retired by wait_group at step " : ", landed at step ") + l.end[i]);
        }
        return b.toString();
    }
}
