package io.barrierscope.trace;

import io.barrierscope.exec.Machine;
import io.barrierscope.exec.ThreadStatus;
import java.io.IOException;

/**
 * Follows the thread STATUS events of a {@link Recording} and turns them into one span of state
 * per warp at a time, for {@link ChromeExport}'s warp tracks.
 *
 * <p>The rule: a warp is <em>running</em> while any of its live lanes is runnable; <em>exited</em>
 * (or <em>trapped</em>, if a lane trapped) once none is live; otherwise it is in the state of its
 * most blocked live lane, in this order, most blocked first: waiting at barrier.cluster.wait,
 * waiting at a CTA barrier, suspended in mbarrier.try_wait, parked (re-polling an unchanged
 * mbarrier), waiting for its asynchronous copies, sleeping, then the warp-level gathers (lanes at
 * barrier.cluster or a CTA barrier waiting only for the rest of their own warp, which count as that
 * barrier's wait) and last warp syncs (a warp sync waits only for lanes of the same warp, which are
 * themselves held by one of the reasons above).
 *
 * <p>Time: a status change is given with the warp step at whose end it shows ({@code ts = L + 1}
 * on the step axis): the changes made while step L executes, or between steps L and L+1, show
 * from L + 1. The tracker works in quarter steps ({@link ChromeExport#Q}). Changes are committed
 * when a later step is named, so a lane that waits and is released before the next boundary
 * leaves no trace, and consecutive equal states merge.
 */
final class WarpStateTracker {
    /** A warp's state, named as its slices are. */
    enum State {
        RUNNING("running"),
        CLUSTER_BARRIER("waiting at cluster barrier"),
        CTA_BARRIER("waiting at CTA barrier"),
        MBARRIER("waiting on mbarrier"),
        PARKED("parked"),
        ASYNC("waiting for async copies"),
        SLEEPING("sleeping"),
        WARP_SYNC("waiting at warp sync"),
        BLOCKED("blocked"),
        EXITED("exited"),
        TRAPPED("trapped");

        final String label;

        State(String label) { this.label = label; }
    }

    /** Receives each finished span: warp, state, start and end (quarter steps), warp steps taken in it. */
    interface Sink {
        void slice(int warp, State state, long startQ, long endQ, long steps) throws IOException;
    }

    private final Machine m;
    private final Sink sink;
    private final byte[] status;
    private final State[] state;
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
        this.state = new State[m.warps];
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
    State state(int warp) { return state[warp]; }

    private void commit() throws IOException {
        if (dirtyCount == 0) return;
        long q = (label + 1) * ChromeExport.Q;
        for (int i = 0; i < dirtyCount; i++) {
            int w = dirtyList[i];
            dirty[w] = false;
            State now = compute(w);
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

    private State compute(int w) {
        int base = w << 5;
        int bestRank = -1;
        byte best = ThreadStatus.RUNNABLE;
        boolean trapped = false;
        for (int l = m.existMask[w]; l != 0; l &= l - 1) {
            byte s = status[base + Integer.numberOfTrailingZeros(l)];
            if (s == ThreadStatus.RUNNABLE) return State.RUNNING;
            if (s == ThreadStatus.EXITED) continue;
            if (s == ThreadStatus.TRAPPED) {
                trapped = true;
                continue;
            }
            int r = rank(s);
            if (r > bestRank) {
                bestRank = r;
                best = s;
            }
        }
        if (bestRank < 0) return trapped ? State.TRAPPED : State.EXITED;
        return of(best);
    }

    /** How blocked a waiting lane is (higher: more); see the class comment. */
    static int rank(byte s) {
        return switch (s) {
            case ThreadStatus.CLUSTER_WAIT -> 9;
            case ThreadStatus.BAR_WAIT -> 8;
            case ThreadStatus.MBAR_WAIT -> 7;
            case ThreadStatus.PARKED -> 6;
            case ThreadStatus.ASYNC_WAIT -> 5;
            case ThreadStatus.SLEEPING -> 4;
            case ThreadStatus.CLUSTER_GATHER -> 3;
            case ThreadStatus.BAR_GATHER -> 2;
            case ThreadStatus.WARP_SYNC -> 1;
            default -> 0;
        };
    }

    static State of(byte s) {
        return switch (s) {
            case ThreadStatus.RUNNABLE -> State.RUNNING;
            case ThreadStatus.CLUSTER_WAIT, ThreadStatus.CLUSTER_GATHER -> State.CLUSTER_BARRIER;
            case ThreadStatus.BAR_WAIT, ThreadStatus.BAR_GATHER -> State.CTA_BARRIER;
            case ThreadStatus.MBAR_WAIT -> State.MBARRIER;
            case ThreadStatus.PARKED -> State.PARKED;
            case ThreadStatus.ASYNC_WAIT -> State.ASYNC;
            case ThreadStatus.SLEEPING -> State.SLEEPING;
            case ThreadStatus.WARP_SYNC -> State.WARP_SYNC;
            case ThreadStatus.EXITED -> State.EXITED;
            case ThreadStatus.TRAPPED -> State.TRAPPED;
            default -> State.BLOCKED;
        };
    }
}
