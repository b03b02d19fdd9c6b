package io.barrierscope.exec;

import io.barrierscope.check.Diagnostic;

/**
 * Observes a run. Callbacks take primitives so the interpreter allocates nothing per step; the
 * recorder, breakpoints and the UI adapter are all listeners.
 */
public interface ExecutionListener {
    /** One warp step: {@code group} lanes of {@code warp} executed the op at {@code pc}; {@code active} passed the guard. */
    default void warpStep(long step, int warp, int pc, int group, int active) {}

    /** A warp arrived on CTA barrier {@code id} of {@code cta}. */
    default void barrierArrive(long step, int cta, int id, int warp, long generation) {}

    /** A CTA barrier generation completed. */
    default void barrierComplete(long step, int cta, int id, long generation) {}

    /** A thread exited. */
    default void threadExit(long step, int slot) {}

    default void diagnostic(Diagnostic d) {}

    /** A thread printed (device printf). */
    default void printf(long step, int slot, String text) {}
}
