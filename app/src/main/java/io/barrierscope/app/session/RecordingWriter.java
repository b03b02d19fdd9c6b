package io.barrierscope.app.session;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.trace.ChromeExport;
import io.barrierscope.trace.TraceFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongFunction;

/**
 * Writes a session's recording out (a trace file, Chrome trace JSON) and says so in the status
 * bar's words; a failure is the user's input (a path that cannot be written), not a bug. Engine
 * thread only.
 */
final class RecordingWriter {
    private RecordingWriter() {}

    private interface Writer { void write() throws IOException; }

    /** The recording up to the frontier as a trace file; the message to show. */
    static String trace(Navigator nav, Path out) {
        return write(nav, out, () -> TraceFile.write(nav.tt, out), n -> "Saved the trace (" + n + " warp steps) to " + out);
    }

    /** The recording as Chrome trace JSON for Perfetto and chrome://tracing; the message to show. */
    static String chrome(Navigator nav, Path out) {
        return write(nav, out, () -> ChromeExport.write(nav.tt, out),
                n -> "Exported " + n + " warp steps for Perfetto (ui.perfetto.dev) to " + out);
    }

    private static String write(Navigator nav, Path out, Writer w, LongFunction<String> done) {
        if (nav == null) throw new BadInputException("Nothing to save: no file is open.");
        try {
            w.write();
        } catch (IOException | IllegalStateException e) {
            throw new BadInputException(out + ": error: cannot write: " + e.getMessage());
        }
        return done.apply(nav.tt.frontier());
    }
}
