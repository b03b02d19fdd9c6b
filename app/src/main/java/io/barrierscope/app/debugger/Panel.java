package io.barrierscope.app.debugger;

/**
 * The tabs beside the source; a request to show one carries a serial, so asking again for the
 * same tab after the user moved away is still a change.
 */
public enum Panel {
    THREADS, DIAGNOSTICS, CONSOLE, DEADLOCK, LESSON, REPORT, BREAKPOINTS, EXPLORE;

    /** A request to bring a panel to the front. */
    public record Request(Panel panel, long serial) {
        static final Request NONE = new Request(THREADS, 0);

        Request next(Panel p) { return new Request(p, serial + 1); }
    }
}
