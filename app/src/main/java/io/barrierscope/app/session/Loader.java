package io.barrierscope.app.session;

import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.ValidatedLaunch;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Cancellation;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns a file into a recorded session: a launch file, a bare PTX (with launch settings, else
 * the command line's defaults), a trace (re-executed and checked by the engine), or a launch
 * bundle folder (its trace, else its launch file). Engine
 * thread only: opening compiles and, for a trace, replays.
 */
final class Loader {
    /** A session and what to tell the user about how it was opened ("" if nothing special). */
    record Loaded(TimeTravel travel, String note, boolean trace) {}

    private Loader() {}

    /**
     * The file a path opens: a folder is a launch bundle (what {@code barrierscope exec} writes),
     * opened as its trace (shown at its last step, the failing one) or, without one, its launch file.
     */
    static Path resolve(Path path) {
        if (!Files.isDirectory(path)) return path;
        for (String f : List.of("trace.bstrace", "launch.json")) {
            if (Files.isRegularFile(path.resolve(f))) return path.resolve(f);
        }
        throw new BadInputException(path + " is a folder but not a launch bundle: it holds neither trace.bstrace nor launch.json");
    }

    static Loaded load(Path asked, LaunchSettings ptxSettings) { return load(asked, ptxSettings, Cancellation.NONE); }

    /**
     * As {@link #load(Path, LaunchSettings)}; {@code cancel} stops the PTX parse and a trace's
     * replay midway ({@link Cancellation.Cancelled}). A launch whose memory, race shadow included,
     * cannot fit the heap is refused before it runs.
     */
    static Loaded load(Path asked, LaunchSettings ptxSettings, Cancellation cancel) {
        Path path = resolve(asked);
        String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".bstrace")) {
            TimeTravel tt = TraceFile.open(path, cancel);
            String outcome = tt.atEnd() ? tt.interpreter().outcome().jsonName() : "not finished";
            return new Loaded(tt, "Opened trace " + path.getFileName() + ": " + tt.frontier() + " warp steps recorded ("
                    + outcome + "), shown at its last step: Shift+F10 steps back, Ctrl+R goes to the start", true);
        }
        if (name.endsWith(".cu")) {
            // Compiled with nvcc when it is installed (into a temporary directory), else the message says how.
            Path ptx = io.barrierscope.launch.NvccCompiler.compile(path);
            LaunchSettings s = ptxSettings != null ? ptxSettings : LaunchSettings.defaults();
            return new Loaded(new TimeTravel(ptxRun(ptx, s)), "Compiled " + path.getFileName() + " with nvcc to " + ptx
                    + "; no launch file: launched with " + s.describe(), false);
        }
        if (name.endsWith(".ptx")) {
            LaunchSettings s = ptxSettings != null ? ptxSettings : LaunchSettings.defaults();
            String note = ptxSettings != null ? "No launch file: launched with " + s.describe()
                    : "No launch file: the command line's defaults (" + s.describe() + "); File > Open asks for others";
            return new Loaded(new TimeTravel(ptxRun(path, s)), note, false);
        }
        // Read, checked and planned in one place, its memory with the race shadow counted against the heap.
        return new Loaded(new TimeTravel(LaunchValidation.validate(path, LaunchValidation.Use.RUN, cancel).start()), "", false);
    }

    /** The same launch and PTX again under another policy and seed. */
    static Loaded rerun(TimeTravel old, String policy, long seed) {
        LaunchedRun r = old.run();
        LaunchedRun fresh = r.launch().start(policy, seed); // nothing read or checked again
        return new Loaded(new TimeTravel(fresh), "Re-ran with policy " + policy + ", seed " + seed, false);
    }

    /** A bare PTX launched with the given settings; buffers and parameters as the command line makes them. */
    private static LaunchedRun ptxRun(Path ptx, LaunchSettings s) {
        ValidatedLaunch base = LaunchValidation.validate(ptx); // the engine's defaults: arguments, buffers, notes
        LaunchSpec d = base.spec();
        List<String> notes = new ArrayList<>(d.notes());
        if (!notes.isEmpty()) notes.set(0, "no launch file: running " + base.program().kernel.name() + " with " + s.describe());
        LaunchSpec spec = new LaunchSpec(d.file(), d.ptx(), d.kernel(), s.grid(), s.block(), s.cluster(), d.args(),
                d.dynamicSharedBytes(), d.expect(), s.policy(), s.seed(), d.maxSteps(), List.copyOf(notes), d.buffers());
        return LaunchValidation.validate(spec, base.ptxText()).start(s.policy(), s.seed());
    }
}
