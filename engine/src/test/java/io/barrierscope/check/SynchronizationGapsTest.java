package io.barrierscope.check;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What mbarrier and barrier.cluster operations do not order (docs/traceability.md, the sentences
 * of PTX ISA 9.7.13.3 and 9.7.13.15.11-16 about relaxed operations and the gaps between an
 * arrive and its wait): each kernel races where the ISA gives no edge, and its variant with the
 * edge is clean, so a rule that orders too much or too little fails a test.
 */
class SynchronizationGapsTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 sm[64];\n.shared .align 4 .b32 flag;";
    /** %r1 = tid, %p1 = tid == 0, %p2 = tid == 32, %r2 = bar, %r3 = sm, %r4 = flag, %rd4 = out. */
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p2, %r1, 32;\nmov.u32 %r2, bar;\nmov.u32 %r3, sm;\n"
            + "mov.u32 %r4, flag;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n";
    /** Waits for phase 0 of bar (parity 0) with %p4. */
    private static final String WAIT0 = "mov.u32 %r5, 0;\nW0:\nmbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], %r5;\n@!%p4 bra W0;\n";
    /** Thread 32 reads sm[0] into out[0]. */
    private static final String READ = "ld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4], %r10;\n";
    /** Spins until flag is 1, with relaxed (strong, unordering) loads. */
    private static final String AWAIT_FLAG = "F:\nld.relaxed.cta.shared.u32 %r6, [%r4];\nsetp.ne.u32 %p5, %r6, 1;\n@%p5 bra F;\n";
    private static final String SET_FLAG = "st.relaxed.cta.shared.u32 [%r4], 1;\n";

    private static LaunchedRun run(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER).buffer("out", 128, ScalarType.U32, "zero").threads(64).run();
    }

    private static String init(int count) {
        return "@%p1 mbarrier.init.shared::cta.b64 [%r2], " + count + ";\n@%p1 st.shared.u32 [%r4], 0;\nbar.sync 0;\n";
    }

    private static void assertRace(LaunchedRun r) {
        assertEquals(Outcome.DIAGNOSED, outcome(r), r.summary());
        assertEquals(List.of("race"), codes(r), r.summary());
    }

    private static void assertClean(LaunchedRun r) {
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(List.of(), codes(r), r.summary());
    }

    @Test
    void expectTxIsRelaxedSoAWriteBeforeItIsNotOrderedBeforeTheWaiter() {
        // Thread 0 writes, raises the tx-count, then lets thread 32 go on (relaxed flag: no edge);
        // thread 32 arrives, completes the tx and waits: only expect_tx could carry thread 0's write.
        String body = init(1) + "@!%p1 bra C;\nst.shared.u32 [sm], 7;\nEXPECT\n" + SET_FLAG + "ret;\nC:\n@!%p2 bra E;\n" + AWAIT_FLAG
                + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nmbarrier.complete_tx.shared::cta.b64 [%r2], 16;\n" + WAIT0 + READ + "E:\nret;";
        assertRace(run(body.replace("EXPECT", "mbarrier.expect_tx.shared::cta.b64 [%r2], 16;")));
        assertRace(run(body.replace("EXPECT", "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r2], 16;")));
        // The same hand-off through a releasing arrive (count 2, thread 0 arriving too) is clean.
        assertClean(run(body.replace(init(1), init(2)).replace("EXPECT",
                "mbarrier.expect_tx.shared::cta.b64 [%r2], 16;\nmbarrier.arrive.shared::cta.b64 _, [%r2];")));
    }

    @Test
    void completeTxIsRelaxedSoTheWriteOfTheThreadCompletingThePhaseIsNotOrderedBeforeTheWaiter() {
        // Thread 32 arrives expecting 16 bytes; thread 0 writes, then completes them, which completes the phase.
        String body = init(1) + "@!%p1 bra C;\n" + AWAIT_FLAG + "st.shared.u32 [sm], 7;\nCOMPLETE\nret;\nC:\n@!%p2 bra E;\n"
                + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 16;\n" + SET_FLAG + WAIT0 + READ + "E:\nret;";
        assertRace(run(body.replace("COMPLETE", "mbarrier.complete_tx.shared::cta.b64 [%r2], 16;")));
        assertRace(run(body.replace("COMPLETE", "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%r2], 16;")));
        // With thread 0's write released by an arrive of its own (count 2), the waiter is ordered after it.
        assertClean(run(body.replace(init(1), init(2)).replace("COMPLETE",
                "mbarrier.arrive.shared::cta.b64 _, [%r2];\nmbarrier.complete_tx.shared::cta.b64 [%r2], 16;")));
    }

    /** Count 2: thread 0 writes and arrives with ARRIVE; thread 32 arrives, waits and reads. */
    private static final String DROP_HANDOFF = init(2) + "@!%p1 bra C;\nst.shared.u32 [sm], 7;\nARRIVE\nret;\nC:\n@!%p2 bra E;\n"
            + "mbarrier.arrive.shared::cta.b64 _, [%r2];\n" + WAIT0 + READ + "E:\nret;";

    @Test
    void arriveDropReleasesByDefaultAndWithReleaseButARelaxedOneOrdersNothing() {
        assertClean(run(DROP_HANDOFF.replace("ARRIVE", "mbarrier.arrive_drop.shared::cta.b64 _, [%r2];")));
        assertClean(run(DROP_HANDOFF.replace("ARRIVE", "mbarrier.arrive_drop.release.cta.shared::cta.b64 _, [%r2];")));
        assertRace(run(DROP_HANDOFF.replace("ARRIVE", "mbarrier.arrive_drop.relaxed.cta.shared::cta.b64 _, [%r2];")));
    }

    @Test
    void arriveDropReturnsATokenOfThePhaseItArrivedIn() {
        // Thread 0 drops out with a token and waits on it: the wait returns true only once thread 32
        // has arrived (phase 0 complete), then thread 0 publishes that through out[1].
        String body = init(2) + "@!%p1 bra C;\nmbarrier.arrive_drop.shared::cta.b64 %rd10, [%r2];\n"
                + "T:\nmbarrier.test_wait.shared::cta.b64 %p4, [%r2], %rd10;\n@!%p4 bra T;\n"
                + "ld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4+4], %r10;\nret;\nC:\n@!%p2 bra E;\nnanosleep.u32 5000;\n"
                + "st.shared.u32 [sm], 9;\nmbarrier.arrive.shared::cta.b64 _, [%r2];\nE:\nret;";
        LaunchedRun r = run(body);
        assertClean(r);
        // The wait saw thread 32's write (released by its arrive), so it cannot have returned before phase 0 completed.
        assertEquals(9L, PtxRun.u32(r, "out").get(1), r.summary());
    }

    @Test
    void accessesAfterASuccessfulWaitAreOrderedAfterTheParticipantsAccessesBeforeTheirArrive() {
        // Thread 32 reads sm before arriving; thread 0 overwrites it after its wait: ordered (no race).
        String body = init(1) + "@!%p1 bra C;\nBEFORE" + WAIT0 + "AFTER" + "ret;\nC:\n@!%p2 bra E;\nld.shared.u32 %r10, [sm];\n"
                + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nst.global.u32 [%rd4], %r10;\nE:\nret;";
        assertClean(run(body.replace("BEFORE", "").replace("AFTER", "st.shared.u32 [sm], 7;\n")));
        // The same write before the wait is unordered with the read.
        assertRace(run(body.replace("BEFORE", "st.shared.u32 [sm], 7;\n").replace("AFTER", "")));
    }

    @Test
    void aWriteBetweenAnArriveAndItsWaitIsNotOrderedBeforeTheOtherWaiters() {
        // Count 2: thread 0 arrives, then writes, then waits; thread 32 arrives, waits and reads.
        String body = init(2) + "@!%p1 bra C;\nBEFORE" + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nBETWEEN" + WAIT0 + "ret;\n"
                + "C:\n@!%p2 bra E;\nmbarrier.arrive.shared::cta.b64 _, [%r2];\n" + WAIT0.replace("W0", "W1") + READ + "E:\nret;";
        assertRace(run(body.replace("BEFORE", "").replace("BETWEEN", "st.shared.u32 [sm], 7;\n")));
        assertClean(run(body.replace("BEFORE", "st.shared.u32 [sm], 7;\n").replace("BETWEEN", "")));
    }

    @Test
    void aWriteBetweenBarrierClusterArriveAndWaitIsNotOrderedBeforeThePeers() {
        // CTA 0's thread 0 writes its shared sm after (or before) arriving; CTA 1's thread 0 reads it after its wait.
        String body = "mov.u32 %r20, %cluster_ctarank;\nsetp.eq.u32 %p6, %r20, 0;\nand.pred %p6, %p6, %p1;\nBEFORE"
                + "barrier.cluster.arrive.aligned;\nBETWEEN" + "barrier.cluster.wait.aligned;\nsetp.eq.u32 %p7, %r20, 1;\nand.pred %p7, %p7, %p1;\n"
                + "@!%p7 bra E;\nmapa.shared::cluster.u32 %r5, %r3, 0;\nld.shared::cluster.u32 %r10, [%r5];\nst.global.u32 [%rd4], %r10;\nE:\n"
                + "barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\nret;";
        String write = "@%p6 st.shared.u32 [sm], 3;\n";
        assertClean(PtxRun.kernel(REGS + body.replace("BEFORE", write).replace("BETWEEN", "")).header(HEADER)
                .buffer("out", 128, ScalarType.U32, "zero").cluster(2).threads(32).run());
        assertRace(PtxRun.kernel(REGS + body.replace("BEFORE", "").replace("BETWEEN", write)).header(HEADER)
                .buffer("out", 128, ScalarType.U32, "zero").cluster(2).threads(32).run());
    }
}
