package io.barrierscope.explore;

import io.barrierscope.exec.Policy;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ValidatedLaunch;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One side of a comparison as {@code diff} and the window's "Compare two runs" take it: a trace
 * file (its launch again under the trace's policy and seed, the trace checked to replay as
 * recorded), a launch file (.json, .ptx, .cu) or a sample directory (its launch.json), made
 * afresh from its start. Bad input is a {@link BadInputException} (with file:line:col where the
 * parser gives one).
 */
public final class RunInput {
    private RunInput() {}

    /** A fresh run of {@code input} under its own (or the launch's default) policy. */
    public static LaunchedRun open(Path input) { return open(input, null, null, null, "A"); }

    /** A fresh run of {@code input}, a launch run under {@code schedule} or {@code policy} and {@code seed} when given. */
    public static LaunchedRun open(Path input, String schedule, Long seed, String policy, String which) {
        return open(input, schedule, seed, policy, which, io.barrierscope.ptx.Cancellation.NONE);
    }

    /** As above, opening a trace or parsing a launch's PTX reporting to {@code cancel} (the command line's progress line). */
    public static LaunchedRun open(Path input, String schedule, Long seed, String policy, String which,
                                   io.barrierscope.ptx.Cancellation cancel) {
        if (Files.isDirectory(input)) input = input.resolve("launch.json");
        if (policy != null && !Policy.NAMES.contains(policy)) {
            throw new BadInputException("error: unknown policy '" + policy + "' for run " + which + " (expected round-robin, random or adversarial)");
        }
        if (schedule != null && (seed != null || policy != null)) {
            throw new BadInputException("error: run " + which + ": a schedule fixes every decision; it cannot be combined with a seed or policy");
        }
        if (isTrace(input)) {
            if (schedule != null || seed != null || policy != null) {
                throw new BadInputException("error: run " + which + " is a trace, which carries its own policy and seed");
            }
            TimeTravel tt = TraceFile.open(input, cancel); // checks the trace replays as recorded
            LaunchedRun t = tt.run();
            LaunchedRun fresh = t.again(t.policyName(), t.seed());
            fresh.raceDetection(t.raceDetection());
            return fresh;
        }
        // With its race shadow, refused up front when it cannot fit beside what is open.
        ValidatedLaunch valid = LaunchValidation.validate(input, LaunchValidation.Use.RUN, cancel);
        return schedule != null ? valid.start(new SchedulePolicy(Schedule.parse(schedule))) : valid.start(policy, seed);
    }

    /** Whether {@code p} is a BarrierScope trace (by its magic bytes, whatever its name). */
    public static boolean isTrace(Path p) {
        if (!Files.isRegularFile(p)) return false;
        try (InputStream in = Files.newInputStream(p)) {
            byte[] head = in.readNBytes(4);
            return Arrays.equals(head, new byte[] {(byte) 0x89, 'B', 'S', 'T'});
        } catch (IOException e) {
            return false;
        }
    }
}
