package io.barrierscope.check;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Diagnostics and deadlock explanations say exactly what happened (semantics.md section 12). */
class MessageAccuracyTest {
    private static final String HEADER = ".shared .align 8 .b64 bar[2];";
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\nsetp.eq.u32 %p1, %r1, 0;\n";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER);
    }

    private static String message(LaunchedRun r) {
        return r.interpreter().diagnostics().get(0).message();
    }

    @Test
    void anArriveDropNoCompleteThatWouldCompleteCitesArriveDropsSectionAndTheCountsBeforeIt() {
        // Count 3; thread 0 arrives once (pending 2), then arrive_drop.noComplete of 2 would complete the phase.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 3;\nbar.sync 0;\n@!%p1 bra DONE;\n"
                + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nmbarrier.arrive_drop.noComplete.shared::cta.b64 %rd5, [%r2], 2;\nDONE:\nret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(List.of("mbarrier-nocomplete-completed"), codes(r));
        String msg = message(r);
        assertTrue(msg.contains("9.7.13.15.14") && !msg.contains("9.7.13.15.13"), msg);
        assertTrue(msg.contains("pending 2 of 3 arrivals"), "expected count before the drop lowered it: " + msg);
    }

    @Test
    void anArriveExpectTxReportedUndefinedShowsTheTxCountBeforeIt() {
        // Count 1, never observed: phase 1's arrive.expect_tx is reported before its expect-tx changes the tx-count.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra DONE;\n"
                + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 64;\nDONE:\nret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(List.of("mbarrier-phase-unobserved"), codes(r));
        assertTrue(message(r).contains("tx-count 0)"), message(r));
        assertEquals(0, r.machine().mbarriers.at(0, 0).tx, "the reported instruction changed nothing");
    }

    @Test
    void aVectorAccessOfEightBytesIsCalledEightByte() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@%p1 st.shared.v2.u32 [%r2], {%r1, %r1};\nret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(List.of("mbarrier-clobbered"), codes(r));
        assertTrue(message(r).contains("8-byte") && !message(r).contains("4-byte"), message(r));
    }

    @Test
    void threadsThatArrivedInAnEarlierPhaseAndExitedAreNotSaidToNeverArrive() {
        // 64 threads, count 64: phase 0 completes with everyone; warp 1 exits; warp 0 arrives again and waits for phase 1.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 64;\nbar.sync 0;\nmbarrier.arrive.shared::cta.b64 %rd5, [%r2];\n"
                + "W0:\nmbarrier.try_wait.shared::cta.b64 %p2, [%r2], %rd5;\n@!%p2 bra W0;\nsetp.ge.u32 %p3, %r1, 32;\n@%p3 bra DONE;\n"
                + "mbarrier.arrive.shared::cta.b64 %rd6, [%r2];\nW1:\nmbarrier.try_wait.shared::cta.b64 %p2, [%r2], %rd6;\n@!%p2 bra W1;\n"
                + "DONE:\nret;";
        LaunchedRun r = kernel(body).threads(64).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        String t = r.deadlockText();
        assertTrue(t.contains("exited after arriving in an earlier phase"), t);
        assertFalse(t.contains("exited without arriving"), t);
    }

    @Test
    void warpsThatArrivedOnAnEarlierGenerationAndExitedAreNotSaidToNeverArrive() {
        // Two warps meet at bar.sync 1, 64; warp 1 exits; warp 0 waits at the barrier again.
        String body = "bar.sync 1, 64;\nsetp.ge.u32 %p3, %r1, 32;\n@%p3 bra DONE;\nbar.sync 1, 64;\nDONE:\nret;";
        LaunchedRun r = kernel(body).threads(64).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        String t = r.deadlockText();
        assertTrue(t.contains("exited after arriving on an earlier generation"), t);
        assertFalse(t.contains("exited threads never arrive"), t);
    }
}
