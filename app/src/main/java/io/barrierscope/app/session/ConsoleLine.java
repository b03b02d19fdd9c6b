package io.barrierscope.app.session;

/**
 * One device printf call as the console shows it: the warp step that printed it (its label in
 * the recording), the thread (slot and name, e.g. "CTA (0,0,0) thread (5,0,0)"), the text as
 * formatted (it may hold newlines) and the PTX line of the call, 0 if unknown.
 */
public record ConsoleLine(long step, int slot, String thread, String text, int ptxLine) {
    /** The position that shows the line printed: the state right after its step. */
    public long stopStep() { return step + 1; }

    /** The global warp of the thread. */
    public int warp() { return slot >> 5; }
}
