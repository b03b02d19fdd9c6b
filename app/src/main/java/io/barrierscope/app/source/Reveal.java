package io.barrierscope.app.source;

/**
 * A request to bring a 1-based line into view. The serial makes a second request for the same
 * line a change, so the pane scrolls back to it after the user scrolled away.
 */
public record Reveal(int line, long serial) {
    public static final Reveal NONE = new Reveal(0, 0);

    Reveal next(int newLine) { return new Reveal(newLine, serial + 1); }
}
