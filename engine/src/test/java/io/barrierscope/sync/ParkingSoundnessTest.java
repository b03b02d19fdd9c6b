package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Parking is sound (semantics.md section 12): a polling loop that something else can still end is
 * never declared deadlocked; one that nothing can end still parks at once.
 */
class ParkingSoundnessTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 4 .b32 flag;";
    /** bar with count 1 that nobody arrives on; warp 0 polls it; warp 1 runs WORK. */
    private static final String START = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\nmov.u32 %r3, flag;\nsetp.eq.u32 %p1, %r1, 0;\n"
            + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\nsetp.ge.u32 %p5, %r1, 32;\n@%p5 bra WORK;\nmov.u32 %r4, 0;\n";

    private static PtxRun kernel(String poller, String work) {
        return PtxRun.kernel(START + poller + "WORK:\n" + work).header(HEADER).threads(64).maxSteps(2_000_000);
    }

    @Test
    void aPollerWhoseLoopAlsoLoadsAFlagIsReleasedByTheFlagWrittenLater() {
        // Warp 1 sleeps 20 us of virtual time, then sets the flag; warp 0 has long parked by then.
        String poll = "POLL:\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@%p2 bra DONE;\n"
                + "ld.volatile.shared.u32 %r5, [%r3];\nsetp.ne.u32 %p3, %r5, 0;\n@!%p3 bra POLL;\nDONE:\nret;\n";
        String work = "nanosleep.u32 20000;\nnanosleep.u32 20000;\nmov.u32 %r6, 1;\n@%p5 st.volatile.shared.u32 [%r3], %r6;\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(poll, work).policy(policy, 2).run();
            assertEquals(Outcome.COMPLETED, outcome(r), policy + "\n" + r.summary());
        }
    }

    @Test
    void aTryWaitLoopReleasedByACopyLandingInWhatItReadsCompletes() {
        // The flag is written by a cp.async that lands while warp 1 waits for it: a write by no thread's step.
        String poll = "POLL:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@%p2 bra DONE;\n"
                + "ld.shared.u32 %r5, [%r3];\nsetp.ne.u32 %p3, %r5, 0;\n@!%p3 bra POLL;\nDONE:\nret;\n";
        String work = "setp.eq.u32 %p6, %r1, 32;\n@!%p6 ret;\nld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\n"
                + "add.s64 %rd2, %rd2, 4;\nnanosleep.u32 50000;\ncp.async.ca.shared.global [%r3], [%rd2], 4;\ncp.async.wait_all;\nret;";
        // The copy's write and the pollers' reads are unordered on purpose: this test is about parking.
        LaunchedRun r = kernel(poll, work).buffer("in", 4, ScalarType.U32, "iota").racy().run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void aPollingLoopWithAGlobaltimerTimeoutEndsByItsTimeout() {
        String poll = "mov.u64 %rd3, %globaltimer;\nPOLL:\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@%p2 bra DONE;\n"
                + "mov.u64 %rd4, %globaltimer;\nsub.s64 %rd5, %rd4, %rd3;\nsetp.lt.s64 %p3, %rd5, 5000;\n@%p3 bra POLL;\nDONE:\nret;\n";
        LaunchedRun r = kernel(poll, "ret;").run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void aTestWaitLoopWithAnIterationLimitEndsAfterItsLastIteration() {
        String poll = "mov.u32 %r7, 0;\nPOLL:\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@%p2 bra DONE;\n"
                + "add.u32 %r7, %r7, 1;\nsetp.lt.u32 %p3, %r7, 40;\n@%p3 bra POLL;\nDONE:\nret;\n";
        LaunchedRun r = kernel(poll, "ret;").run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void aLoopLeftByABranchToALabelAtTheClosingBraceEndsAfterItsLastIteration() {
        // END labels the function's closing brace (no instruction after it): that branch leaves the loop too.
        String poll = "mov.u32 %r7, 0;\nPOLL:\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@%p2 bra END;\n"
                + "add.u32 %r7, %r7, 1;\nsetp.ge.u32 %p3, %r7, 40;\n@%p3 bra END;\nbra POLL;\n";
        LaunchedRun r = kernel(poll, "ret;\nEND:\n").run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void aLoopThatNothingCanEndStillParksAtOnce() {
        // A counter that decides nothing, and a flag that is loaded but that nobody writes: deadlock, found in a few steps.
        String poll = "mov.u32 %r7, 0;\nPOLL:\nadd.u32 %r7, %r7, 1;\nld.shared.u32 %r5, [%r3];\nsetp.ne.u32 %p3, %r5, 0;\n@%p3 bra DONE;\n"
                + "mbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@!%p2 bra POLL;\nDONE:\nret;\n";
        LaunchedRun r = kernel(poll, "ret;").run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertTrue(r.machine().steps < 200, "parked, not spun: " + r.machine().steps);
    }

    @Test
    void aPollsLoopIsAnalysedWhenTheProgramIsCompiledNotByItsRuns() {
        String poll = "POLL:\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@%p2 bra DONE;\n"
                + "ld.volatile.shared.u32 %r5, [%r3];\nsetp.ne.u32 %p3, %r5, 0;\n@!%p3 bra POLL;\nDONE:\nret;\n";
        LaunchedRun r = kernel(poll, "ret;").launch();
        int polls = 0;
        for (io.barrierscope.exec.Op op : r.machine().program.code) {
            if (!(op instanceof MbarrierWaitOp w)) continue;
            polls++;
            PollLoop l = w.linkedLoop();
            assertTrue(l != null && l.parkable && l.readsMemory, "loop set at compile time, before step 0");
            assertEquals(0, r.machine().steps);
        }
        assertEquals(1, polls);
    }
}
