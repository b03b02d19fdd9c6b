package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.SplitMix64;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.StateHash;
import io.barrierscope.trace.TimeTravel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Seek and reverse stepping on real kernels: every state reached again is the state first reached there. */
class TimeTravelSamplesTest {
    static List<Path> samples() throws java.io.IOException { return SampleRuns.all(); }

    /** Runs forward one warp step at a time, hashing the state after each; index = warp steps executed. */
    private static long[] forwardHashes(TimeTravel tt) {
        List<Long> h = new ArrayList<>();
        h.add(StateHash.of(tt.interpreter()));
        while (!tt.atEnd()) {
            tt.step();
            if (tt.now() == h.size()) h.add(StateHash.of(tt.interpreter()));
            else h.set((int) tt.now(), StateHash.of(tt.interpreter()));
        }
        return h.stream().mapToLong(Long::longValue).toArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void seekingToRandomStepsReachesTheStateFirstReachedThere(Path launch) {
        LaunchedRun run = LaunchValidation.validate(launch).start("random", 11L);
        TimeTravel tt = new TimeTravel(run);
        long[] hashes = forwardHashes(tt);
        long end = tt.now();
        assertEquals(hashes.length - 1, end);
        SplitMix64 rng = new SplitMix64(launch.toString().hashCode());
        for (int i = 0; i < 25; i++) {
            long target = rng.nextInt((int) end + 1);
            tt.seek(target);
            assertEquals(target, tt.now());
            assertEquals(hashes[(int) target], StateHash.of(tt.interpreter()), "after seek to " + target);
        }
        tt.seek(end);
        assertTrue(tt.atEnd());
        assertEquals(hashes[(int) end], StateHash.of(tt.interpreter()));
        assertEquals(run.spec().expect() == null || run.expectDifferences().isEmpty(), true, "expect still met after travelling");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tma-pipeline", "mbarrier-parity-pipeline", "cluster-remote-arrive", "mbarrier-init-count-too-high"})
    void steppingBackRetracesTheRunStepByStep(String sample) {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SampleRuns.launch(sample)).start("adversarial", 5L));
        long[] hashes = forwardHashes(tt);
        for (int i = 0; i < 120 && tt.now() > 0; i++) {
            tt.stepBack();
            assertEquals(hashes[(int) tt.now()], StateHash.of(tt.interpreter()), "at " + tt.now());
        }
        // And forward again from the middle, re-executing what was recorded.
        long mid = tt.now();
        while (!tt.atEnd()) tt.step();
        assertEquals(hashes.length - 1, tt.now());
        assertEquals(hashes[hashes.length - 1], StateHash.of(tt.interpreter()));
        assertTrue(mid >= 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"block-reduce", "bulk-copy-pipeline"})
    void recordingDoesNotChangeTheRun(String sample) {
        LaunchedRun plain = LaunchValidation.validate(SampleRuns.launch(sample)).start("random", 3L);
        plain.runToEnd();
        LaunchedRun recorded = LaunchValidation.validate(SampleRuns.launch(sample)).start("random", 3L);
        TimeTravel tt = new TimeTravel(recorded);
        tt.runForward(() -> false);
        assertEquals(StateHash.of(plain.interpreter()), StateHash.of(recorded.interpreter()));
        assertEquals(plain.machine().steps, tt.recording().steps());
        assertTrue(tt.recording().finished());
    }

    @ParameterizedTest
    @ValueSource(strings = {"tma-pipeline", "block-reduce"})
    void theSameSeedRecordsTheSameEvents(String sample) {
        TimeTravel a = new TimeTravel(LaunchValidation.validate(SampleRuns.launch(sample)).start("random", 9L));
        a.runForward(() -> false);
        TimeTravel b = new TimeTravel(LaunchValidation.validate(SampleRuns.launch(sample)).start("random", 9L));
        b.runForward(() -> false);
        assertTrue(a.recording().sameEvents(b.recording()));
        // Travelling back and forth does not add or reorder events.
        a.seek(a.now() / 2);
        a.stepBack();
        a.runForward(() -> false);
        assertTrue(a.recording().sameEvents(b.recording()));
    }
}
