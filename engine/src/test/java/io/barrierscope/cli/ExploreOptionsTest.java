package io.barrierscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** explore's numbers and switches are taken as what they say or refused, never given another meaning. */
class ExploreOptionsTest {
    private static final String LAUNCH = CliTest.SAMPLES.resolve("block-reduce/launch.json").toString();

    @Test
    void aTimeLimitThatIsNotANumberInRangeIsRefusedNotReadAsNoLimit() {
        // NaN and Infinity parse as doubles; NaN was read as 0 (none), Infinity wrapped and stopped the search at once.
        for (String t : new String[] {"NaN", "Infinity", "-Infinity", "1e10", "-1"}) {
            CliTest.Result r = CliTest.cli("explore", LAUNCH, "--time-limit", t, "--schedules", "1", "--jobs", "1");
            assertEquals(2, r.code(), t + ": " + r.out() + r.err());
            assertTrue(r.err().contains("--time-limit must be in 0..1e9 seconds"), r.err());
        }
    }

    @Test
    void noMinimizeWithAMinimizeTimeIsRefusedAsContradictoryNotOneSilentlyIgnored() {
        CliTest.Result r = CliTest.cli("explore", LAUNCH, "--no-minimize", "--minimize-time", "5", "--schedules", "1", "--jobs", "1");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("--no-minimize and --minimize-time contradict each other"), r.err());
    }
}
