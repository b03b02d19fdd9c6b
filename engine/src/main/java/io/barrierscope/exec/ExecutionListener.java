package io.barrierscope.exec;

import io.barrierscope.diag.Diagnostic;

/**
 * Observes a run. Callbacks take primitives so the interpreter allocates nothing per step; the
 * recorder, breakpoints and the UI adapter are all listeners. {@code step} is the warp step the
 * event belongs to: the index of the step being taken, including what happens just before it
 * (a copy landing, a sleeper waking), so the state after N steps holds the events labelled below N.
 */
public interface ExecutionListener {
    /** One warp step: {@code group} lanes of {@code warp} executed the op at {@code pc}; {@code active} passed the guard. */
    default void warpStep(long step, int warp, int pc, int group, int active) {}

    /**
     * Whether to call {@link #warpStep} (a call per step is a large share of a run's cost, so a
     * listener that needs no steps says so). Asked when the listener is added, and again when it
     * calls {@link Interpreter#listenersChanged}.
     */
    default boolean takesWarpSteps() { return true; }

    /** A synchronization event; see {@link SyncEvent} for the meaning of object, a and b. */
    default void syncEvent(long step, SyncEvent kind, int slot, long object, long a, long b) {}

    /**
     * Threads' status changed (see {@link ThreadStatus}): waits beginning and ending, parking,
     * exits. {@code lanes} of {@code warp} changed together from {@code from} to {@code to}.
     */
    default void statusChange(long step, int warp, int lanes, byte from, byte to) {}

    /**
     * A warp's lanes arrived on a CTA barrier and began to wait: the most frequent pair of events
     * of a barrier-heavy kernel, told in one call. It means exactly the status change of
     * {@code lanes} from RUNNABLE to BAR_WAIT followed by the {@link SyncEvent#BAR_ARRIVE} event,
     * which is what the default does.
     */
    default void barrierArriveWait(long step, int warp, int lanes, long object, long generation) {
        statusChange(step, warp, lanes, ThreadStatus.RUNNABLE, ThreadStatus.BAR_WAIT);
        syncEvent(step, SyncEvent.BAR_ARRIVE, (warp << 5) + Integer.numberOfTrailingZeros(lanes), object, generation, lanes);
    }

    /**
     * A CTA barrier generation completed, releasing whole warps: the warps {@code firstWarp + i}
     * for each bit i of {@code released} (a mask over the CTA's warps) change from BAR_WAIT to
     * RUNNABLE, in order, then the {@link SyncEvent#BAR_COMPLETE} event, which is what the default does.
     */
    default void barrierCompleteRelease(long step, int firstWarp, long released, long object, long generation) {
        for (long r = released; r != 0; r &= r - 1) {
            statusChange(step, firstWarp + Long.numberOfTrailingZeros(r), -1, ThreadStatus.BAR_WAIT, ThreadStatus.RUNNABLE);
        }
        syncEvent(step, SyncEvent.BAR_COMPLETE, -1, object, generation, released);
    }

    /** Virtual time jumped to {@code cycles} because nothing could run until a wake-up or a copy landing. */
    default void timeJump(long step, long cycles) {}

    default void diagnostic(Diagnostic d) {}

    /** A thread printed (device printf). */
    default void printf(long step, int slot, String text) {}

    /** The run ended with {@code outcome} (completed, deadlock, diagnosed, step limit). */
    default void finished(long step, Outcome outcome) {}
}
