package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static io.barrierscope.testing.PtxRun.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Asynchronous copies and transaction counts (semantics.md section 7). */
class AsyncCopyRulesTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 tile[512];";
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, bar;\nmov.u32 %r3, tile;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n"
            + "mov.u32 %r20, %cluster_ctarank;\n";
    /** out[rank*32 + tid] = tile[tid] (a u32 element). */
    private static final String READ_OUT = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nld.shared.u32 %r10, [%r9];\n"
            + "mad.lo.s32 %r11, %r20, 32, %r1;\nmul.wide.u32 %rd5, %r11, 4;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r10;\n";
    private static final String WAIT_PHASE0 = "mov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\n@!%p2 bra W;\n";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128);
    }

    @Test
    void cpAsyncCopiesLandByTheirGroupsWait() {
        // Each thread copies 4 bytes of in[tid] into tile[tid], commits, waits for all groups, syncs, reads.
        String body = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nmul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd2, %rd7;\n"
                + "cp.async.ca.shared.global [%r9], [%rd8], 4;\ncp.async.commit_group;\ncp.async.wait_group 0;\nbar.sync 0;\n"
                + READ_OUT + "ret;";
        for (String p : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(body).threads(32).policy(p, 6).run();
            assertEquals(Outcome.COMPLETED, outcome(r), p + "\n" + r.summary());
            for (int i = 0; i < 32; i++) assertEquals(i, u32(r, "out").get(i));
        }
    }

    @Test
    void cpAsyncGroupsCompleteInCommitOrderUnderEveryPolicy() {
        // 9.7.9.25.1.1: "All async-groups committed by an executing thread always complete in the order in which they
        // were committed": the newer group's 8 bytes land after the older group's 16 at the same place, whatever the
        // latencies a policy draws (a later group used to land first when its latency was shorter).
        String body = "@!%p1 bra SKIP;\ncp.async.ca.shared.global [%r3], [%rd2], 16;\ncp.async.commit_group;\n"
                + "cp.async.ca.shared.global [%r3], [%rd2+16], 8;\ncp.async.commit_group;\ncp.async.wait_group 0;\nSKIP:\nbar.sync 0;\n"
                + READ_OUT + "ret;";
        for (String p : List.of("round-robin", "random", "adversarial")) {
            for (long seed = 0; seed < 6; seed++) {
                LaunchedRun r = kernel(body).threads(32).policy(p, seed).run();
                assertEquals(Outcome.COMPLETED, outcome(r), p + " " + seed + "\n" + r.summary());
                assertEquals(List.of(4L, 5L, 2L, 3L), u32(r, "out").subList(0, 4), p + " " + seed);
            }
        }
    }

    @Test
    void withoutWaitingTheCopyHasNotLandedYet() {
        String body = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nmul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd2, %rd7;\n"
                + "add.s64 %rd8, %rd8, 4;\ncp.async.ca.shared.global [%r9], [%rd8], 4;\n" + READ_OUT + "cp.async.wait_all;\nret;";
        // Reading before the wait is the race RaceDetectionTest reports; here only the value matters.
        LaunchedRun r = kernel(body).threads(32).racy().run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(0L, u32(r, "out").get(5), "read before the copy completed: still zero");
    }

    @Test
    void cpAsyncMbarrierArriveNoincSignalsWhenTheThreadsCopiesComplete() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 32;\nbar.sync 0;\nshl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\n"
                + "mul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd2, %rd7;\ncp.async.ca.shared.global [%r9], [%rd8], 4;\n"
                + "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r2];\n" + WAIT_PHASE0 + READ_OUT + "ret;";
        LaunchedRun r = kernel(body).threads(32).policy("random", 2).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (int i = 0; i < 32; i++) assertEquals(i, u32(r, "out").get(i));
    }

    @Test
    void cpAsyncMbarrierArriveWithoutNoincIsNetZeroForThePhase() {
        // count 32: each thread also arrives itself; the async arrive-on only balances its own increment.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 32;\nbar.sync 0;\nshl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\n"
                + "mul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd2, %rd7;\ncp.async.ca.shared.global [%r9], [%rd8], 4;\n"
                + "cp.async.mbarrier.arrive.shared::cta.b64 [%r2];\nmbarrier.arrive.shared::cta.b64 _, [%r2];\n" + WAIT_PHASE0
                + READ_OUT + "ret;";
        LaunchedRun r = kernel(body).threads(32).policy("adversarial", 4).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (int i = 0; i < 32; i++) assertEquals(i, u32(r, "out").get(i));
    }

    @Test
    void cpAsyncMbarrierArriveRaisingPendingAboveTheRangeIsReported() {
        // Pending starts at the maximum 2^20-1; without .noinc the increment would take it past the range.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1048575;\nbar.sync 0;\n"
                + "@%p1 cp.async.mbarrier.arrive.shared::cta.b64 [%r2];\nret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(List.of("mbarrier-count-range"), codes(r), r.summary());
    }

    private static final String BULK = "@!%p1 bra WAITERS;\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], EXPECT;\n"
            + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\nWAITERS:\n";

    @Test
    void aBulkCopyCompletesTheTransactionCountAndThePhase() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n" + BULK.replace("EXPECT", "128") + WAIT_PHASE0
                + READ_OUT + "ret;";
        for (long seed = 0; seed < 5; seed++) {
            LaunchedRun r = kernel(body).threads(32).policy("random", seed).run();
            assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
            for (int i = 0; i < 32; i++) assertEquals(i, u32(r, "out").get(i));
        }
    }

    @Test
    void aCopyLandingBeforeItsExpectTxTakesTheTxCountBelowZeroAndThePhaseStillCompletes() {
        // Idiom (a real kernel's): the bulk copy is issued before arrive.expect_tx on a count-1 barrier;
        // with a one-cycle latency it lands first, so tx goes to -128 until the expect_tx brings it to 0.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra WAITERS;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\n"
                + "add.u32 %r12, %r12, 1;\nadd.u32 %r12, %r12, 1;\n" // other work before the expect_tx
                + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\nWAITERS:\n" + WAIT_PHASE0 + READ_OUT + "ret;";
        LaunchedRun r = kernel(body).threads(32).latency(1, 1).launch();
        long[] lowest = {0};
        r.interpreter().addListener(new io.barrierscope.exec.ExecutionListener() {
            @Override
            public void syncEvent(long step, io.barrierscope.exec.SyncEvent kind, int slot, long object, long a, long b) {
                if (kind == io.barrierscope.exec.SyncEvent.MBAR_COMPLETE_TX) lowest[0] = Math.min(lowest[0], b);
            }
        });
        r.runToEnd();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(-128, lowest[0], "the copy's complete-tx came first");
        assertEquals(List.of(), codes(r));
        for (int i = 0; i < 32; i++) assertEquals(i, u32(r, "out").get(i));
    }

    @Test
    void expectingMoreBytesThanTheCopyDeliversDeadlocksWithTheShortfall() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n" + BULK.replace("EXPECT", "256") + WAIT_PHASE0 + "ret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertTrue(r.deadlockText().contains("128 bytes expected but not delivered"), r.deadlockText());
    }

    @Test
    void deliveringMoreBytesThanExpectedLeavesTheTxCountNegativeAndThePhaseStuck() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n" + BULK.replace("EXPECT", "64") + WAIT_PHASE0 + "ret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        assertEquals(-64, r.machine().mbarriers.at(0, 0).tx);
        assertTrue(r.deadlockText().contains("over-delivery"), r.deadlockText());
    }

    @Test
    void aBulkCopysCompleteTxTakingTheTxCountBelowTheRangeIsReported() {
        // complete_tx leaves tx at -(2^20-16); the copy's 128 bytes would take it past -(2^20-1).
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra WAITERS;\n"
                + "mbarrier.complete_tx.shared::cta.b64 [%r2], 1048560;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\nWAITERS:\n"
                + WAIT_PHASE0 + "ret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(List.of("mbarrier-tx-range"), codes(r), r.summary());
        assertEquals(-1048560, r.machine().mbarriers.at(0, 0).tx, "the out-of-range complete-tx is not applied");
    }

    @Test
    void aBulkCopyToGlobalIsTrackedByBulkGroups() {
        // Fill tile with tid, then thread 0 copies it out with a bulk_group and waits for it.
        String body = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nadd.u32 %r12, %r1, 1000;\nst.shared.u32 [%r9], %r12;\n"
                + "fence.proxy.async.shared::cta;\nbar.sync 0;\n@!%p1 bra DONE;\n"
                + "cp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r3], 128;\ncp.async.bulk.commit_group;\n"
                + "cp.async.bulk.wait_group 0;\nDONE:\nret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (int i = 0; i < 32; i++) assertEquals(1000L + i, u32(r, "out").get(i));
    }

    @Test
    void bulkCopiesToGlobalIssuedByAWholeWarpAtOnceEachLand() {
        // Every lane copies its own 16 bytes out (no mbarrier): the warp issues them together; race detection off.
        String body = "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nadd.u32 %r12, %r1, 1000;\nst.shared.u32 [%r9], %r12;\n"
                + "fence.proxy.async.shared::cta;\nbar.sync 0;\nand.b32 %r13, %r1, 3;\nsetp.ne.u32 %p3, %r13, 0;\n@%p3 bra DONE;\n"
                + "mul.wide.u32 %rd7, %r8, 1;\nadd.s64 %rd8, %rd4, %rd7;\n"
                + "cp.async.bulk.global.shared::cta.bulk_group [%rd8], [%r9], 16;\ncp.async.bulk.commit_group;\n"
                + "cp.async.bulk.wait_group 0;\nDONE:\nret;";
        LaunchedRun r = kernel(body).threads(32).racy().run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (int i = 0; i < 32; i++) assertEquals(1000L + i, u32(r, "out").get(i));
    }

    @Test
    void aMulticastBulkCopyLandsInEveryCtaOfTheMaskAndSignalsEachMbarrier() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nfence.mbarrier_init.release.cluster;\nbarrier.cluster.arrive;\n"
                + "barrier.cluster.wait;\n@!%p1 bra WAITERS;\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
                + "setp.ne.u32 %p3, %r20, 0;\n@%p3 bra WAITERS;\nmov.u16 %rs1, 3;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd2], 128, [%r2], %rs1;\n"
                + "WAITERS:\n" + WAIT_PHASE0 + READ_OUT + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        LaunchedRun r = PtxRun.kernel(REGS.replace(".reg .b64 %rd<16>;", ".reg .b64 %rd<16>;\n.reg .b16 %rs<4>;") + body)
                .header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128).cluster(2).threads(32)
                .policy("random", 1).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (int i = 0; i < 64; i++) assertEquals(i % 32, u32(r, "out").get(i), "element " + i);
    }

    @Test
    void stAsyncStoresIntoAPeerAndCompletesItsTransactionCount() {
        // Each CTA expects 4 bytes; thread 0 of each stores 40+rank into the peer's tile[0] with st.async.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"
                + "@!%p1 bra WAITERS;\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 4;\nxor.b32 %r13, %r20, 1;\n"
                + "mapa.shared::cluster.u32 %r14, %r3, %r13;\nmapa.shared::cluster.u32 %r15, %r2, %r13;\nadd.u32 %r16, %r20, 40;\n"
                + "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r14], %r16, [%r15];\nWAITERS:\n" + WAIT_PHASE0
                + "ld.shared.u32 %r10, [%r3];\nmad.lo.s32 %r11, %r20, 32, %r1;\nmul.wide.u32 %rd5, %r11, 4;\nadd.s64 %rd6, %rd4, %rd5;\n"
                + "st.global.u32 [%rd6], %r10;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(41L, u32(r, "out").get(0));
        assertEquals(40L, u32(r, "out").get(32));
    }

    /** CTA 0 fills tile[64..95] with 100+tid and, once the cluster met, thread 0 bulk-copies those 128 bytes into CTA 1's tile. */
    private static final String SHARED_TO_PEER = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nfence.mbarrier_init.release.cluster;\n"
            + "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\nadd.u32 %r7, %r9, 256;\nadd.u32 %r6, %r1, 100;\nst.shared.u32 [%r7], %r6;\n"
            + "fence.proxy.async.shared::cta;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nsetp.eq.u32 %p3, %r20, 0;\n@%p3 bra SENDER;\n"
            + "@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n" + WAIT_PHASE0 + READ_OUT + "bra.uni DONE;\nSENDER:\n"
            + "@!%p1 bra DONE;\nadd.u32 %r12, %r3, 256;\nmapa.shared::cluster.u32 %r14, %r3, 1;\nmapa.shared::cluster.u32 %r15, %r2, 1;\n"
            + "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r14], [%r12], 128, [%r15];\nDONE:\n";

    @Test
    void aBulkCopyFromSharedCtaLandsInThePeerAndCompletesItsTransactionCount() {
        for (String p : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(SHARED_TO_PEER + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;").cluster(2).threads(32).policy(p, 2).run();
            assertEquals(Outcome.COMPLETED, outcome(r), p + "\n" + r.summary());
            assertEquals(List.of(), codes(r));
            for (int i = 0; i < 32; i++) assertEquals(100L + i, u32(r, "out").get(32 + i), p + " element " + i);
        }
    }

    @Test
    void aCtaExitingWhileABulkCopyStillReadsItsSharedMemoryIsReported() {
        // CTA 0 exits right after issuing the shared::cta to shared::cluster copy: its source is still being read.
        LaunchedRun r = kernel(SHARED_TO_PEER + "ret;").cluster(2).threads(32).run();
        assertEquals(List.of("async-pending-at-exit"), codes(r), r.summary());
    }

    @Test
    void aBulkCopyWhoseSharedCtaSourceIsAPeersAddressIsReported() {
        // srcMem is in .shared::cta (PTX ISA 9.7.9.25.4.1): a peer's shared::cluster address (from mapa) is not
        // the issuer's window, so the copy is not given the meaning "read the peer's memory".
        String body = SHARED_TO_PEER.replace("[%r14], [%r12], 128", "[%r14], [%r14], 128") + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(List.of("memory-fault"), codes(r), r.summary());
        assertTrue(r.summary().contains("must be in the issuing CTA's .shared::cta window"), r.summary());
    }

    @Test
    void aBulkCopyOfTwoToThe31BytesIsAMemoryFaultNotANegativeSize() {
        // size is .u32: 0x80000000 is 2^31 bytes, more than any shared memory, not -2^31 bytes of complete-tx.
        String body = SHARED_TO_PEER.replace("[%r12], 128,", "[%r12], 0x80000000,") + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(List.of("memory-fault"), codes(r), r.summary());
        assertTrue(r.summary().contains("copies 2147483648 bytes"), r.summary());
    }

    @Test
    void aWaitGroupCountThatIsNegativeOrPast32BitsIsRefusedAtLoad() {
        // N counts groups: -1 must not read as "no wait", nor 2^32 wrap to wait_group 0.
        for (String w : List.of("cp.async.wait_group -1;", "cp.async.bulk.wait_group 4294967296;", "cp.async.bulk.wait_group.read -1;")) {
            org.junit.jupiter.api.Assertions.assertThrows(io.barrierscope.launch.BadInputException.class,
                    () -> kernel(w + "\nret;").threads(32).run(), w);
        }
        LaunchedRun r = kernel("cp.async.wait_group 4294967295;\ncp.async.bulk.wait_group 2147483648;\nret;").threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void waitGroupReadOneWaitsForTheOlderGroupEvenWhenTheNewerCompletesFirst() {
        // Two bulk stores in two groups; wait_group.read 1 must leave only the newer pending, so the older
        // group's source may be overwritten after it whichever copy the seeded latencies complete first.
        String body = "@!%p1 bra DONE;\nmov.u32 %r6, 100;\nst.shared.u32 [%r3], %r6;\nst.shared.u32 [%r3+16], %r6;\n"
                + "fence.proxy.async.shared::cta;\ncp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r3], 16;\n"
                + "cp.async.bulk.commit_group;\nadd.u32 %r7, %r3, 16;\nadd.s64 %rd5, %rd4, 16;\n"
                + "cp.async.bulk.global.shared::cta.bulk_group [%rd5], [%r7], 16;\ncp.async.bulk.commit_group;\n"
                + "cp.async.bulk.wait_group.read 1;\nmov.u32 %r6, 7;\nst.shared.u32 [%r3], %r6;\ncp.async.bulk.wait_group 0;\nDONE:\nret;";
        for (String p : List.of("round-robin", "random", "adversarial")) {
            for (long seed = 0; seed < 6; seed++) {
                LaunchedRun r = kernel(body).threads(32).policy(p, seed).run();
                assertEquals(List.of(), codes(r), p + " " + seed + "\n" + r.summary());
                assertEquals(100L, u32(r, "out").get(0), p + " " + seed);
                assertEquals(100L, u32(r, "out").get(4), p + " " + seed);
            }
        }
    }

    @Test
    void aCtaExitingWithACopyIntoItsSharedMemoryInFlightIsReported() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n" + BULK.replace("EXPECT", "128") + "ret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(List.of("async-pending-at-exit"), codes(r));
    }

    @Test
    void aTensorCopyFromSomethingThatIsNoTensorMapIsReported() {
        // The "map" is the in buffer itself: its 128 bytes are not a tensor map the launch described.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra DONE;\nmov.u32 %r6, 0;\n"
                + "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r3], [%rd2, {%r6}], [%r2];\nDONE:\nret;";
        LaunchedRun r = kernel(body).threads(32).run();
        assertEquals(List.of("tensor-map-invalid"), codes(r));
    }

    @Test
    void aMulticastCopyWithAnEmptyCtaMaskIsReportedAndNotIssued() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nfence.mbarrier_init.release.cluster;\nbarrier.cluster.arrive;\n"
                + "barrier.cluster.wait;\n@!%p1 bra DONE;\nsetp.ne.u32 %p3, %r20, 0;\n@%p3 bra DONE;\nmov.u16 %rs1, 0;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd2], 128, [%r2], %rs1;\n"
                + "DONE:\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        for (boolean race : new boolean[] {true, false}) {
            PtxRun k = PtxRun.kernel(REGS.replace(".reg .b64 %rd<16>;", ".reg .b64 %rd<16>;\n.reg .b16 %rs<4>;") + body)
                    .header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128).cluster(2).threads(32);
            LaunchedRun r = (race ? k : k.racy()).run();
            assertEquals(List.of("multicast-empty-mask"), codes(r), r.summary());
        }
    }
}
