package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Dim3;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which addressing reaches another CTA's mbarrier (PTX ISA 9.7.13.15.8, .13; semantics.md section 12). */
class MbarrierPeerAddressTest {
    private static final String START = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\nmov.u32 %r1, %tid.x;\n"
            + "setp.eq.u32 %p1, %r1, 0;\nmov.u32 %r20, %cluster_ctarank;\nmov.u32 %r2, bar;\n"
            + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 64;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"
            + "setp.eq.u32 %p2, %r20, 1;\nand.pred %p3, %p1, %p2;\n";
    private static final String END = "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";

    private static LaunchedRun run(String body) {
        return PtxRun.kernel(START + body + END).header(".shared .align 8 .b64 bar;").cluster(2).threads(32).run();
    }

    @Test
    void aPeerMbarrierReachedThroughSharedCtaAddressingIsNotShared() {
        LaunchedRun r = run("mov.u32 %r3, 0;\nmapa.shared::cluster.u32 %r4, %r2, %r3;\n@%p3 mbarrier.arrive.shared::cta.b64 %rd1, [%r4];\n");
        assertEquals(List.of("mbarrier-not-shared"), codes(r));
        String msg = r.interpreter().diagnostics().get(0).message();
        assertTrue(msg.contains("cluster rank 0") && msg.contains(".shared::cta") && msg.contains("9.7.13.15.13"), msg);
        assertEquals(64, r.machine().mbarriers.at(0, 0).pending, "no arrive-on happened");
    }

    @Test
    void aPeerMbarrierReachedThroughGenericAddressingIsNotShared() {
        LaunchedRun r = run("mov.u32 %r3, 0;\ncvta.shared.u64 %rd2, bar;\nmapa.u64 %rd3, %rd2, %r3;\n"
                + "@%p3 mbarrier.arrive.b64 %rd1, [%rd3];\n");
        assertEquals(List.of("mbarrier-not-shared"), codes(r));
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("generic"), r.interpreter().diagnostics().get(0).message());
    }

    @Test
    void aSharedClusterArriveWithAStateDestinationIsRefusedAtLoad() {
        for (String insn : List.of("mbarrier.arrive.shared::cluster.b64 %rd1, [%r4];", "mbarrier.arrive_drop.shared::cluster.b64 %rd1, [%r4];")) {
            BadInputException e = assertThrows(BadInputException.class, () -> PtxRun.kernel(START
                    + "mov.u32 %r3, 0;\nmapa.shared::cluster.u32 %r4, %r2, %r3;\n@%p3 " + insn + "\n" + END)
                    .header(".shared .align 8 .b64 bar;").cluster(2).threads(32).launch());
            assertTrue(e.getMessage().contains("cannot return a state") && e.getMessage().contains("'_'"), insn + ": " + e.getMessage());
        }
    }

    @Test
    void aPeerMbarrierReachedByArriveDropThroughSharedCtaAddressingIsNotShared() {
        LaunchedRun r = run("mov.u32 %r3, 0;\nmapa.shared::cluster.u32 %r4, %r2, %r3;\n@%p3 mbarrier.arrive_drop.shared::cta.b64 %rd1, [%r4];\n");
        assertEquals(List.of("mbarrier-not-shared"), codes(r));
        assertEquals(64, r.machine().mbarriers.at(0, 0).expected, "nothing was dropped");
    }

    @Test
    void aPeerMbarrierReachedThroughGenericAddressingWithTheSinkIsArrivedOn() {
        // The ISA's own Example 4 (9.7.13.15.16) and the examples of 9.7.13.15.13: mapa.u64, then
        // mbarrier.arrive.release.cluster.b64 _, [remAddr]; expect_tx/complete_tx/arrive_drop name
        // the .shared::cluster window for generic addresses outright.
        LaunchedRun r = run("mov.u32 %r3, 0;\ncvta.shared.u64 %rd2, bar;\nmapa.u64 %rd3, %rd2, %r3;\n"
                + "@%p3 mbarrier.arrive.release.cluster.b64 _, [%rd3];\n"
                + "@%p3 mbarrier.arrive.release.cluster.b64 _, [%rd3], 2;\n"
                + "@%p3 mbarrier.expect_tx.relaxed.cluster.b64 [%rd3], 32;\n"
                + "@%p3 mbarrier.complete_tx.relaxed.cluster.b64 [%rd3], 16;\n"
                + "@%p3 mbarrier.arrive_drop.release.cluster.b64 _, [%rd3];\n");
        assertEquals(List.of(), codes(r));
        assertEquals(64 - 4, r.machine().mbarriers.at(0, 0).pending, "three arrive-ons of 1, 2 and 1");
        assertEquals(63, r.machine().mbarriers.at(0, 0).expected, "arrive_drop lowered the expected count");
        assertEquals(16, r.machine().mbarriers.at(0, 0).tx, "expect-tx 32, complete-tx 16");
    }
    @Test
    void aNoCompleteArriveOnAPeerThroughAGenericAddressIsNotSharedEvenWithTheSink() {
        // .noComplete is written with .shared{::cta} only (9.7.13.15.13, .14): the generic peer path is for plain arrives.
        LaunchedRun r = run("mov.u32 %r3, 0;\ncvta.shared.u64 %rd2, bar;\nmapa.u64 %rd3, %rd2, %r3;\n"
                + "@%p3 mbarrier.arrive.noComplete.b64 _, [%rd3], 2;\n");
        assertEquals(List.of("mbarrier-not-shared"), codes(r));
        assertTrue(r.interpreter().diagnostics().get(0).message().contains(".noComplete"), r.interpreter().diagnostics().get(0).message());
        assertEquals(64, r.machine().mbarriers.at(0, 0).pending, "no arrive-on happened");
    }

    @Test
    void aNoCompleteArriveOnSharedClusterIsRefusedAtLoad() {
        for (String insn : List.of("mbarrier.arrive.noComplete.shared::cluster.b64 _, [%r4], 2;",
                "mbarrier.arrive_drop.noComplete.shared::cluster.b64 _, [%r4], 2;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> PtxRun.kernel(START
                    + "mov.u32 %r3, 0;\nmapa.shared::cluster.u32 %r4, %r2, %r3;\n@%p3 " + insn + "\n" + END)
                    .header(".shared .align 8 .b64 bar;").cluster(2).threads(32).launch());
            assertTrue(e.getMessage().contains(".noComplete has no .shared::cluster form"), insn + ": " + e.getMessage());
        }
    }

    @Test
    void aNoCompleteArriveWithClusterScopeOrRelaxedIsRefusedAtLoad() {
        for (String insn : List.of("mbarrier.arrive.noComplete.release.cluster.shared::cta.b64 %rd9, [%r2], 2;",
                "mbarrier.arrive.noComplete.relaxed.cta.shared::cta.b64 %rd9, [%r2], 2;",
                "mbarrier.arrive_drop.noComplete.release.cluster.shared::cta.b64 %rd9, [%r2], 2;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> PtxRun.kernel(START
                    + "@%p3 " + insn + "\n" + END)
                    .header(".shared .align 8 .b64 bar;").cluster(2).threads(32).launch());
            assertTrue(e.getMessage().contains(".noComplete takes only .release and .cta"), insn + ": " + e.getMessage());
        }
    }

    @Test
    void aTokenOfTheSamePlaceInAnotherCtaIsABadToken() {
        // CTA 0 arrives on its bar and hands the token to CTA 1 through DSMEM; CTA 1 waits on its own
        // bar (same shared offset, also initialized once) with it: another object (9.7.13.15.16).
        String body = "setp.eq.u32 %p4, %r20, 0;\nand.pred %p5, %p1, %p4;\n@%p5 mbarrier.arrive.shared::cta.b64 %rd1, [%r2];\n"
                + "mov.u32 %r5, tok;\nmov.u32 %r6, 1;\nmapa.shared::cluster.u32 %r7, %r5, %r6;\n"
                + "@%p5 st.shared::cluster.u64 [%r7], %rd1;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"
                + "@%p3 ld.shared::cta.u64 %rd2, [%r5];\n@%p3 mbarrier.test_wait.shared::cta.b64 %p6, [%r2], %rd2;\n";
        LaunchedRun r = PtxRun.kernel(START + body + END).header(".shared .align 8 .b64 bar;\n.shared .align 8 .b64 tok;")
                .cluster(2).threads(32).run();
        assertEquals(List.of("mbarrier-bad-token"), codes(r));
        String msg = r.interpreter().diagnostics().get(0).message();
        assertTrue(msg.contains("is not a token of this CTA's mbarriers: another CTA's") && msg.contains("9.7.13.15.16"), msg);
    }

    @Test
    void aTokenOfACtaOfANeighbouringTwoDimensionalClusterIsABadToken() {
        // A 4x2 grid of 2x2 clusters: CTA (2,0) (rank 0 of the second cluster) hands its token through
        // global memory to CTA (0,1) (rank 2 of the first), which waits on its own bar with it (9.7.13.15.16).
        String body = ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\nld.param.u64 %rd1, [o];\n"
                + "cvta.to.global.u64 %rd1, %rd1;\nmov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\n"
                + "mov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ctaid.y;\nmad.lo.u32 %r4, %r3, 4, %r2;\nmov.u32 %r5, bar;\n"
                + "mbarrier.init.shared::cta.b64 [%r5], 2;\nsetp.eq.u32 %p2, %r4, 2;\n@%p2 bra PROD;\nsetp.eq.u32 %p3, %r4, 4;\n"
                + "@%p3 bra CONS;\nbra.uni DONE;\nPROD:\nmbarrier.arrive.shared::cta.b64 %rd2, [%r5];\nst.global.u64 [%rd1+8], %rd2;\n"
                + "st.release.gpu.global.u32 [%rd1], 1;\nbra.uni DONE;\nCONS:\nld.acquire.gpu.global.u32 %r6, [%rd1];\n"
                + "setp.eq.u32 %p4, %r6, 0;\n@%p4 bra CONS;\nld.global.u64 %rd3, [%rd1+8];\n"
                + "mbarrier.test_wait.shared::cta.b64 %p5, [%r5], %rd3;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).header(".shared .align 8 .b64 bar;").buffer("o", 4)
                .clusters(new Dim3(4, 2, 1), new Dim3(2, 2, 1)).threads(32).run();
        assertEquals(List.of("mbarrier-bad-token"), codes(r), r.summary());
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("is not a token of this CTA's mbarriers"), r.interpreter().diagnostics().get(0).message());
        // Every CTA of this grid carries its own tag, and a grid without clusters keeps the flat index.
        java.util.Set<Integer> tags = new java.util.TreeSet<>();
        for (int c = 0; c < 8; c++) tags.add(MbarrierSync.ctaTag(r.machine(), c));
        assertEquals(8, tags.size(), tags.toString());
        LaunchedRun flat = PtxRun.kernel("ret;").grid(20).threads(32).launch();
        for (int c = 0; c < 20; c++) assertEquals(c & 0xF, MbarrierSync.ctaTag(flat.machine(), c));
    }
}
