package io.barrierscope.check;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import io.barrierscope.trace.Checkpoint;
import io.barrierscope.trace.StateHash;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One test per happens-before rule of semantics.md section 8: the same kernel races without the
 * edge and is clean with it.
 */
class RaceDetectionTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 sm[512];";
    /** %r1 = tid, %p1 = tid == 0, %p2 = tid == 32, %r2 = bar, %r3 = sm, %rd2 = in, %rd4 = out. */
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p2, %r1, 32;\nmov.u32 %r2, bar;\nmov.u32 %r3, sm;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n";
    /** Thread 32 reads sm[0] and stores it to out[0]. */
    private static final String CONSUME = "@!%p2 bra END;\nld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4], %r10;\nEND:\nret;";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128).threads(64);
    }

    private static LaunchedRun run(String body) { return kernel(body).run(); }

    private static void assertRace(LaunchedRun r) {
        assertEquals(Outcome.DIAGNOSED, outcome(r), r.summary());
        assertEquals(List.of("race"), codes(r), r.summary());
    }

    private static void assertClean(LaunchedRun r) {
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(List.of(), codes(r), r.summary());
    }

    private static final String PRODUCE = "@%p1 st.shared.u32 [sm], 7;\n";

    @Test
    void aWriteThenAReadByAnotherWarpWithoutABarrierIsARaceThatNamesBothAccessesAndTheBarrier() {
        assertClean(run(PRODUCE + "bar.sync 0;\n" + CONSUME));
        // No barrier at all: the report names both threads, both lines and the barrier the kernel has elsewhere.
        LaunchedRun bad = run(PRODUCE + CONSUME + "\nDEAD:\nbar.sync 0;\nret;");
        assertRace(bad);
        Diagnostic d = bad.interpreter().diagnostics().get(0);
        assertEquals(List.of(0, 32), d.threads(), d.message());
        assertTrue(d.message().contains("thread (0,0,0) writes it (st.shared.u32 at line") && d.message().contains("thread (32,0,0) reads it"), d.message());
        assertTrue(d.message().contains("no barrier between them: a bar.sync (as at line"), d.message());
        assertEquals(2, d.ptxLocations().size());
    }

    @Test
    void aRaceAcrossLoopIterationsDoesNotNameTheLoopsOwnBarrierAsTheFix() {
        // Two rounds: each thread stores its word, bar.sync, reads the mirrored word. No barrier closes the round, so
        // warp 1's store of round 1 meets warp 0's read of round 0. The bar.sync lies between the two instructions
        // and was executed by both: naming it as "would order them" would send the reader to the wrong place.
        String loop = "mov.u32 %r20, 0;\nshl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r3, %r4;\nsub.u32 %r6, 63, %r1;\nshl.b32 %r6, %r6, 2;\n"
                + "add.u32 %r7, %r3, %r6;\nROUND:\nst.shared.u32 [%r5], %r20;\nbar.sync 0;\nld.shared.u32 %r8, [%r7];\n"
                + "add.u32 %r20, %r20, 1;\nsetp.lt.u32 %p4, %r20, 2;\n@%p4 bra ROUND;\nret;";
        LaunchedRun bad = run(loop);
        assertRace(bad);
        Diagnostic d = bad.interpreter().diagnostics().get(0);
        assertTrue(d.message().contains("no barrier between them in this run: bar.sync at line"), d.message());
        assertTrue(d.message().contains("they are in a loop (its branch back at line") && d.message().contains("met in different "
                + "iterations; a barrier at the end of each iteration, before the branch back, would order them"), d.message());
        // Closing each round with a barrier removes the race.
        assertClean(run(loop.replace("add.u32 %r20, %r20, 1;", "bar.sync 0;\nadd.u32 %r20, %r20, 1;")));
    }

    @Test
    void aBackwardJumpThatClosesNoLoopDoesNotMakeARaceALoopRace() {
        // Thread 0 stores sm[0], thread 32 loads it; bar.sync 1, 32 lies between them but each warp completes its own
        // generation. A cold block after the ret jumps back to JOIN (as nvcc lays out rare paths): a backward branch
        // around both instructions, yet nothing after them comes back, so they are not in a loop.
        String cold = "setp.eq.u32 %p3, %r1, 1000;\n@%p3 bra COLD;\nJOIN:\n@%p1 st.shared.u32 [sm], %r1;\nbar.sync 1, 32;\n"
                + "@%p2 ld.shared.u32 %r10, [sm];\n@%p2 st.global.u32 [%rd4], %r10;\nret;\nCOLD:\nmov.u32 %r11, 0;\nbra JOIN;";
        LaunchedRun bad = run(cold);
        assertRace(bad);
        Diagnostic d = bad.interpreter().diagnostics().get(0);
        assertTrue(d.message().contains("no barrier between them: bar.sync at line"), d.message());
        assertTrue(!d.message().contains("in a loop"), d.message());
    }

    @Test
    void aCtaBarrierGenerationOrdersEveryParticipantsEarlierAccesses() {
        assertRace(run(PRODUCE + CONSUME));
        assertClean(run(PRODUCE + "bar.sync 0;\n" + CONSUME));
        assertClean(run(PRODUCE + "barrier.sync 0;\n" + CONSUME));
    }

    @Test
    void barArriveReleasesButDoesNotAcquire() {
        // Warp 0 produces and bar.arrives; warp 1 bar.syncs and reads: ordered.
        String arrive = "setp.lt.u32 %p3, %r1, 32;\n@%p3 bra PROD;\nbar.sync 1, 64;\n" + CONSUME + "\nPROD:\n" + PRODUCE
                + "bar.arrive 1, 64;\nret;";
        assertClean(run(arrive));
        // Warp 1 writes after its bar.sync; warp 0 reads after its bar.arrive: the arrive acquired nothing.
        String back = "setp.lt.u32 %p3, %r1, 32;\n@%p3 bra PROD;\nbar.sync 1, 64;\n@%p2 st.shared.u32 [sm+4], 9;\nret;\nPROD:\n"
                + "bar.arrive 1, 64;\n@%p1 ld.shared.u32 %r10, [sm+4];\n@%p1 st.global.u32 [%rd4], %r10;\nret;";
        for (String p : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(back).policy(p, 3).run();
            assertRace(r);
        }
    }

    @Test
    void warpSyncOrdersItsMembers() {
        String racy = "setp.eq.u32 %p3, %r1, 1;\n@%p1 st.shared.u32 [sm], 5;\n@%p3 ld.shared.u32 %r10, [sm];\n"
                + "@%p3 st.global.u32 [%rd4], %r10;\nret;";
        assertRace(run(racy));
        assertClean(run(racy.replace("@%p3 ld", "bar.warp.sync -1;\n@%p3 ld")));
    }

    @Test
    void voteMatchReduxElectAndShflWaitForTheirMembersButOrderNoMemory() {
        // Only bar.warp.sync "also guarantee[s] memory ordering" (9.7.13.2); the other warp .sync
        // instructions wait for their members and say nothing of memory (9.7.13.9, .10, .12, .14).
        String racy = "setp.eq.u32 %p3, %r1, 1;\n@%p1 st.shared.u32 [sm], 5;\nWARP\n@%p3 ld.shared.u32 %r10, [sm];\n"
                + "@%p3 st.global.u32 [%rd4], %r10;\nret;";
        for (String insn : List.of("shfl.sync.idx.b32 %r11, %r1, 0, 31, -1;", "vote.sync.all.pred %p5, %p1, -1;",
                "match.any.sync.b32 %r11, %r1, -1;", "redux.sync.add.u32 %r11, %r1, -1;", "elect.sync %r11|%p5, -1;")) {
            assertRace(run(racy.replace("WARP", insn)));
        }
        assertClean(run(racy.replace("WARP", "bar.warp.sync -1;")));
    }

    @Test
    void warpMatrixCollectivesWaitForTheWholeWarpButOrderNoMemory() {
        // mma.sync, ldmatrix, stmatrix and movmatrix are .sync.aligned: the thread waits (9.7.14.5),
        // and nothing is said of memory; only bar.warp.sync orders it (9.7.13.2).
        String racy = "setp.eq.u32 %p3, %r1, 1;\n@%p1 st.shared.u32 [sm], 5;\nmovmatrix.sync.aligned.m8n8.trans.b16 %r11, %r1;\n"
                + "@%p3 ld.shared.u32 %r10, [sm];\n@%p3 st.global.u32 [%rd4], %r10;\nret;";
        assertRace(run(racy));
        assertClean(run(racy.replace("@%p3 ld", "bar.warp.sync -1;\n@%p3 ld")));
    }

    private static final String INIT = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n";
    private static final String MBAR_HANDOFF = INIT + "@!%p1 bra C;\nst.shared.u32 [sm], 7;\nARRIVE\nret;\nC:\n@!%p2 bra E;\n"
            + "mov.u32 %r5, 0;\nW:\nWAIT\n@!%p4 bra W;\nld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4], %r10;\nE:\nret;";
    private static final String ARRIVE = "mbarrier.arrive.shared::cta.b64 _, [%r2];";
    private static final String WAIT = "mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], %r5;";

    @Test
    void anMbarrierArriveReleasesToAWaitThatReturnedTrueForThatPhase() {
        assertClean(run(MBAR_HANDOFF.replace("ARRIVE", ARRIVE).replace("WAIT", WAIT)));
        assertClean(run(MBAR_HANDOFF.replace("ARRIVE", ARRIVE.replace("arrive.", "arrive.release.cta."))
                .replace("WAIT", WAIT.replace("parity.", "parity.acquire.cta."))));
        // Without the handoff at all (the consumer only spins on its own clock): a race.
        String none = INIT + "@!%p1 bra C;\nst.shared.u32 [sm], 7;\nret;\nC:\n@!%p2 bra E;\nnanosleep.u32 1000;\n"
                + "ld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4], %r10;\nE:\nret;";
        assertRace(run(none));
    }

    @Test
    void aRelaxedArriveOrARelaxedWaitGivesNoEdge() {
        assertRace(run(MBAR_HANDOFF.replace("ARRIVE", ARRIVE.replace("arrive.", "arrive.relaxed.cta.")).replace("WAIT", WAIT)));
        assertRace(run(MBAR_HANDOFF.replace("ARRIVE", ARRIVE).replace("WAIT", WAIT.replace("parity.", "parity.relaxed.cta."))));
    }

    @Test
    void anMbarrierUsedByAnotherThreadBeforeItsInitWasPublishedIsARace() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 2;\n@!%p2 bra E;\nnanosleep.u32 1000;\n"
                + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nE:\nret;";
        LaunchedRun r = run(body);
        assertRace(r);
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("mbarrier.init"), r.summary());
        assertClean(run(body.replace("@!%p2 bra E;", "bar.sync 0;\n@!%p2 bra E;")));
    }

    private static final String BULK = INIT + "@!%p1 bra WAITERS;\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
            + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\nWAITERS:\n";
    private static final String READ_TILE = "shl.b32 %r8, %r1, 2;\nand.b32 %r8, %r8, 127;\nadd.u32 %r9, %r3, %r8;\n"
            + "ld.shared.u32 %r10, [%r9];\nmul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r10;\nret;";

    @Test
    void asyncCopyDataIsOrderedBeforeAWaitThatObservedItsPhaseAndRacesWithAnEarlyRead() {
        String waitPhase0 = "mov.u32 %r5, 0;\nW:\n" + WAIT + "\n@!%p4 bra W;\n";
        for (long seed = 0; seed < 4; seed++) {
            assertClean(kernel(BULK + waitPhase0 + READ_TILE).policy("random", seed).run());
            // Reading the tile before waiting: the copy lands before or after the read, a race either way.
            assertRace(kernel(BULK + READ_TILE.replace("ret;", "") + waitPhase0 + "ret;").policy("random", seed).run());
        }
    }

    @Test
    void cpAsyncDataIsOrderedByWaitGroupForTheIssuingThread() {
        String copy = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nmul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd2, %rd7;\n"
                + "cp.async.ca.shared.global [%r9], [%rd8], 4;\ncp.async.commit_group;\n";
        String read = "ld.shared.u32 %r10, [%r9];\nmul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r10;\n";
        assertClean(run(copy + "cp.async.wait_group 0;\n" + read + "ret;"));
        assertRace(run(copy + read + "cp.async.wait_all;\nret;"));
    }

    /** Thread copies in[tid] to sm[OFF + 4*tid] (OFF = 0, 128, 256: groups 0, 1, 2); SPIN lets earlier copies land. */
    private static String threeGroups(String spinAfterSecond, String wait, int readOff) {
        String copy = "cp.async.ca.shared.global [%r9+OFF], [%rd8], 4;\ncp.async.commit_group;\n";
        String spin = "mov.u32 %r30, 0;\nSPIN:\nadd.u32 %r30, %r30, 1;\nsetp.lt.u32 %p6, %r30, 30;\n@%p6 bra SPIN;\n";
        return "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nmul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd2, %rd7;\n"
                + copy.replace("OFF", "0") + copy.replace("OFF", "128") + spinAfterSecond.replace("SPIN", spin)
                + copy.replace("OFF", "256") + wait + "\nld.shared.u32 %r10, [%r9+" + readOff + "];\n"
                + "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r10;\ncp.async.wait_all;\nret;";
    }

    @Test
    void waitGroupOrdersOnlyTheGroupsOlderThanTheNewestNEvenIfANewerOneAlreadyCompleted() {
        // Group 1 has landed (the spin outlasts the 4-cycle latency) and group 2 is in flight when
        // wait_group 2 passes: it waited for group 0 only (PTX ISA 9.7.9.25.3).
        for (String spin : List.of("SPIN", "")) {
            assertClean(kernel(threeGroups(spin, "cp.async.wait_group 2;", 0)).threads(32).latency(4, 4).run());
            assertRace(kernel(threeGroups(spin, "cp.async.wait_group 2;", 128)).threads(32).latency(4, 4).run());
            assertRace(kernel(threeGroups(spin, "cp.async.wait_group 2;", 256)).threads(32).latency(4, 4).run());
            // wait_group 1 waits for group 1 too.
            assertClean(kernel(threeGroups(spin, "cp.async.wait_group 1;", 128)).threads(32).latency(4, 4).run());
        }
    }

    @Test
    void bulkWaitGroupOrdersOnlyTheGroupsOlderThanTheNewestNEvenIfANewerOneAlreadyCompleted() {
        // Thread 0 stores sm[0..47] to out in three bulk groups of 16 bytes; group 1 has landed when
        // wait_group 2 passes (PTX ISA 9.7.9.25.6): reading its global destination still races.
        String store = "add.u32 %r7, %r3, OFF;\nadd.s64 %rd5, %rd4, OFF;\n"
                + "cp.async.bulk.global.shared::cta.bulk_group [%rd5], [%r7], 16;\ncp.async.bulk.commit_group;\n";
        String spin = "mov.u32 %r30, 0;\nSPIN:\nadd.u32 %r30, %r30, 1;\nsetp.lt.u32 %p6, %r30, 30;\n@%p6 bra SPIN;\n";
        String body = "@!%p1 bra E;\nst.shared.v4.u32 [sm], {%r1, %r1, %r1, %r1};\nst.shared.v4.u32 [sm+16], {%r1, %r1, %r1, %r1};\n"
                + "st.shared.v4.u32 [sm+32], {%r1, %r1, %r1, %r1};\nfence.proxy.async.shared::cta;\n"
                + store.replace("OFF", "0") + store.replace("OFF", "16") + spin + store.replace("OFF", "32")
                + "WAIT\nld.global.u32 %r10, [%rd4+READ];\ncp.async.bulk.wait_group 0;\nE:\nret;";
        assertClean(kernel(body.replace("WAIT", "cp.async.bulk.wait_group 2;").replace("READ", "0")).latency(4, 4).run());
        assertRace(kernel(body.replace("WAIT", "cp.async.bulk.wait_group 2;").replace("READ", "16")).latency(4, 4).run());
        assertClean(kernel(body.replace("WAIT", "cp.async.bulk.wait_group 1;").replace("READ", "16")).latency(4, 4).run());
    }

    @Test
    void aBulkCopysReadOfItsSharedSourceRacesWithAnOverwriteBeforeWaitGroupRead() {
        // The proxy fence orders the generic write before the copy's async-proxy read (semantics.md section 13).
        String body = "@%p1 st.shared.u32 [sm], 11;\n@%p1 fence.proxy.async.shared::cta;\n@!%p1 bra E;\ncp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r3], 128;\n"
                + "cp.async.bulk.commit_group;\nWAIT\nst.shared.u32 [sm], 12;\ncp.async.bulk.wait_group 0;\nE:\nret;";
        assertClean(run(body.replace("WAIT", "cp.async.bulk.wait_group.read 0;")));
        assertRace(run(body.replace("WAIT", "")));
    }

    @Test
    void waitGroupReadOrdersTheCopysSourceReadsButNotItsWritesToItsDestination() {
        // PTX ISA 9.7.9.25.6.2: .read waits until the copies "have completed ... the reading from their source
        // locations"; only the plain form also waits for the writes to their destinations being made visible.
        String body = "@%p1 st.shared.u32 [sm], 11;\n@%p1 fence.proxy.async.shared::cta;\n@!%p1 bra E;\n"
                + "cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r3], 128;\ncp.async.bulk.commit_group;\nWAIT\nACCESS\nE:\nret;";
        String read = "cp.async.bulk.wait_group.read 0;";
        String load = "ld.global.u32 %r10, [%rd4];";
        assertClean(run(body.replace("WAIT", read).replace("ACCESS", "st.shared.u32 [sm], 12;")));
        LaunchedRun r = run(body.replace("WAIT", read).replace("ACCESS", load));
        assertRace(r);
        String m = r.interpreter().diagnostics().get(0).message();
        assertTrue(m.contains("the bulk copy to global memory") && m.contains("without .read"), m);
        assertClean(run(body.replace("WAIT", "cp.async.bulk.wait_group 0;").replace("ACCESS", load)));
        // A plain wait after the .read one still orders the writes.
        assertClean(run(body.replace("WAIT", read + "\ncp.async.bulk.wait_group 0;").replace("ACCESS", load)));
    }

    private static final String FLAG_PRODUCER = "@!%p1 bra C;\nst.global.u32 [%rd4+4], 42;\nPUBLISH\nret;\nC:\n@!%p2 bra E;\n"
            + "SPIN:\nOBSERVE\nsetp.eq.u32 %p5, %r11, 0;\n@%p5 bra SPIN;\nAFTER\nld.global.u32 %r10, [%rd4+4];\n"
            + "st.global.u32 [%rd4+8], %r10;\nE:\nret;";

    private static String flag(String publish, String observe, String after) {
        return FLAG_PRODUCER.replace("PUBLISH", publish).replace("OBSERVE", observe).replace("AFTER", after);
    }

    @Test
    void releaseAcquireFlagsAndFencesOrderDataButRelaxedFlagsDoNot() {
        assertClean(run(flag("st.release.gpu.global.u32 [%rd4], 1;", "ld.acquire.gpu.global.u32 %r11, [%rd4];", "")));
        assertClean(run(flag("atom.release.gpu.global.exch.b32 %r12, [%rd4], 1;", "atom.acquire.gpu.global.or.b32 %r11, [%rd4], 0;", "")));
        assertClean(run(flag("fence.acq_rel.gpu;\nst.relaxed.gpu.global.u32 [%rd4], 1;", "ld.relaxed.gpu.global.u32 %r11, [%rd4];",
                "fence.acq_rel.gpu;")));
        assertClean(run(flag("membar.gl;\nst.volatile.global.u32 [%rd4], 1;", "ld.volatile.global.u32 %r11, [%rd4];", "membar.gl;")));
        assertRace(run(flag("st.relaxed.gpu.global.u32 [%rd4], 1;", "ld.relaxed.gpu.global.u32 %r11, [%rd4];", "")));
        assertRace(run(flag("st.release.gpu.global.u32 [%rd4], 1;", "ld.relaxed.gpu.global.u32 %r11, [%rd4];", "")));
    }

    @Test
    void atomicsOnOneLocationDoNotRaceWithEachOther() {
        assertClean(run("atom.global.add.u32 %r10, [%rd4], 1;\nred.shared.add.u32 [sm], 1;\nret;"));
        // A plain store racing with the others' atomics is a race.
        assertRace(run("@%p2 st.global.u32 [%rd4], 5;\natom.global.add.u32 %r10, [%rd4], 1;\nret;"));
    }

    @Test
    void aWriteAfterBroadcastReadsMustBeOrderedAfterEveryReader() {
        // All 64 threads read sm[0] (a read set of 64 unordered readers); then thread 5 overwrites it.
        String body = "ld.shared.u32 %r10, [sm];\nsetp.eq.u32 %p3, %r1, 5;\nBARRIER\n@%p3 st.shared.u32 [sm], 1;\nret;";
        assertClean(run(body.replace("BARRIER", "bar.sync 0;")));
        for (String p : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(body.replace("BARRIER", "")).policy(p, 5).run();
            assertRace(r);
            assertTrue(r.interpreter().diagnostics().get(0).message().contains("thread (5,0,0) writes it"), r.summary());
        }
    }

    @Test
    void racesAreOnBytesNotWords() {
        assertClean(run("setp.lt.u32 %p3, %r1, 4;\n@!%p3 bra E;\nadd.u32 %r9, %r3, %r1;\nst.shared.u8 [%r9], %r1;\nE:\nret;"));
        assertRace(run("setp.lt.u32 %p3, %r1, 4;\n@!%p3 bra E;\nshr.u32 %r8, %r1, 1;\nadd.u32 %r9, %r3, %r8;\n"
                + "st.shared.u8 [%r9], %r1;\nE:\nret;"));
    }

    @Test
    void barrierClusterReleaseAcquireOrdersPeersButARelaxedArriveDoesNot() {
        String body = "mov.u32 %r20, %cluster_ctarank;\nsetp.eq.u32 %p6, %r20, 0;\nand.pred %p6, %p6, %p1;\n@%p6 st.shared.u32 [sm], 3;\n"
                + "barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\nsetp.eq.u32 %p7, %r20, 1;\nand.pred %p7, %p7, %p1;\n@!%p7 bra E;\n"
                + "mapa.shared::cluster.u32 %r5, %r3, 0;\nld.shared::cluster.u32 %r10, [%r5];\nst.global.u32 [%rd4], %r10;\nE:\n"
                + "barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\nret;";
        assertClean(kernel(body).cluster(2).threads(32).run());
        LaunchedRun r = kernel(body.replace("barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\nsetp",
                "barrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.aligned;\nsetp")).cluster(2).threads(32).run();
        assertRace(r);
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("barrier.cluster"), r.summary());
    }

    @Test
    void aCheckpointRestoresTheDetectorSoTheSameRaceIsFoundAgainWithTheSameStateHash() {
        LaunchedRun r = kernel(PRODUCE + "nanosleep.u32 100;\nnanosleep.u32 100;\n" + CONSUME).launch();
        for (int i = 0; i < 3; i++) r.interpreter().step();
        Checkpoint cp = Checkpoint.take(r.interpreter());
        long before = StateHash.of(r.interpreter());
        r.runToEnd();
        assertRace(r);
        String first = r.interpreter().diagnostics().get(0).message();
        long end = StateHash.of(r.interpreter());
        cp.restoreInto(r.interpreter());
        assertEquals(before, StateHash.of(r.interpreter()));
        r.runToEnd();
        assertEquals(first, r.interpreter().diagnostics().get(0).message());
        assertEquals(end, StateHash.of(r.interpreter()));
    }

    @Test
    void detectionOffFindsNothingAndCostsNothingInTheResult() {
        LaunchedRun r = kernel(PRODUCE + CONSUME).racy().run();
        assertClean(r);
        assertEquals(7L, PtxRun.u32(r, "out").get(0));
    }
}
