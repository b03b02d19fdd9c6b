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

/** barrier.cluster, distributed shared memory and remote mbarrier arrivals (semantics.md sections 2, 5, 6). */
class ClusterRulesTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 4 .b32 slot;";
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nmov.u32 %r20, %cluster_ctarank;\nmov.u32 %r21, %cluster_nctarank;\n"
            + "setp.eq.u32 %p1, %r1, 0;\n";
    /** out[ctarank * ntid + tid] = %r10 */
    private static final String STORE = "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r11, %ntid.x;\n"
            + "mad.lo.s32 %r12, %r20, %r11, %r1;\nmul.wide.u32 %rd3, %r12, 4;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r10;\n";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER);
    }

    @Test
    void twoCtasExchangeDataThroughDistributedSharedMemory() {
        // Each CTA stores 100 + rank in its own slot; after the cluster barrier, every thread reads its peer's slot.
        String body = "add.u32 %r2, %r20, 100;\n@%p1 st.shared.u32 [slot], %r2;\nbarrier.cluster.arrive.aligned;\n"
                + "barrier.cluster.wait.aligned;\nmov.u32 %r3, slot;\nadd.u32 %r4, %r20, 1;\nrem.u32 %r4, %r4, %r21;\n"
                + "mapa.shared::cluster.u32 %r5, %r3, %r4;\nld.shared::cluster.u32 %r10, [%r5];\n" + STORE
                + "barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(body).cluster(2).threads(64).buffer("out", 128).policy(policy, 3).run();
            assertEquals(Outcome.COMPLETED, outcome(r), policy + "\n" + r.summary());
            List<Long> out = u32(r, "out");
            for (int i = 0; i < 128; i++) assertEquals(i < 64 ? 101L : 100L, out.get(i), "element " + i);
        }
    }

    @Test
    void genericMapaAddressesReachThePeer() {
        String body = "add.u32 %r2, %r20, 7;\n@%p1 st.shared.u32 [slot], %r2;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"
                + "cvta.shared.u64 %rd5, slot;\nxor.b32 %r4, %r20, 1;\nmapa.u64 %rd6, %rd5, %r4;\nld.u32 %r10, [%rd6];\n" + STORE
                + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(32).buffer("out", 64).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(8L, u32(r, "out").get(0));
        assertEquals(7L, u32(r, "out").get(32));
    }

    @Test
    void getctarankNamesTheCtaOfAClusterAddress() {
        String body = "mov.u32 %r3, slot;\nmapa.shared::cluster.u32 %r5, %r3, 2;\ngetctarank.shared::cluster.u32 %r10, %r5;\n" + STORE + "ret;";
        LaunchedRun r = kernel(body).cluster(4).threads(32).buffer("out", 128).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        for (long v : u32(r, "out")) assertEquals(2L, v);
    }

    @Test
    void waitWithoutArriveIsReported() {
        LaunchedRun r = kernel("barrier.cluster.wait;\nret;").cluster(2).threads(32).run();
        assertEquals(List.of("cluster-barrier-wait-without-arrive"), codes(r));
    }

    @Test
    void arrivingTwiceBeforeWaitingIsOverArrival() {
        LaunchedRun r = kernel("barrier.cluster.arrive;\nbarrier.cluster.arrive;\nret;").cluster(2).threads(32).run();
        assertEquals(List.of("cluster-barrier-over-arrival"), codes(r));
    }

    @Test
    void twoAlignedClusterArrivesInOneWarpAreClusterBarrierDivergence() {
        String body = "mov.u32 %r2, %laneid;\nsetp.lt.u32 %p2, %r2, 16;\n@%p2 bra A;\nbarrier.cluster.arrive.aligned;\nbra.uni W;\n"
                + "A:\nbarrier.cluster.arrive.aligned;\nW:\nbarrier.cluster.wait.aligned;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(List.of("cluster-barrier-divergence"), codes(r), r.summary());
        assertEquals(2, r.interpreter().diagnostics().get(0).ptxLocations().size());
    }

    @Test
    void exitedThreadsDoNotBlockTheClusterBarrier() {
        String body = "setp.ge.u32 %p2, %r1, 32;\n@%p2 ret;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(64).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
    }

    @Test
    void aClusterBarrierInOnePartitionOnlyDeadlocks() {
        // Only warp 0 of each CTA arrives and waits; warp 1 spins on an mbarrier nobody completes.
        String body = "@%p1 mbarrier.init.shared::cta.b64 [bar], 1;\nbar.sync 0;\nsetp.ge.u32 %p2, %r1, 32;\n@%p2 bra SPIN;\n"
                + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\nSPIN:\nmov.u32 %r4, 0;\n"
                + "W:\nmbarrier.try_wait.parity.shared::cta.b64 %p3, [bar], %r4;\n@!%p3 bra W;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(64).run();
        assertEquals(Outcome.DEADLOCK, outcome(r), r.summary());
        String t = r.deadlockText();
        assertTrue(t.contains("barrier.cluster of the cluster"), t);
        assertTrue(t.contains("warp 1") && t.contains("polling mbarrier bar"), t);
    }

    @Test
    void readingAPeersSharedMemoryAfterItExitedIsDsmemAfterExit() {
        // CTA 1 exits at once; CTA 0 counts a while, then reads CTA 1's slot.
        String body = "setp.ne.u32 %p2, %r20, 0;\n@%p2 ret;\nmov.u32 %r6, 0;\nL:\nadd.u32 %r6, %r6, 1;\nsetp.lt.u32 %p3, %r6, 50;\n"
                + "@%p3 bra L;\nmov.u32 %r3, slot;\nmapa.shared::cluster.u32 %r5, %r3, 1;\nld.shared::cluster.u32 %r10, [%r5];\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(List.of("dsmem-after-exit"), codes(r));
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("cluster target block not present"));
    }

    @Test
    void everyThreadOfAFourCtaClusterArrivesOnCtaZerosMbarrier() {
        // CTA 0 inits count = 4 CTAs x 32 threads; a cluster barrier publishes the init; all arrive remotely;
        // CTA 0 waits for phase 0; a second cluster barrier keeps CTA 0 alive until every arrival landed.
        String body = "setp.eq.u32 %p4, %r20, 0;\nand.pred %p5, %p4, %p1;\n@%p5 mbarrier.init.shared::cta.b64 [bar], 128;\n"
                + "fence.mbarrier_init.release.cluster;\nbarrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n"
                + "mov.u32 %r3, bar;\nmapa.shared::cluster.u32 %r5, %r3, 0;\n"
                + "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r5];\n@!%p4 bra DONE;\nmov.u32 %r4, 0;\n"
                + "W:\nmbarrier.try_wait.parity.shared::cta.b64 %p3, [bar], %r4;\n@!%p3 bra W;\n"
                + "DONE:\nbarrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\nret;";
        LaunchedRun r = kernel(body).cluster(4).threads(32).policy("random", 8).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(1, r.machine().mbarriers.at(0, 0).phase);
    }

    @Test
    void waitingOnAPeersMbarrierIsRemoteWait() {
        String body = "@%p1 mbarrier.init.shared::cta.b64 [bar], 1;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"
                + "cvta.shared.u64 %rd5, bar;\nxor.b32 %r4, %r20, 1;\nmapa.u64 %rd6, %rd5, %r4;\nmov.u32 %r7, 0;\n"
                + "mbarrier.test_wait.parity.b64 %p3, [%rd6], %r7;\nret;";
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(List.of("mbarrier-remote-wait"), codes(r));
    }

    @Test
    void mapaToARankOutsideTheClusterFaults() {
        LaunchedRun r = kernel("mov.u32 %r3, slot;\nmapa.shared::cluster.u32 %r5, %r3, 5;\nret;").cluster(2).threads(32).run();
        assertEquals(List.of("memory-fault"), codes(r));
    }

    @Test
    void aSharedCtaAccessWithAPeersClusterAddressFaultsInsteadOfReachingThePeer() {
        // .shared::cta names "the shared memory window of the executing CTA", and plain .shared defaults to it
        // (PTX ISA 5.1.4): a peer's mapa address is outside that window. Only .shared::cluster reaches the peer.
        String setup = "mov.u32 %r3, slot;\nxor.b32 %r4, %r20, 1;\nmapa.shared::cluster.u32 %r5, %r3, %r4;\n";
        for (String access : List.of("ld.shared::cta.u32 %r10, [%r5];", "ld.shared.u32 %r10, [%r5];", "st.shared.u32 [%r5], 1;",
                "st.shared::cta.u32 [%r5+0], %r1;", "ld.volatile.shared.u32 %r10, [%r5];", "atom.shared.add.u32 %r10, [%r5], 1;",
                "red.shared::cta.add.u32 [%r5], 1;", "ld.shared.v2.u16 {%rs1, %rs2}, [%r5];", "st.shared.u8 [%r5], %rs1;")) {
            LaunchedRun r = PtxRun.kernel(REGS + ".reg .b16 %rs<4>;\n" + setup + access + "\nret;").header(HEADER).cluster(2).threads(32).run();
            assertEquals(List.of("memory-fault"), codes(r), access + "\n" + r.summary());
            String msg = r.interpreter().diagnostics().get(0).message();
            assertTrue(msg.contains("outside the executing CTA's shared memory window"), msg);
        }
        // The executing CTA's own shared::cluster address is in its window; .shared::cluster reaches the peer.
        String own = "add.u32 %r2, %r20, 7;\n@%p1 st.shared.u32 [slot], %r2;\nbar.sync 0;\nmov.u32 %r3, slot;\nmapa.shared::cluster.u32 %r5, %r3, %r20;\n"
                + "ld.shared::cta.u32 %r10, [%r5];\n" + STORE + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        LaunchedRun r = kernel(own).cluster(2).threads(32).buffer("out", 64).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(7L, u32(r, "out").get(0));
        assertEquals(8L, u32(r, "out").get(32));
    }
}
