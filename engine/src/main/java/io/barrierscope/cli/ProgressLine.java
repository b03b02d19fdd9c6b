package io.barrierscope.cli;

import io.barrierscope.ptx.Cancellation;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How far opening a trace has come, on stderr (README, "Command line"): re-executing a
 * multi-million-step trace takes a while, and a silent command looks hung. Shown on a terminal (one
 * line rewritten in place, cleared when the open ends) or when asked for with {@code --progress}
 * (then one line per phase and per tenth of the replay, for a log); otherwise nothing is written,
 * so scripted output stays as it was. It counts the engine's own progress reports (every 16,384
 * tokens parsed, every 4,096 warp steps replayed), never the clock, and never changes what is opened.
 */
final class ProgressLine {
    /** Whether this process's stderr is a terminal; set by {@link Main#main} only (tests pass writers of their own). */
    static volatile boolean stderrIsTerminal;

    private final PrintWriter err;
    private final String what;
    private final boolean inPlace;
    private String phase = "";
    private long shown = -1;
    private int width;

    private final Cancellation cancellation;

    private ProgressLine(PrintWriter err, String what, boolean inPlace, boolean shown) {
        this.err = err;
        this.what = what;
        this.inPlace = inPlace;
        this.cancellation = shown ? new Cancellation(this::progress) : Cancellation.NONE;
    }

    /** Progress of opening {@code file} on {@code err} when it is a terminal or {@code asked}; else silent. */
    static ProgressLine forOpening(Path file, PrintWriter err, boolean asked) {
        return new ProgressLine(err, "opening " + file, stderrIsTerminal, asked || stderrIsTerminal);
    }

    /** What the open is given: it reports here (never cancelled; the command line stops by ending the process). */
    Cancellation cancellation() { return cancellation; }

    /** Ends the progress: the line in place is cleared (the command's own output follows); a log gets nothing more. */
    void done() {
        if (inPlace && width > 0) {
            err.print("\r" + " ".repeat(width) + "\r");
            err.flush();
        }
    }

    private void progress(String phase, long done, long total) {
        // In place: every percent; for a log: each phase once and every tenth of it.
        long step = inPlace ? 100 : 10;
        long at = total > 0 ? Math.min(step, done * step / total) : 0;
        if (phase.equals(this.phase) && at == shown) return;
        boolean newPhase = !phase.equals(this.phase);
        this.phase = phase;
        this.shown = at;
        String text = what + ": " + describe(phase, done, total);
        if (inPlace) {
            String pad = text.length() < width ? " ".repeat(width - text.length()) : "";
            width = text.length();
            err.print("\r" + text + pad);
        } else if (newPhase || at > 0) {
            err.println(text);
        }
        err.flush();
    }

    /** The words the window's status line uses: "replaying warp step 8192 of 50000 (16%)". */
    static String describe(String phase, long done, long total) {
        String pct = total > 0 ? " (" + Math.min(100, done * 100 / total) + "%)" : "";
        return switch (phase) {
            case "read" -> "read";
            case "parse" -> "parsing the PTX, character " + done + " of " + total + pct;
            case "replay" -> "replaying warp step " + done + " of " + total + pct;
            default -> phase + " " + done + " of " + total + pct;
        };
    }

    /**
     * Whether this process's stderr is a terminal: on Linux, /proc/self/fd/2 links to /dev/pts/N or
     * /dev/ttyN; elsewhere, whether Java sees a console at all.
     */
    static boolean detectStderrTerminal() {
        Path fd = Path.of("/proc/self/fd/2");
        if (!Files.exists(Path.of("/proc/self/fd"))) return System.console() != null;
        return isTerminal(fd);
    }

    /** Whether {@code fd} (a /proc file-descriptor link) names a terminal device. */
    static boolean isTerminal(Path fd) {
        try {
            String target = Files.readSymbolicLink(fd).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
