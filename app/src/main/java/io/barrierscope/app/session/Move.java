package io.barrierscope.app.session;

/**
 * The ways the session moves through a run, each forward move with its reverse. "Focused warp"
 * is the warp of the thread chosen in the threads pane, else the warp the views follow.
 */
public enum Move {
    /** One warp step, whichever warp the scheduler picks. */
    STEP(true),
    /** Until the focused warp has taken a step. */
    STEP_WARP(true),
    /** Until the focused warp has passed its next instruction, even a barrier it must wait at. */
    STEP_OVER(true),
    /** To the next breakpoint hit or the end of the run. */
    CONTINUE(true),
    STEP_BACK(false),
    /** Back to before the focused warp's previous step. */
    STEP_BACK_WARP(false),
    /** Back to before the last barrier or wait the focused warp executed. */
    STEP_BACK_OVER(false),
    /** Back to the previous breakpoint hit, or the start. */
    REVERSE_CONTINUE(false);

    public final boolean forward;

    Move(boolean forward) { this.forward = forward; }

    /** Whether the move is about the focused warp. */
    public boolean warpMove() {
        return this == STEP_WARP || this == STEP_OVER || this == STEP_BACK_WARP || this == STEP_BACK_OVER;
    }
}
