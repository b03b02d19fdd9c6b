package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The async latency model the policies draw from. */
class AsyncLatencyTest {
    @Test
    void seededPoliciesWithoutASettingDrawAsTheyAlwaysDid() {
        // 20 + nextInt(600) is what traces written before the setting existed were drawn with.
        RandomPolicy p = new RandomPolicy(11);
        SplitMix64 old = new SplitMix64(11);
        for (int i = 0; i < 1000; i++) assertEquals(20 + old.nextInt(600), p.asyncLatency());
    }

    @Test
    void aSeededPolicyDrawsEveryValueOfItsRangeAndNothingElse() {
        AdversarialPolicy p = new AdversarialPolicy(5, new AsyncLatency(50, 53));
        boolean[] seen = new boolean[4];
        for (int i = 0; i < 1000; i++) {
            long v = p.asyncLatency();
            assertTrue(v >= 50 && v <= 53, "drew " + v);
            seen[(int) (v - 50)] = true;
        }
        for (boolean s : seen) assertTrue(s);
    }

    @Test
    void roundRobinUsesTheMiddleOfTheRangeOrOneHundredCycles() {
        assertEquals(100, new RoundRobinPolicy().asyncLatency());
        assertEquals(20, new RoundRobinPolicy(new AsyncLatency(10, 30)).asyncLatency());
    }

    @Test
    void anEmptyOrNonPositiveRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new AsyncLatency(0, 5));
        assertThrows(IllegalArgumentException.class, () -> new AsyncLatency(9, 8));
        assertThrows(IllegalArgumentException.class, () -> new AsyncLatency(1, AsyncLatency.LIMIT + 1));
    }
}
