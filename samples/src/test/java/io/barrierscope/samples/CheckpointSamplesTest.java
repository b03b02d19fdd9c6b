package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Interpreter;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.Checkpoint;
import io.barrierscope.trace.StateHash;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Time travel on real nvcc PTX: for every sample, checkpoints taken along a seeded random run,
 * restored latest first (as reverse steps do) and re-executed, retrace the run's state hashes
 * and end the same way.
 */
class CheckpointSamplesTest {
    private static final long[] SEEDS = {1, 7};
    /** Hashes recorded per run (at most): enough to catch a divergence soon after it starts. */
    private static final int HASHES = 100;
    private static final int CHECKPOINTS = 5;

    /** A run's state hash at some steps, and how it ended. */
    private record Trace(Map<Long, Long> hashes, String outcome, Object buffers) {}

    @TestFactory
    List<DynamicTest> restoredCheckpointsRetraceEverySampleUnderTheRandomPolicy() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path launch : SampleRuns.all()) {
            tests.add(DynamicTest.dynamicTest(launch.getParent().getFileName().toString(), () -> {
                for (long seed : SEEDS) retraces(launch, seed);
            }));
        }
        assertTrue(tests.size() >= 6, "samples found: " + tests.size());
        return tests;
    }

    private static void retraces(Path launch, long seed) {
        LaunchedRun r = LaunchValidation.validate(launch).start("random", seed);
        // A first run, to learn its length, then back to the start: a restore already, and cheaper than re-opening.
        Checkpoint start = Checkpoint.take(r.interpreter());
        r.runToEnd();
        long length = r.machine().steps;
        start.restoreInto(r.interpreter());
        long every = Math.max(1, length / HASHES);
        List<Checkpoint> checkpoints = new ArrayList<>();
        Trace original = run(r, every, checkpoints, Math.max(1, length / CHECKPOINTS));
        assertTrue(checkpoints.size() >= Math.min(CHECKPOINTS, length), "checkpoints taken: " + checkpoints.size());
        for (int i = checkpoints.size() - 1; i >= 0; i--) {
            Checkpoint cp = checkpoints.get(i);
            cp.restoreInto(r.interpreter());
            assertEquals(cp.step(), r.machine().steps);
            Trace again = run(r, every, null, 0);
            String what = launch.getParent().getFileName() + " seed " + seed + " from step " + cp.step();
            for (Map.Entry<Long, Long> e : again.hashes().entrySet()) {
                assertEquals(original.hashes().get(e.getKey()), e.getValue(), what + ": state at step " + e.getKey());
            }
            assertEquals(original.outcome(), again.outcome(), what);
            assertEquals(original.buffers(), again.buffers(), what);
        }
    }

    /**
     * Steps to the end (or the launch's step limit), hashing the state after every step that
     * leaves the step count a multiple of {@code every}, and at the end; when {@code checkpoints}
     * is given, takes one every {@code stride} steps.
     */
    private static Trace run(LaunchedRun r, long every, List<Checkpoint> checkpoints, long stride) {
        Interpreter x = r.interpreter();
        Map<Long, Long> hashes = new LinkedHashMap<>();
        long nextCheckpoint = 0;
        while (x.machine().steps < r.maxSteps()) {
            if (checkpoints != null && x.machine().steps >= nextCheckpoint) {
                checkpoints.add(Checkpoint.take(x));
                nextCheckpoint = x.machine().steps + stride;
            }
            if (!x.step()) break;
            if (x.machine().steps % every == 0) hashes.put(x.machine().steps, StateHash.of(x));
        }
        hashes.put(-1L, StateHash.of(x));
        String outcome = x.outcome() + " " + x.diagnostics() + " " + x.printfLines();
        return new Trace(hashes, outcome, r.buffers());
    }
}
