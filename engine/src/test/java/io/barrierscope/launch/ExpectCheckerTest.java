package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How an expect block compares a buffer's values (README, "Launch files"). */
class ExpectCheckerTest {
    private static final double F32_TENTH = (double) 0.1f; // an .f32 buffer's 0.1 as the run reports it

    @Test
    void floatsMatchWithinARelativeMillionthUnlessTheBlockAsksForExactValues() {
        assertTrue(ExpectChecker.same(0.1, F32_TENTH, false));
        assertTrue(ExpectChecker.same(1.000001, 1.0, false));
        assertFalse(ExpectChecker.same(1.0001, 1.0, false));
    }

    @Test
    void anExactBlockWantsTheF32ValueTheExpectedNumberRoundsToBitForBit() {
        assertTrue(ExpectChecker.same(0.1, F32_TENTH, true), "0.1 rounds to the float the buffer holds");
        assertFalse(ExpectChecker.same(1.000001, 1.0, true));
        float next = Math.nextUp(0.1f);
        assertFalse(ExpectChecker.same(0.1, (double) next, true), "one ulp off is a difference");
        assertTrue(ExpectChecker.same(-0.0, -0.0, true));
        assertFalse(ExpectChecker.same(0.0, -0.0, true), "the sign of zero is part of the bits");
    }

    @Test
    void anExactBlockComparesF64ValuesAsTheDoubleTheNumberReadsAs() {
        double third = 1.0 / 3.0;
        assertTrue(ExpectChecker.same(third, third, true));
        assertFalse(ExpectChecker.same(third, Math.nextUp(third), true));
    }
}
