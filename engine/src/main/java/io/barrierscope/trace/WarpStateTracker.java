package io.barrierscope.trace;

import io.barrierscope.exec.Machine;
import io.barrierscope.exec.ThreadStatus;
import java.io.IOException;

/**
 * Follows the thread STATUS events of a {@link Recording} and turns them into one span of state
 * per warp at a time, for {@link ChromeExport}'s warp tracks.
 *
 * <p>The rule deriving a warp's state from its lanes is {@link WarpState}'s.
 *
 * <p>Time: a status change is given with the warp step at whose end it shows ({@code ts = L + 1}
 * on the step axis): the changes made while step L executes, or between steps L and L+1, show
 * from L + 1. The tracker works in quarter steps ({@link ChromeExport#Q}). Changes are committed
 * when a later step is named, so a lane that waits and is released before the next boundary
 * leaves no trace, and consecutive equal states merge.
 */
final class WarpStateTracker {
    /** Receives each finished span: warp, state, start and end (quarter steps), warp steps taken in it. */
    interface Sink {
        void slice(int warp, WarpState state, long startQ, long endQ, long steps) throws IOException;
    }

    private final Machine m;
    private final Sink sink;
    private final byte[] status;
    private final WarpState[] state;
    private final long[] since;
    private final long[] steps;
    private final boolean[] dirty;
    private final int[] dirtyList;
    private int dirtyCount;
    /** The label of the uncommitted changes (-1: none yet). */
    private long label = -1;

    WarpStateTracker(Machine m, Sink sink) {
        this.m = m;
        this.sink = sink;
        this.status = new byte[m.slots];
        this.state = new WarpState[m.warps];
        this.since = new long[m.warps];
        this.steps = new long[m.warps];
        this.dirty = new boolean[m.warps];
        this.dirtyList = new int[m.warps];
        for (int s = 0; s < m.slots; s++) status[s] = m.exists(s) ? ThreadStatus.RUNNABLE : ThreadStatus.EXITED;
        for (int w = 0; w < m.warps; w++) state[w] = compute(w);
    }

    /** A thread's status changed, showing from the end of step {@code step}. */
    void status(long step, int slot, byte to) throws IOException {
        advance(step);
        if (slot < 0 || slot >= status.length) return;
        status[slot] = to;
        int w = slot >> 5;
        if (!dirty[w]) {
            dirty[w] = true;
            dirtyList[dirtyCount++] = w;
        }
    }

    /** Commits the changes labelled before {@code step}. */
    void advance(long step) throws IOException {
        if (step > label) {
            commit();
            label = step;
        }
    }

    /** Counts a warp step of {@code warp} (in the span open now). */
    void step(int warp) { steps[warp]++; }

    /** The state of {@code warp} as committed so far. */
    WarpState state(int warp) { return state[warp]; }

    private void commit() throws IOException {
        if (dirtyCount == 0) return;
        long q = (label + 1) * ChromeExport.Q;
        for (int i = 0; i < dirtyCount; i++) {
            int w = dirtyList[i];
            dirty[w] = false;
            WarpState now = compute(w);
            if (now == state[w]) continue;
            if (q > since[w]) sink.slice(w, state[w], since[w], q, steps[w]);
            state[w] = now;
            since[w] = q;
            steps[w] = 0;
        }
        dirtyCount = 0;
    }

    /** Commits everything and closes every warp's last span at {@code endQ}. */
    void finish(long endQ) throws IOException {
        commit();
        for (int w = 0; w < m.warps; w++) {
            if (endQ > since[w]) sink.slice(w, state[w], since[w], endQ, steps[w]);
            since[w] = endQ;
            steps[w] = 0;
        }
    }

    private WarpState compute(int w) { return WarpState.of(status, w << 5, m.existMask[w]); }
}
