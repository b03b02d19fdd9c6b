package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** exec's --kernel pattern is matched within a budget: it runs on the thread that serves the program's launches. */
class KernelFilterTest {
    private static LaunchOptions with(String regex) {
        LaunchOptions d = LaunchOptions.defaults();
        return new LaunchOptions(d.policy(), d.seed(), d.maxSteps(), d.race(), d.bundleDir(), true, Pattern.compile(regex), d.onFailure());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard: unbounded, this match takes hours (C(60,20) ways to split the name)
    void aPatternThatBacktracksWithoutEndGivesUpOnTheNameInsteadOfHangingTheProgram() {
        LaunchOptions o = with("(.*a){20}$");
        String name = "_Z" + "a".repeat(60) + "c";
        assertNull(o.kernelMatches(name), "over budget: said, not hung");
        assertFalse(o.bundles(name, true), "that launch gets no bundle");
    }

    @Test
    void anOrdinaryPatternStillSelectsKernelsByName() {
        LaunchOptions o = with("gemm");
        assertEquals(Boolean.TRUE, o.kernelMatches("_Z9sgemm_tiledPfS_"));
        assertEquals(Boolean.FALSE, o.kernelMatches("_Z6reducePi"));
        assertTrue(o.bundles("_Z9sgemm_tiledPfS_", false));
    }
}
