package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * ISA probes: one small nvcc-compiled kernel per normative sentence of PTX ISA 9.7.13 (bar/barrier,
 * bar.warp.sync, barrier.cluster, fences and proxy fences, vote/match/redux/elect.sync,
 * griddepcontrol, every mbarrier form). Each probe's launch.json says,
 * from the ISA text alone, what must happen (values, completion, deadlock or the diagnostic for
 * undefined behaviour); the probe's .cu names the sentence. Every probe must meet its expect
 * block under every policy and several seeds: a schedule must never change what the ISA defines.
 */
class IsaProbesTest {
    private static final Path ROOT = Path.of("src/test/resources/isa-probes");
    private static final List<String> POLICIES = List.of("round-robin", "random", "adversarial");

    static List<Path> probes() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.map(d -> d.resolve("launch.json")).filter(Files::exists).sorted().toList();
        }
    }

    @TestFactory
    List<DynamicTest> everyIsaProbeMeetsWhatTheIsaTextPredictsUnderEveryPolicy() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path launch : probes()) {
            String name = launch.getParent().getFileName().toString();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                for (String policy : POLICIES) {
                    for (long seed = 0; seed < (policy.equals("round-robin") ? 1 : 4); seed++) {
                        LaunchedRun r = LaunchValidation.validate(launch).start(policy, seed);
                        r.runToEnd();
                        assertEquals(List.of(), r.expectDifferences(), name + " " + policy + " seed " + seed + "\n" + r.summary());
                    }
                }
            }));
        }
        assertTrue(tests.size() >= 200, "probes found: " + tests.size());
        return tests;
    }
}
