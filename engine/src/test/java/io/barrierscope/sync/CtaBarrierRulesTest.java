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

/** One test per CTA barrier rule of semantics.md section 3 (PTX ISA 9.7.13.1). */
class CtaBarrierRulesTest {
    private static final String REGS = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n";

    /** Each thread writes its tid to shared, syncs, then reads its neighbour's slot into out. */
    private static final String EXCHANGE = REGS
            + "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, sm;\nadd.u32 %r4, %r3, %r2;\n"
            + "st.shared.u32 [%r4], %r1;\nBARRIER\n"
            + "add.u32 %r5, %r1, 1;\nmov.u32 %r6, %ntid.x;\nrem.u32 %r5, %r5, %r6;\nshl.b32 %r5, %r5, 2;\n"
            + "add.u32 %r7, %r3, %r5;\nld.shared.u32 %r8, [%r7];\n"
            + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmul.wide.u32 %rd3, %r1, 4;\n"
            + "add.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r8;\nret;";

    private static LaunchedRun exchange(String barrier, int threads, String policy, long seed) {
        return PtxRun.kernel(EXCHANGE.replace("BARRIER", barrier)).header(".shared .align 4 .b8 sm[4096];")
                .buffer("out", threads).threads(threads).policy(policy, seed).run();
    }

    @Test
    void allSixteenNamedBarriersWorkAtOnce() {
        // Idiom (a real kernel's): FA3 uses all 16 ids. Each pair of warps syncs on its own id (tid / 64)
        // with a count of 64, then reads what the partner warp wrote.
        String body = REGS + "mov.u32 %r1, %tid.x;\nshr.u32 %r2, %r1, 6;\nmov.u32 %r3, sm;\nshl.b32 %r4, %r1, 2;\n"
                + "add.u32 %r5, %r3, %r4;\nst.shared.u32 [%r5], %r1;\nbar.sync %r2, 64;\nxor.b32 %r6, %r1, 32;\n"
                + "shl.b32 %r7, %r6, 2;\nadd.u32 %r8, %r3, %r7;\nld.shared.u32 %r9, [%r8];\n"
                + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmul.wide.u32 %rd3, %r1, 4;\n"
                + "add.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r9;\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = PtxRun.kernel(body).header(".shared .align 4 .b8 sm[4096];").buffer("out", 1024).threads(1024)
                    .policy(policy, 3).run();
            assertEquals(Outcome.COMPLETED, outcome(r), policy + "\n" + r.summary());
            assertEquals(List.of(), PtxRun.codes(r), "no diagnostic, no race");
            List<Long> out = u32(r, "out");
            for (int i = 0; i < 1024; i++) assertEquals(i ^ 32, out.get(i), "thread " + i);
        }
    }

    @Test
    void barSyncOrdersSharedMemoryAcrossAllWarpsUnderEveryPolicy() {
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            for (long seed = 0; seed < 5; seed++) {
                LaunchedRun r = exchange("bar.sync 0;", 128, policy, seed);
                assertEquals(Outcome.COMPLETED, outcome(r), policy + " " + seed + "\n" + r.summary());
                List<Long> out = u32(r, "out");
                for (int i = 0; i < 128; i++) assertEquals((i + 1) % 128, out.get(i));
            }
        }
    }

    @Test
    void withoutTheBarrierTheAdversarialPolicyExposesTheMissingSync() {
        boolean wrong = false;
        for (long seed = 0; seed < 10 && !wrong; seed++) {
            LaunchedRun r = exchange("", 128, "adversarial", seed);
            List<Long> out = u32(r, "out");
            for (int i = 0; i < 128; i++) wrong |= out.get(i) != (i + 1) % 128;
        }
        assertTrue(wrong, "some schedule must read a slot before its owner wrote it");
    }

    @Test
    void explicitCountCompletesWhenThatManyThreadsArrive() {
        // Only warps 0 and 1 sync on barrier 1 with count 64; warps 2 and 3 exit at once.
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 64;\n@%p1 bra DONE;\nbar.sync 1, 64;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(128).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void explicitCountLargerThanTheArrivingThreadsDeadlocksAndNamesTheExitedWarps() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 64;\n@%p1 bra DONE;\nbar.sync 1, 128;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(128).run();
        assertEquals(Outcome.DEADLOCK, outcome(r));
        String text = r.deadlockText();
        assertTrue(text.contains("2 of 4 have arrived"), text);
        assertTrue(text.contains("warp 2: exited") && text.contains("warp 3: exited"), text);
    }

    @Test
    void exitedThreadsDoNotBlockADefaultCountBarrier() {
        // Warp 3 exits before the barrier; bar.sync 0 (no count) still completes for warps 0-2.
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 96;\n@%p1 bra DONE;\nbar.sync 0;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(128).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void aWarpExitingLastCompletesTheBarrierItsPeersWaitAt() {
        // Warp 0 reaches bar.sync 0 first; warp 1 loops a while, then exits: its exit must complete the barrier.
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra SYNC;\nmov.u32 %r2, 0;\n"
                + "LOOP:\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p2, %r2, 50;\n@%p2 bra LOOP;\nexit;\nSYNC:\nbar.sync 0;\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void arrivalIsPerWarpSoHalfAWarpWaitsForItsOtherHalf() {
        // Lanes 0-15 reach bar.sync 0 at once; lanes 16-31 take a detour first. No divergence: same instruction.
        String body = REGS + "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra SYNC;\nadd.u32 %r2, %r1, 1;\n"
                + "add.u32 %r2, %r2, 1;\nSYNC:\nbar.sync 0;\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).policy("random", 3).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void twoAlignedInstructionsInOneWarpAreBarrierDivergenceNamingBothLines() {
        String body = REGS + "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\nbar.sync 0;\nbra.uni DONE;\n"
                + "A:\nbar.sync 0;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        assertEquals(Outcome.DIAGNOSED, outcome(r));
        assertEquals(List.of("barrier-divergence"), codes(r));
        assertEquals(2, r.interpreter().diagnostics().get(0).ptxLocations().size());
    }

    @Test
    void twoAlignedSyncInstructionsInDifferentWarpsAreBarrierDivergence() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbar.sync 0;\nbra.uni DONE;\n"
                + "A:\nbar.sync 0;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).run();
        assertEquals(List.of("barrier-divergence"), codes(r));
    }

    @Test
    void alignedArriveAndSyncInOneWarpAreBarrierDivergence() {
        // Both warps split between bar.sync and bar.arrive: the producer/consumer exception is for different warps only.
        String body = REGS + "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\nbar.sync 1, 64;\nbra.uni DONE;\n"
                + "A:\nbar.arrive 1, 64;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).run();
        assertEquals(List.of("barrier-divergence"), codes(r), r.summary());
        assertEquals(2, r.interpreter().diagnostics().get(0).ptxLocations().size());
    }

    @Test
    void alignedRedAndSyncInOneWarpAreBarrierDivergence() {
        // Otherwise the .red lanes would get a reduction over half a warp.
        String body = REGS + "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\nbar.sync 0;\nbra.uni DONE;\n"
                + "A:\nbar.red.popc.u32 %r2, 0, %p1;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        assertEquals(List.of("barrier-divergence"), codes(r), r.summary());
    }

    @Test
    void nonAlignedRedAndSyncInOneWarpAreMixedRed() {
        String body = REGS + "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\nbarrier.sync 0;\nbra.uni DONE;\n"
                + "A:\nbarrier.red.popc.u32 %r2, 0, %p1;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        assertEquals(List.of("barrier-mixed-red"), codes(r), r.summary());
    }

    @Test
    void everyFormOfASplitWarpCountsWhenLaterWarpsAreCompared() {
        // Warp 0 splits (legally, non-aligned) between barrier.sync and barrier.arrive; warp 1 then arrives through
        // another, aligned, arrive instruction: two arrive instructions, one aligned, is divergence.
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n@%p1 bra W1;\nsetp.lt.u32 %p2, %r1, 16;\n"
                + "@%p2 bra S;\nbarrier.arrive 1, 64;\nbra.uni DONE;\nS:\nbarrier.sync 1, 64;\nbra.uni DONE;\n"
                + "W1:\nbar.arrive 1, 64;\nDONE:\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = PtxRun.kernel(body).threads(64).policy(policy, 2).run();
            assertEquals(List.of("barrier-divergence"), codes(r), policy + "\n" + r.summary());
        }
    }

    @Test
    void nonAlignedBarrierMayBeReachedFromDifferentInstructions() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbarrier.sync 0;\nbra.uni DONE;\n"
                + "A:\nbarrier.sync 0;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void arriveByProducersAndSyncByConsumersOnOneBarrierIsLegal() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra PROD;\nbar.sync 1, 64;\nbra.uni DONE;\n"
                + "PROD:\nbar.arrive 1, 64;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).policy("adversarial", 1).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void arriveDoesNotWaitForOtherWarps() {
        // Warp 0 arrives on barrier 1 and then writes out[0]=7 even though nobody else ever arrives.
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\nbar.arrive 1, 64;\n@%p1 bra DONE;\n"
                + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r2, 7;\nst.global.u32 [%rd2], %r2;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).buffer("out", 1).threads(32).run();
        assertEquals(7L, u32(r, "out").get(0));
    }

    @Test
    void aWarpArrivingTwiceInOneGenerationIsOverArrival() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra PROD;\nbar.sync 1, 96;\nbra.uni DONE;\n"
                + "PROD:\nbar.arrive 1, 96;\nbar.arrive 1, 96;\nDONE:\nret;";
        // Two warps but a count of three: only warp 0's second arrival could reach it.
        LaunchedRun r = PtxRun.kernel(body).threads(64).run();
        assertEquals(List.of("barrier-over-arrival"), codes(r));
    }

    @Test
    void barrierRedComputesPopcAndOrAcrossTheCta() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 0;\n"
                + "bar.red.popc.u32 %r3, 0, %p1;\nbar.red.and.pred %p2, 0, %p1;\nbar.red.or.pred %p3, 0, %p1;\n"
                + "selp.u32 %r4, 1, 0, %p2;\nselp.u32 %r5, 1, 0, %p3;\nshl.b32 %r4, %r4, 8;\nshl.b32 %r5, %r5, 16;\n"
                + "or.b32 %r3, %r3, %r4;\nor.b32 %r3, %r3, %r5;\n"
                + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmul.wide.u32 %rd3, %r1, 4;\n"
                + "add.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r3;\nret;";
        LaunchedRun r = PtxRun.kernel(body).buffer("out", 96).threads(96).run();
        for (long v : u32(r, "out")) assertEquals(24 + (0 << 8) + (1 << 16), v);
    }

    @Test
    void mixingRedWithSyncOnOneGenerationIsReported() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbar.sync 0;\nbra.uni DONE;\n"
                + "A:\nbar.red.popc.u32 %r2, 0, %p1;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).run();
        assertEquals(List.of("barrier-mixed-red"), codes(r));
    }

    @Test
    void aCountThatIsNotAMultipleOf32IsReported() {
        LaunchedRun r = PtxRun.kernel(REGS + "bar.sync 1, 48;\nret;").threads(64).run();
        assertEquals(List.of("barrier-bad-count"), codes(r));
    }

    @Test
    void aCountAbove2To31ThatIsAMultipleOf32IsValidAndNeverReached() {
        // b is .u32 (PTX ISA 9.7.13.1): 0xffffffe0 is a multiple of 32, not a negative count; no CTA has that many threads.
        LaunchedRun r = PtxRun.kernel(REGS + "mov.u32 %r1, 0xffffffe0;\nbar.sync 1, %r1;\nret;").threads(64).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertEquals(List.of(), codes(r));
    }

    @Test
    void theDeadlockExplanationGivesACountAbove2To31AsWritten() {
        LaunchedRun r = PtxRun.kernel(REGS + "mov.u32 %r1, 0xffffffe0;\nbar.sync 1, %r1;\nret;").threads(64).run();
        String text = r.deadlock().text();
        org.junit.jupiter.api.Assertions.assertTrue(text.contains("134217727 warps to arrive (count 4294967264 threads)"), text);
        var needs = r.deadlock().waits().get(0).needsFacts();
        assertEquals(4294967264L, needs.threadCount(), "the report's facts too");
        assertEquals(134217727, needs.expected());
    }

    @Test
    void anArriveNeedsANonZeroThreadCount() {
        // "a non-zero thread count is required for barrier{.cta}.arrive" (PTX ISA 9.7.13.1)
        org.junit.jupiter.api.Assertions.assertThrows(io.barrierscope.launch.BadInputException.class,
                () -> PtxRun.kernel(REGS + "bar.arrive 1;\nret;").threads(64).run());
        LaunchedRun zero = PtxRun.kernel(REGS + "mov.u32 %r1, 0;\nbar.arrive 1, %r1;\nret;").threads(64).run();
        assertEquals(List.of("barrier-bad-count"), codes(zero));
    }

    @Test
    void theCtaQualifierChangesNothing() {
        // "The optional .cta qualifier ... doesn't change the semantics of the instruction." (PTX ISA 9.7.13.1)
        List<Long> plain = u32(exchange("bar.sync 0;", 96, "adversarial", 1), "out");
        for (String b : new String[] {"bar.cta.sync 0;", "barrier.cta.sync.aligned 0;", "barrier.cta.sync 0;"}) {
            LaunchedRun r = exchange(b, 96, "adversarial", 1);
            assertEquals(Outcome.COMPLETED, outcome(r), b + ": " + r.summary());
            assertEquals(plain, u32(r, "out"), b);
        }
    }

    @Test
    void aBarrierIdAbove15IsReported() {
        LaunchedRun r = PtxRun.kernel(REGS + "mov.u32 %r1, 16;\nbar.sync %r1;\nret;").threads(32).run();
        assertEquals(List.of("barrier-bad-id"), codes(r));
    }

    @Test
    void generationsResetSoABarrierCanBeReusedInALoop() {
        String body = REGS + "mov.u32 %r2, 0;\nLOOP:\nbar.sync 3;\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 10;\n@%p1 bra LOOP;\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(128).policy("random", 9).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(10, r.machine().ctaBarriers[0].get(3).generation);
    }

    @Test
    void disagreeingCountsOnOneGenerationAreReported() {
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbarrier.sync 1, 64;\nbra.uni DONE;\n"
                + "A:\nbarrier.sync 1, 96;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(96).run();
        assertEquals(List.of("barrier-count-mismatch"), codes(r));
    }

    @Test
    void countsPast2To31ThatDifferAreACountMismatchPrintedAsWritten() {
        // Both are valid .u32 multiples of 32 no CTA reaches (PTX ISA 9.7.13.1); they still differ, so
        // warps arriving with them on one generation disagree, across warps and within one warp.
        String acrossWarps = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\nmov.u32 %r2, 0xffffffe0;\n"
                + "@%p1 mov.u32 %r2, 0x7fffffe0;\nbarrier.sync 1, %r2;\nret;";
        String withinAWarp = acrossWarps.replace("32;", "16;");
        for (String body : List.of(acrossWarps, withinAWarp)) {
            LaunchedRun r = PtxRun.kernel(body).threads(64).run();
            assertEquals(List.of("barrier-count-mismatch"), codes(r), r.summary());
            String msg = r.interpreter().diagnostics().get(0).message();
            assertTrue(msg.contains("4294967264") && msg.contains("2147483616"), msg);
        }
    }

    @Test
    void withAnExitedWarpTheSyncsExplicitCountDeadlocksWhereNoCountCompletes() {
        // A 96-thread CTA, warp 2 exits, warp 0 bar.arrive 1, 96, warp 1 syncs: with its own count 96 the
        // barrier still needs three warps and none can come (exited threads never help a count); without a
        // count, "all threads in the CTA participate" and a sync waits only for the non-exited ones (9.7.13.1).
        String kernel = REGS + "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p2, %r1, 64;\n@%p2 bra DONE;\nsetp.lt.u32 %p1, %r1, 32;\n"
                + "@%p1 bra A;\nSYNC;\nbra.uni DONE;\nA:\nbar.arrive 1, 96;\nDONE:\nret;";
        LaunchedRun counted = PtxRun.kernel(kernel.replace("SYNC;", "bar.sync 1, 96;")).threads(96).run();
        assertEquals(Outcome.DEADLOCK, outcome(counted), counted.summary());
        assertTrue(counted.deadlockText().contains("2 of 3 have arrived") && counted.deadlockText().contains("warp 2: exited"),
                counted.deadlockText());
        LaunchedRun uncounted = PtxRun.kernel(kernel.replace("SYNC;", "bar.sync 1;")).threads(96).run();
        assertEquals(Outcome.COMPLETED, outcome(uncounted), uncounted.summary());
    }

    @Test
    void anArriveCountingTheWholeCtaAndASyncWithoutCountNameTheSameThreadCount() {
        // Producers bar.arrive 1, 64 (an arrive needs a count), consumers bar.sync 1 (all threads):
        // in a CTA of 64 threads both name the same 64 (PTX ISA 9.7.13.1), under every policy.
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbar.sync 1;\nbra.uni DONE;\n"
                + "A:\nbar.arrive 1, 64;\nDONE:\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = PtxRun.kernel(body).threads(64).policy(policy, 3).run();
            assertEquals(Outcome.COMPLETED, outcome(r), policy + ": " + r.summary());
        }
        // In a CTA of 96 threads, 64 is not all of them: still a count mismatch.
        assertEquals(List.of("barrier-count-mismatch"), codes(PtxRun.kernel(body).threads(96).run()));
        // Warp 2 exits: the mixed generation follows the count-less rule whichever warp arrives first.
        String exiting = REGS + "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p2, %r1, 64;\n@%p2 bra DONE;\nsetp.lt.u32 %p1, %r1, 32;\n"
                + "@%p1 bra A;\nbar.sync 1;\nbra.uni DONE;\nA:\nbar.arrive 1, 96;\nDONE:\nret;";
        for (String policy : List.of("random", "adversarial")) {
            for (long seed = 0; seed < 4; seed++) {
                LaunchedRun r = PtxRun.kernel(exiting).threads(96).policy(policy, seed).run();
                assertEquals(Outcome.COMPLETED, outcome(r), policy + " " + seed + ": " + r.summary());
            }
        }
    }
}
