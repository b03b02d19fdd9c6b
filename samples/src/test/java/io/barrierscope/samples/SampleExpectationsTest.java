package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every sample meets its launch file's expect block under every policy and 20 seeds, and the same
 * launch and seed give the identical sequence of warp steps.
 */
class SampleExpectationsTest {
    private static final List<String> POLICIES = List.of("round-robin", "random", "adversarial");

    @TestFactory
    List<DynamicTest> everySampleMeetsItsExpectationUnderEveryPolicyAndTwentySeeds() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path launch : SampleRuns.all()) {
            String name = launch.getParent().getFileName().toString();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                Map<String, List<Number>> first = null;
                for (String policy : POLICIES) {
                    for (long seed = 0; seed < (policy.equals("round-robin") ? 1 : 20); seed++) {
                        LaunchedRun r = LaunchValidation.validate(launch).start(policy, seed);
                        r.runToEnd();
                        assertEquals(List.of(), r.expectDifferences(), name + " " + policy + " seed " + seed + "\n" + r.summary());
                        if (r.interpreter().outcome() == io.barrierscope.exec.Outcome.COMPLETED) {
                            if (first == null) first = r.buffers();
                            assertEquals(first, r.buffers(), "race-free kernels give the same outputs under every schedule");
                        }
                    }
                }
            }));
        }
        assertTrue(tests.size() >= 6, "samples found: " + tests.size());
        return tests;
    }

    /** Hashes every warp step (step, warp, pc, lanes) of a run. */
    private static long stepHash(Path launch, String policy, long seed) {
        LaunchedRun r = LaunchValidation.validate(launch).start(policy, seed);
        long[] h = {1125899906842597L};
        r.interpreter().addListener(new ExecutionListener() {
            @Override
            public void warpStep(long step, int warp, int pc, int group, int active) {
                h[0] = 31 * (31 * (31 * (31 * h[0] + step) + warp) + pc) + group * 1_000_003L + active;
            }
        });
        r.runToEnd();
        return h[0] ^ r.machine().steps;
    }

    @TestFactory
    List<DynamicTest> theSameLaunchAndSeedGiveTheIdenticalSequenceOfWarpSteps() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path launch : SampleRuns.all()) {
            for (String policy : POLICIES) {
                tests.add(DynamicTest.dynamicTest(launch.getParent().getFileName() + " " + policy, () -> {
                    assertEquals(stepHash(launch, policy, 42), stepHash(launch, policy, 42));
                }));
            }
        }
        return tests;
    }

    @TestFactory
    List<DynamicTest> differentSeedsOfTheRandomPolicyGiveDifferentSchedules() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path launch : SampleRuns.all()) {
            tests.add(DynamicTest.dynamicTest(launch.getParent().getFileName().toString(), () -> {
                long a = stepHash(launch, "random", 1);
                boolean differs = false;
                for (long s = 2; s < 6 && !differs; s++) differs = stepHash(launch, "random", s) != a;
                assertTrue(differs, "the seed must steer the schedule");
            }));
        }
        return tests;
    }
}
