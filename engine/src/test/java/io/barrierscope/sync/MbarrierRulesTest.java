package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static io.barrierscope.testing.PtxRun.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per mbarrier rule of semantics.md section 6 (PTX ISA 9.7.13.15). */
class MbarrierRulesTest {
    private static final String HEADER = ".shared .align 8 .b64 bar[2];\n.shared .align 4 .b8 data[1024];";
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\nsetp.eq.u32 %p1, %r1, 0;\n";
    /** Thread 0 initialises bar[0] with count COUNT, then the CTA syncs. */
    private static final String INIT = "@%p1 mbarrier.init.shared::cta.b64 [%r2], COUNT;\nbar.sync 0;\n";
    private static final String STORE_R10 = "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmul.wide.u32 %rd3, %r1, 4;\n"
            + "add.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r10;\n";

    private static PtxRun kernel(int count, String body) {
        return PtxRun.kernel(REGS + INIT.replace("COUNT", String.valueOf(count)) + body).header(HEADER);
    }

    private static Mbarrier bar0(LaunchedRun r) {
        return r.machine().mbarriers.at(0, 0);
    }

    @Test
    void everyThreadArrivesAndTokenWaitsCompleteThePhase() {
        String body = "mbarrier.arrive.shared::cta.b64 %rd5, [%r2];\nWAIT:\nmbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\n"
                + "@!%p2 bra WAIT;\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(64, body).threads(64).policy(policy, 5).run();
            assertEquals(Outcome.COMPLETED, outcome(r), policy + "\n" + r.summary());
            assertEquals(1, bar0(r).phase);
            assertEquals(64, bar0(r).pending, "pending resets to expected");
        }
    }

    @Test
    void parityWaitsFollowThePhaseThroughALoop() {
        // 5 rounds: everyone arrives and waits for the round's parity.
        String body = "mov.u32 %r3, 0;\nLOOP:\nmbarrier.arrive.shared::cta.b64 _, [%r2];\nand.b32 %r4, %r3, 1;\n"
                + "WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@!%p2 bra WAIT;\n"
                + "add.u32 %r3, %r3, 1;\nsetp.lt.u32 %p3, %r3, 5;\n@%p3 bra LOOP;\nret;";
        LaunchedRun r = kernel(96, body).threads(96).policy("random", 2).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(5, bar0(r).phase);
    }

    @Test
    void aFreshBarrierWaitedWithParityOnePassesAtOnce() {
        String body = "mov.u32 %r4, 1;\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\nselp.u32 %r10, 1, 0, %p2;\n" + STORE_R10 + "ret;";
        LaunchedRun r = kernel(32, body).buffer("out", 32).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (long v : u32(r, "out")) assertEquals(1, v);
    }

    @Test
    void aFreshBarrierWaitedWithParityZeroDeadlocksQuicklyAndExplainsWhy() {
        String body = "mov.u32 %r4, 0;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@!%p2 bra WAIT;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertTrue(r.machine().steps < 200, "parked, not spun to the step limit: " + r.machine().steps);
        String t = r.deadlockText();
        assertTrue(t.contains("mbarrier bar"), t);
        assertTrue(t.contains("parity 0") && t.contains("phase 0"), t);
        assertTrue(t.contains("1 of 1 arrivals still pending"), t);
    }

    @Test
    void anInitCountOneTooHighDeadlocksShowingOnePendingArrival() {
        String body = "mbarrier.arrive.shared::cta.b64 %rd5, [%r2];\nWAIT:\nmbarrier.try_wait.shared::cta.b64 %p2, [%r2], %rd5;\n"
                + "@!%p2 bra WAIT;\nret;";
        LaunchedRun r = kernel(33, body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertEquals(1, bar0(r).pending);
        assertTrue(r.deadlockText().contains("1 of 33 arrivals still pending"), r.deadlockText());
    }

    @Test
    void aThreadThatExitedWithoutArrivingIsNamedEvenWhenItsWarpLivesOn() {
        // Thread 37 returns before arriving; its 31 warp-mates and warp 0 arrive and wait for the 64th arrival.
        String body = "setp.eq.u32 %p3, %r1, 37;\n@%p3 ret;\n" + "mbarrier.arrive.shared::cta.b64 %rd5, [%r2];\nWAIT:\n"
                + "mbarrier.try_wait.shared::cta.b64 %p2, [%r2], %rd5;\n@!%p2 bra WAIT;\nret;";
        LaunchedRun r = kernel(64, body).threads(64).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertTrue(r.deadlockText().contains("warp 1 lanes 5: exited without arriving"), r.deadlockText());
        assertTrue(!r.deadlockText().contains("the expected count 64 is more than"), "the count is not to blame: " + r.deadlockText());
    }

    @Test
    void spinningWithTestWaitOnAnUnchangingBarrierParksInsteadOfRunningToTheStepLimit() {
        String body = "mov.u32 %r4, 0;\nWAIT:\nadd.u32 %r5, %r5, 1;\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n"
                + "@!%p2 bra WAIT;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).maxSteps(100_000).run();
        assertEquals(Outcome.DEADLOCK, outcome(r));
        assertTrue(r.machine().steps < 100);
    }

    @Test
    void aPollerWithStoresBetweenPollsIsNotParked() {
        // Thread 0 is the only arriver but first counts to 20 with stores; the others poll with stores in between.
        String body = "@%p1 bra PRODUCE;\nWAIT:\nst.shared.u32 [data], %r1;\nmov.u32 %r4, 0;\n"
                + "mbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@!%p2 bra WAIT;\nret;\n"
                + "PRODUCE:\nmov.u32 %r6, 0;\nL:\nadd.u32 %r6, %r6, 1;\nsetp.lt.u32 %p3, %r6, 20;\n@%p3 bra L;\n"
                + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nret;";
        // The pollers' stores all go to one word: a race on purpose, this test is about parking.
        LaunchedRun r = kernel(1, body).threads(64).racy().run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void initOnAValidObjectIsReinit() {
        LaunchedRun r = kernel(32, "@%p1 mbarrier.init.shared::cta.b64 [%r2], 4;\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-reinit"), codes(r));
    }

    @Test
    void invalThenInitIsFine() {
        LaunchedRun r = kernel(32, "@%p1 mbarrier.inval.shared::cta.b64 [%r2];\n@%p1 mbarrier.init.shared::cta.b64 [%r2], 4;\nret;")
                .threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void arrivingOnAnUninitializedObjectIsReported() {
        LaunchedRun r = kernel(32, "add.u32 %r3, %r2, 8;\nmbarrier.arrive.shared::cta.b64 _, [%r3];\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-uninitialized"), codes(r));
    }

    @Test
    void aMisalignedAddressIsReported() {
        LaunchedRun r = kernel(32, "add.u32 %r3, %r2, 4;\nmbarrier.arrive.shared::cta.b64 _, [%r3];\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-misaligned"), codes(r));
    }

    @Test
    void aPlainStoreToAValidObjectIsClobbered() {
        LaunchedRun r = kernel(32, "@%p1 st.shared.u32 [%r2], 7;\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-clobbered"), codes(r));
    }

    @Test
    void aPlainLoadOfAValidObjectIsClobbered() {
        LaunchedRun r = kernel(32, "@%p1 ld.shared.u64 %rd5, [%r2];\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-clobbered"), codes(r));
    }

    @Test
    void afterInvalTheMemoryIsOrdinaryAgain() {
        LaunchedRun r = kernel(32, "bar.sync 0;\n@%p1 mbarrier.inval.shared::cta.b64 [%r2];\n@%p1 st.shared.u32 [%r2], 7;\nret;")
                .threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void anInitCountOfZeroIsOutOfRange() {
        LaunchedRun r = kernel(0, "ret;").threads(32).run();
        assertEquals(List.of("mbarrier-count-range"), codes(r));
    }

    @Test
    void anArriveCountOfZeroIsOutOfRange() {
        LaunchedRun r = kernel(4, "@%p1 mbarrier.arrive.shared::cta.b64 _, [%r2], 0;\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-count-range"), codes(r));
    }

    @Test
    void moreArrivalsThanPendingIsOverArrival() {
        LaunchedRun r = kernel(4, "@%p1 mbarrier.arrive.shared::cta.b64 _, [%r2], 5;\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-over-arrival"), codes(r));
    }

    @Test
    void arriveDropLowersTheExpectedCountForLaterPhases() {
        // 64 threads, count 64: warp 1 drops out in phase 0; warp 0 then runs phase 1 alone.
        String body = "setp.ge.u32 %p4, %r1, 32;\n@%p4 mbarrier.arrive_drop.shared::cta.b64 _, [%r2];\n@%p4 ret;\n"
                + "mov.u32 %r3, 0;\nLOOP:\nmbarrier.arrive.shared::cta.b64 _, [%r2];\nand.b32 %r4, %r3, 1;\nWAIT:\n"
                + "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@!%p2 bra WAIT;\nadd.u32 %r3, %r3, 1;\n"
                + "setp.lt.u32 %p3, %r3, 2;\n@%p3 bra LOOP;\nret;";
        LaunchedRun r = kernel(64, body).threads(64).policy("random", 4).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(2, bar0(r).phase);
        assertEquals(32, bar0(r).expected);
    }

    @Test
    void arriveDropExpectTxAddsTheBytesFirstThenDropsAndArrivesOnce() {
        // ".expect_tx specifies that an expect-tx operation is performed prior to the arrive-on operation";
        // with it "the count argument of the arrive-on operation is assumed to be 1" (PTX ISA 9.7.13.15.14).
        LaunchedRun r = kernel(3, "@%p1 mbarrier.arrive_drop.expect_tx.shared::cta.b64 _, [%r2], 64;\nret;").threads(32).run();
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(64, bar0(r).tx, "the expect-tx was applied");
        assertEquals(2, bar0(r).pending, "one arrive-on");
        assertEquals(2, bar0(r).expected, "one dropped");
        assertEquals(0, bar0(r).phase);
    }

    @Test
    void anArriveDropCountOfZeroIsOutOfRange() {
        LaunchedRun r = kernel(4, "@%p1 mbarrier.arrive_drop.shared::cta.b64 _, [%r2], 0;\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-count-range"), codes(r));
    }

    @Test
    void droppingTheExpectedCountToZeroIsReported() {
        LaunchedRun r = kernel(1, "@%p1 mbarrier.arrive_drop.shared::cta.b64 _, [%r2];\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-drop-to-zero"), codes(r));
    }

    @Test
    void aNoCompleteArriveThatCompletesThePhaseIsReported() {
        LaunchedRun r = kernel(2, "@%p1 mbarrier.arrive.noComplete.shared::cta.b64 %rd5, [%r2], 2;\nret;").threads(32).run();
        assertEquals(List.of("mbarrier-nocomplete-completed"), codes(r));
    }

    @Test
    void pendingCountIsTheCountBeforeTheNoCompleteArrive() {
        // Count 10, a .noComplete arrive of 3: the count prior to the arrive-on is 10 (PTX ISA 9.7.13.15.17), not 7.
        String body = "@!%p1 bra DONE;\nmbarrier.arrive.noComplete.shared::cta.b64 %rd5, [%r2], 3;\n"
                + "mbarrier.pending_count.b64 %r10, %rd5;\n" + STORE_R10 + "DONE:\nret;";
        LaunchedRun r = kernel(10, body).buffer("out", 32).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(10, u32(r, "out").get(0));
    }

    @Test
    void pendingCountOfAnOrdinaryTokenIsReported() {
        String body = "@!%p1 bra DONE;\nmbarrier.arrive.shared::cta.b64 %rd5, [%r2];\nmbarrier.pending_count.b64 %r10, %rd5;\nDONE:\nret;";
        LaunchedRun r = kernel(10, body).threads(32).run();
        assertEquals(List.of("mbarrier-pending-count-token"), codes(r));
    }

    @Test
    void aTokenTwoPhasesOldIsStale() {
        // Thread 0 alone (count 1): arrive (token of phase 0), observe, arrive again, observe, then wait with the first token.
        String body = "@!%p1 bra DONE;\nmbarrier.arrive.shared::cta.b64 %rd5, [%r2];\nmbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\n"
                + "mbarrier.arrive.shared::cta.b64 %rd6, [%r2];\nmbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd6;\n"
                + "mbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\nDONE:\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(List.of("mbarrier-stale-token"), codes(r));
    }

    @Test
    void aWaitWithAnArbitraryValueIsABadToken() {
        String body = "mov.u64 %rd5, 12345;\nmbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(List.of("mbarrier-bad-token"), codes(r));
    }

    @Test
    void anArbitraryValueWithTheTokenTagIsABadTokenWhoseMessageDoesNotClaimAnArriveReturnedIt() {
        // The engine cannot tell another CTA's token from a made-up value of the same shape.
        String body = "mov.u64 %rd5, 0xB000000000000000;\nmbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(List.of("mbarrier-bad-token"), codes(r));
        String msg = r.interpreter().diagnostics().get(0).message();
        assertTrue(msg.contains("state 0xb000000000000000 is not a token of this CTA's mbarriers: another CTA's"), msg);
        assertTrue(msg.contains("or not a token at all") && !msg.contains("was returned by an arrive"), msg);
    }

    @Test
    void aTokenOfAnotherMbarrierIsABadTokenAndAnswersNoWait() {
        // bar[1] is initialised too; thread 0 arrives on bar[1] and waits on bar[0] with that token.
        String body = "@!%p1 bra DONE;\nadd.u32 %r3, %r2, 8;\nmbarrier.init.shared::cta.b64 [%r3], 1;\n"
                + "mbarrier.arrive.shared::cta.b64 %rd5, [%r3];\nmbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\n"
                + "selp.u32 %r10, 1, 2, %p2;\n" + STORE_R10 + "DONE:\nret;";
        LaunchedRun r = kernel(1, body).buffer("out", 32).threads(32).run();
        assertEquals(List.of("mbarrier-bad-token"), codes(r));
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("bar+8"), r.interpreter().diagnostics().get(0).message());
        assertEquals(0, u32(r, "out").get(0), "the wait gave no answer");
    }

    @Test
    void aTokenFromBeforeAnInvalAndReinitIsABadToken() {
        // Thread 0 alone: arrive (phase 0 token), inval, init again at the same address, wait with the old token.
        String body = "@!%p1 bra DONE;\nmbarrier.arrive.noComplete.shared::cta.b64 %rd5, [%r2], 1;\n"
                + "mbarrier.inval.shared::cta.b64 [%r2];\nmbarrier.init.shared::cta.b64 [%r2], 2;\n"
                + "mbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\nDONE:\nret;";
        LaunchedRun r = kernel(2, body).threads(32).run();
        assertEquals(List.of("mbarrier-bad-token"), codes(r));
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("inval"), r.interpreter().diagnostics().get(0).message());
    }

    @Test
    void arrivingInTheNextPhaseBeforeAnyoneObservedTheLastIsReported() {
        String body = "@!%p1 bra DONE;\nmbarrier.arrive.shared::cta.b64 _, [%r2];\nmbarrier.arrive.shared::cta.b64 _, [%r2];\nDONE:\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(List.of("mbarrier-phase-unobserved"), codes(r));
    }

    @Test
    void txCountMayGoNegativeBeforeTheExpectationArrives() {
        // complete_tx first (tx = -64), then arrive.expect_tx 64 completes the phase.
        String body = "@!%p1 bra DONE;\nmbarrier.complete_tx.shared::cta.b64 [%r2], 64;\n"
                + "mbarrier.arrive.expect_tx.shared::cta.b64 %rd5, [%r2], 64;\nmbarrier.test_wait.shared::cta.b64 %p2, [%r2], %rd5;\n"
                + "selp.u32 %r10, 1, 0, %p2;\n" + STORE_R10 + "DONE:\nret;";
        LaunchedRun r = kernel(1, body).buffer("out", 32).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(1, u32(r, "out").get(0));
        assertEquals(1, bar0(r).phase);
    }

    @Test
    void expectingMoreBytesThanDeliveredDeadlocksShowingTheTxCount() {
        String body = "@!%p1 bra WAITER;\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 1024;\n"
                + "mbarrier.complete_tx.shared::cta.b64 [%r2], 512;\nWAITER:\nmov.u32 %r4, 0;\nWAIT:\n"
                + "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@!%p2 bra WAIT;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertEquals(512, bar0(r).tx);
        assertTrue(r.deadlockText().contains("tx-count 512") && r.deadlockText().contains("512 bytes expected but not delivered"),
                r.deadlockText());
    }

    @Test
    void aBareExpectTxWithNoArriveLeavesThePhaseOpen() {
        String body = "@!%p1 bra WAITER;\nmbarrier.expect_tx.shared::cta.b64 [%r2], 256;\nmbarrier.complete_tx.shared::cta.b64 [%r2], 256;\n"
                + "WAITER:\nmov.u32 %r4, 0;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\n@!%p2 bra WAIT;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertEquals(0, bar0(r).tx);
        assertTrue(r.deadlockText().contains("1 more arrive-on(s) needed"), r.deadlockText());
    }

    @Test
    void anExpectTxTakingTheTxCountAboveTheRangeIsReported() {
        // Each operand is in range; their sum, 2^20, is not.
        String body = "@!%p1 bra DONE;\nmbarrier.expect_tx.shared::cta.b64 [%r2], 1048575;\n"
                + "mbarrier.expect_tx.shared::cta.b64 [%r2], 1;\nDONE:\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(List.of("mbarrier-tx-range"), codes(r), r.summary());
        assertEquals(Mbarrier.MAX_COUNT, bar0(r).tx, "the out-of-range expect-tx is not applied");
    }

    @Test
    void anArriveExpectTxTakingTheTxCountAboveTheRangeIsReported() {
        String body = "@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 1048576;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(List.of("mbarrier-tx-range"), codes(r), r.summary());
    }

    @Test
    void aGenericAddressOutsideSharedMemoryIsReported() {
        String body = "ld.param.u64 %rd1, [out];\nmbarrier.arrive.b64 _, [%rd1];\nret;";
        LaunchedRun r = kernel(1, body).buffer("out", 4).threads(32).run();
        assertEquals(List.of("mbarrier-not-shared"), codes(r));
    }

    @Test
    void genericAddressesThroughCvtaReachTheSameObject() {
        String body = "cvta.shared.u64 %rd5, bar;\nmbarrier.arrive.b64 %rd6, [%rd5];\nWAIT:\nmbarrier.try_wait.b64 %p2, [%rd5], %rd6;\n"
                + "@!%p2 bra WAIT;\nret;";
        LaunchedRun r = kernel(32, body).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(1, bar0(r).phase);
    }

    @Test
    void aParityOperandOtherThanZeroOrOneIsReported() {
        String body = "mov.u32 %r4, 2;\nmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r2], %r4;\nret;";
        LaunchedRun r = kernel(1, body).threads(32).run();
        assertEquals(List.of("mbarrier-bad-parity"), codes(r));
    }
}
