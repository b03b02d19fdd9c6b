package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static io.barrierscope.testing.PtxRun.u32;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** st.async and red.async into a cluster peer (PTX ISA 9.7.9.12, 9.7.13.7; semantics.md section 12). */
class AsyncRemoteStoreRulesTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 tile[64];";
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, bar;\nmov.u32 %r3, tile;\n"
            + "ld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\nmov.u32 %r20, %cluster_ctarank;\n";
    /** Thread 0 of each CTA initialises bar (count 1); the cluster syncs. */
    private static final String INIT = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n";
    private static final String WAIT_PHASE0 = "mov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\n@!%p2 bra W;\n";
    /** out[rank*8 + k] = tile word k, k = 0..1, by thread 0; then the cluster syncs and exits. */
    private static final String OUT = "@!%p1 bra END;\nld.shared.u32 %r10, [%r3];\nld.shared.u32 %r11, [%r3+4];\n"
            + "mul.wide.u32 %rd5, %r20, 32;\nadd.s64 %rd6, %rd4, %rd5;\nst.global.u32 [%rd6], %r10;\nst.global.u32 [%rd6+4], %r11;\n"
            + "END:\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";

    private static PtxRun kernel(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER).buffer("out", 64);
    }

    @Test
    void redAsyncSignedMinAndMaxCompareAsSigned() {
        // Rank 0 expects 8 bytes; rank 1 reduces -5 into rank 0's tile[0] with min.s32 and tile[1] with max.s32 (both 0).
        String body = INIT + "@!%p1 bra WAITERS;\nsetp.eq.u32 %p3, %r20, 0;\n@%p3 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 8;\n"
                + "@%p3 bra WAITERS;\nmov.u32 %r13, 0;\nmapa.shared::cluster.u32 %r14, %r3, %r13;\nmapa.shared::cluster.u32 %r15, %r2, %r13;\n"
                + "mov.u32 %r16, -5;\n"
                + "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.s32 [%r14], %r16, [%r15];\n"
                + "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.max.s32 [%r14+4], %r16, [%r15];\n"
                + "WAITERS:\nsetp.eq.u32 %p4, %r20, 0;\n@!%p4 bra SKIP;\n" + WAIT_PHASE0 + "SKIP:\n" + OUT;
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(0xFFFFFFFBL, u32(r, "out").get(0), "min.s32(0, -5) = -5");
        assertEquals(0L, u32(r, "out").get(1), "max.s32(0, -5) = 0");
    }

    @Test
    void redAsyncLoadsEveryOperationAndTypeTheIsaListsAndRefusesOthers() {
        String[] listed = {"inc.u32", "dec.u32", "min.u32", "min.s32", "max.u32", "max.s32", "and.b32", "or.b32", "xor.b32",
            "add.u32", "add.s32", "add.u64"};
        for (String opType : listed) {
            String reg = opType.endsWith("64") ? "%rd9" : "%r16";
            kernel("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes." + opType + " [%r3], " + reg + ", [%r2];\nret;")
                    .cluster(2).threads(32).launch();
        }
        // Without the completion mechanism written, .relaxed red.async still completes on the mbarrier (its default).
        kernel("red.async.relaxed.cluster.shared::cluster.add.u32 [%r3], %r16, [%r2];\nret;").cluster(2).threads(32).launch();
        BadInputException e = assertThrows(BadInputException.class, () -> kernel(
                "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.s64 [%r3], %rd9, [%r2];\nret;")
                .cluster(2).threads(32).launch());
        assertTrue(e.getMessage().contains("9.7.13.7"), e.getMessage());
    }

    @Test
    void stAsyncWithoutAStateSpaceTakesGenericAddressesOfThePeer() {
        // Rank 1 stores 77 into rank 0's tile[0] through generic addresses (cvta then mapa.u64), then a generic
        // address outside the shared window is undefined.
        String body = INIT + "@!%p1 bra WAITERS;\nsetp.eq.u32 %p3, %r20, 0;\n@%p3 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 4;\n"
                + "@%p3 bra WAITERS;\nmov.u32 %r13, 0;\ncvta.shared.u64 %rd7, tile;\ncvta.shared.u64 %rd8, bar;\n"
                + "mapa.u64 %rd9, %rd7, %r13;\nmapa.u64 %rd10, %rd8, %r13;\nmov.u32 %r16, 77;\n"
                + "st.async.mbarrier::complete_tx::bytes.u32 [%rd9], %r16, [%rd10];\n"
                + "WAITERS:\nsetp.eq.u32 %p4, %r20, 0;\n@!%p4 bra SKIP;\n" + WAIT_PHASE0 + "SKIP:\n" + OUT;
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(77L, u32(r, "out").get(0));
        String bad = INIT + "@!%p1 bra DONE;\nsetp.eq.u32 %p3, %r20, 1;\n@!%p3 bra DONE;\ncvta.shared.u64 %rd8, bar;\n"
                + "mov.u32 %r13, 0;\nmapa.u64 %rd10, %rd8, %r13;\n"
                + "st.async.mbarrier::complete_tx::bytes.u32 [%rd4], %r13, [%rd10];\nDONE:\n" + OUT;
        LaunchedRun b = kernel(bad).cluster(2).threads(32).run();
        assertEquals(List.of("async-remote-target"), codes(b));
        assertTrue(b.interpreter().diagnostics().get(0).message().contains("not in the shared::cluster window"),
                b.interpreter().diagnostics().get(0).message());
    }

    @Test
    void aDestinationInOneCtaAndAnMbarrierInAnotherIsAsyncRemoteTarget() {
        // Rank 1 stores into rank 0's tile but names its own mbarrier: undefined; no complete-tx lands anywhere.
        String body = INIT + "@!%p1 bra DONE;\nsetp.eq.u32 %p3, %r20, 1;\n@!%p3 bra DONE;\nmov.u32 %r13, 0;\n"
                + "mapa.shared::cluster.u32 %r14, %r3, %r13;\n"
                + "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r14], %r13, [%r2];\nDONE:\n" + OUT;
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(List.of("async-remote-target"), codes(r));
        String msg = r.interpreter().diagnostics().get(0).message();
        assertTrue(msg.contains("same CTA") && msg.contains("9.7.9.12") && msg.contains("rank 0") && msg.contains("rank 1"), msg);
        assertEquals(0, r.machine().mbarriers.at(1, 0).tx, "no complete-tx on the wrong CTA's mbarrier");
    }

    @Test
    void aRedAsyncIntoTheIssuersOwnCtaIsAsyncRemoteTarget() {
        String body = INIT + "@!%p1 bra DONE;\nmov.u32 %r16, 1;\n"
                + "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r3], %r16, [%r2];\nDONE:\n" + OUT;
        LaunchedRun r = kernel(body).cluster(2).threads(32).run();
        assertEquals(List.of("async-remote-target"), codes(r));
        String msg = r.interpreter().diagnostics().get(0).message();
        assertTrue(msg.contains("own CTA") && msg.contains("9.7.13.7"), msg);
    }

    @Test
    void twoRedAsyncOnOneLocationNeverRace() {
        // Ranks 1 and 2 each add (rank) into rank 0's tile[0]; rank 0 expects 8 bytes. Race detection is on.
        String body = INIT + "@!%p1 bra WAITERS;\nsetp.eq.u32 %p3, %r20, 0;\n@%p3 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 8;\n"
                + "@%p3 bra WAITERS;\nmov.u32 %r13, 0;\nmapa.shared::cluster.u32 %r14, %r3, %r13;\nmapa.shared::cluster.u32 %r15, %r2, %r13;\n"
                + "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r14], %r20, [%r15];\n"
                + "WAITERS:\nsetp.eq.u32 %p4, %r20, 0;\n@!%p4 bra SKIP;\n" + WAIT_PHASE0 + "SKIP:\n" + OUT;
        for (String p : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = kernel(body).cluster(3).threads(32).policy(p, 3).run();
            assertEquals(Outcome.COMPLETED, outcome(r), p + "\n" + r.summary());
            assertEquals(List.of(), codes(r), p);
            assertEquals(3L, u32(r, "out").get(0), p);
        }
    }
}
