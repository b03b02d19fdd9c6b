package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import org.junit.jupiter.api.Test;

/**
 * PTX ISA 9.7.13.15.16: "The optional 32-bit unsigned integer operand suspendTimeHint specifies the
 * time limit, in nanoseconds, that may be used for the time limit instead of the system-dependent
 * limit." Read on the virtual clock through %globaltimer (nanoseconds).
 */
class MbarrierSuspendTimeHintTest {
    private static String wait(String hint) {
        return "mov.u64 %rd5, %globaltimer;\nmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0" + hint + ";\n"
                + "mov.u64 %rd6, %globaltimer;\nsub.u64 %rd7, %rd6, %rd5;\n";
    }

    @Test
    void aHintedTryWaitOnAPhaseThatNeverCompletesReturnsFalseWhenItsHintInNanosecondsHasPassed() {
        // Two arrivals expected, none made: the phase never completes, so only the time limit ends the wait.
        String body = ".shared .align 8 .b64 bar;\nmov.u32 %r2, bar;\nmbarrier.init.shared::cta.b64 [%r2], 2;\n"
                + wait(", 3000") + ExecKernel.x(0, "%rd7") + ExecKernel.wp(0, "%p1")
                + wait(", 25000") + ExecKernel.x(1, "%rd7") + ExecKernel.wp(1, "%p1")
                + wait("") + ExecKernel.x(2, "%rd7");
        LaunchedRun r = ExecKernel.of(body).ok();
        long hinted = ExecKernel.x(r, 0);
        long longer = ExecKernel.x(r, 1);
        long unhinted = ExecKernel.x(r, 2);
        assertEquals(0, ExecKernel.w(r, 0), "the phase is not complete: false");
        assertEquals(0, ExecKernel.w(r, 1));
        assertTrue(hinted >= 3000 && hinted < unhinted, "3000 ns hint: returned after " + hinted + " ns (no hint: " + unhinted + ")");
        assertTrue(longer >= 25000 && longer > unhinted, "25000 ns hint, above the default: returned after " + longer + " ns");
    }
}
