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
 * One test per rule of the async proxy (semantics.md section 13, PTX ISA 9.7.13.4 and
 * 9.7.9.25): generic-proxy writes read or overwritten by cp.async.bulk need the writer's
 * fence.proxy.async, covering the state space, ordered before the copy's issue.
 */
class AsyncProxyTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;\n.shared .align 128 .b8 sm[512];";
    /** %r1 = tid, %p1 = tid == 0, %p2 = tid == 32, %r2 = bar, %r3 = sm, %rd2 = in, %rd4 = out. */
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p2, %r1, 32;\nmov.u32 %r2, bar;\nmov.u32 %r3, sm;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n";
    /** Thread 0 stores the 128-byte tile sm[0..127] to out with a bulk copy and waits for it. */
    private static final String STORE_TILE = "@!%p1 bra E;\ncp.async.bulk.global.shared::cta.bulk_group [%rd4], [%r3], 128;\n"
            + "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\nE:\nret;";

    private static LaunchedRun run(String body) {
        return PtxRun.kernel(REGS + body).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128).threads(64).run();
    }

    private static void assertCode(String code, LaunchedRun r) {
        assertEquals(Outcome.DIAGNOSED, outcome(r), r.summary());
        assertEquals(List.of(code), codes(r), r.summary());
    }

    private static void assertClean(LaunchedRun r) {
        assertEquals(Outcome.COMPLETED, outcome(r), r.summary());
        assertEquals(List.of(), codes(r), r.summary());
    }

    @Test
    void aGenericWriteReadByABulkCopyWithoutAProxyFenceIsReportedWithBothLines() {
        LaunchedRun bad = run("@%p1 st.shared.u32 [sm+8], 7;\n" + STORE_TILE);
        assertCode("proxy-fence-missing", bad);
        Diagnostic d = bad.interpreter().diagnostics().get(0);
        assertEquals(2, d.ptxLocations().size(), d.message());
        assertEquals(List.of(0, 0), d.threads(), d.message());
        assertTrue(d.message().contains("st.shared.u32 at line") && d.message().contains("cp.async.bulk.global.shared::cta.bulk_group at line")
                && d.message().contains("through the async proxy") && d.message().contains("fence.proxy.async.shared::cta"), d.message());
        assertClean(run("@%p1 st.shared.u32 [sm+8], 7;\n@%p1 fence.proxy.async.shared::cta;\n" + STORE_TILE));
    }

    @Test
    void aProxyFenceWithoutAStateSpaceCoversSharedMemoryButAGlobalOneDoesNot() {
        assertClean(run("@%p1 st.shared.u32 [sm+8], 7;\n@%p1 fence.proxy.async;\n" + STORE_TILE));
        assertClean(run("@%p1 st.shared.u32 [sm+8], 7;\n@%p1 fence.proxy.async.shared::cluster;\n" + STORE_TILE));
        assertCode("proxy-fence-missing", run("@%p1 st.shared.u32 [sm+8], 7;\n@%p1 fence.proxy.async.global;\n" + STORE_TILE));
    }

    @Test
    void membarProxyAsyncIsASynonymOfFenceProxyAsync() {
        assertClean(run("@%p1 st.shared.u32 [sm+8], 7;\n@%p1 membar.proxy.async;\n" + STORE_TILE));
    }

    @Test
    void aProxyFenceBeforeTheWriteOrdersNothing() {
        assertCode("proxy-fence-missing", run("@%p1 fence.proxy.async.shared::cta;\n@%p1 st.shared.u32 [sm+8], 7;\n" + STORE_TILE));
    }

    @Test
    void theWritersFenceMustHappenBeforeTheIssueAndTheIssuersOwnFenceDoesNotCoverAnotherThreadsWrite() {
        String write = "@%p2 st.shared.u32 [sm+4], 9;\n";
        // Epilogue pattern: every writer fences, then the barrier hands the tile to the issuing thread.
        assertClean(run(write + "fence.proxy.async.shared::cta;\nbar.sync 0;\n" + STORE_TILE));
        // Without the barrier the write itself is unordered with the copy: a plain race.
        assertCode("race", run(write + "fence.proxy.async.shared::cta;\n@%p2 nanosleep.u32 0;\n" + STORE_TILE.replace("@!%p1 bra E;",
                "@!%p1 bra E;\nnanosleep.u32 2000;")));
        // The writer fences only after the barrier: not ordered before the issue.
        assertCode("proxy-fence-missing", run(write + "bar.sync 0;\n@%p2 fence.proxy.async.shared::cta;\n" + STORE_TILE));
        // Only the issuing thread fences: the writer's generic write is still not fenced.
        LaunchedRun issuerOnly = run(write + "bar.sync 0;\n@%p1 fence.proxy.async.shared::cta;\n" + STORE_TILE);
        assertCode("proxy-fence-missing", issuerOnly);
        assertEquals(List.of(32, 0), issuerOnly.interpreter().diagnostics().get(0).threads());
    }

    private static final String LOAD_TILE = "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra E;\n"
            + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\n"
            + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\n"
            + "mov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], %r5;\n@!%p4 bra W;\n"
            + "ld.shared.u32 %r10, [sm+4];\nst.global.u32 [%rd4], %r10;\nE:\nret;";

    @Test
    void aGenericWriteOverwrittenByABulkCopyIntoSharedMemoryNeedsAProxyFenceToo() {
        LaunchedRun bad = run("@%p2 st.shared.u32 [sm+4], 5;\n" + LOAD_TILE);
        assertCode("proxy-fence-missing", bad);
        assertTrue(bad.interpreter().diagnostics().get(0).message().contains("overwrites it"), bad.summary());
        assertClean(run("@%p2 st.shared.u32 [sm+4], 5;\n@%p2 fence.proxy.async.shared::cta;\n" + LOAD_TILE));
    }

    @Test
    void aGenericGlobalWriteReadByABulkCopyNeedsAGlobalProxyFence() {
        String write = "@%p1 st.global.u32 [%rd2+8], 3;\n";
        assertCode("proxy-fence-missing", run(write + LOAD_TILE));
        assertClean(run(write + "@%p1 fence.proxy.async.global;\n" + LOAD_TILE));
        assertCode("proxy-fence-missing", run(write + "@%p1 fence.proxy.async.shared::cta;\n" + LOAD_TILE));
    }

    @Test
    void anAsyncWriteReadByGenericCodeBeforeTheAcquiringWaitIsARaceThatNamesTheProxy() {
        String early = LOAD_TILE.replace("mov.u32 %r5, 0;", "ld.shared.u32 %r11, [sm+8];\nmov.u32 %r5, 0;");
        for (long seed = 0; seed < 3; seed++) {
            LaunchedRun r = PtxRun.kernel(REGS + early).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128)
                    .threads(64).policy("random", seed).run();
            assertCode("race", r);
            assertTrue(r.interpreter().diagnostics().get(0).message().contains("through the async proxy"), r.summary());
        }
    }

    @Test
    void cpAsyncAndStAsyncAreGenericProxyAccessesThatNeedNoProxyFence() {
        String copy = "@%p1 st.shared.u32 [sm], 1;\n@!%p1 bra E;\ncp.async.ca.shared.global [%r3], [%rd2], 4;\ncp.async.commit_group;\n"
                + "cp.async.wait_group 0;\nE:\nret;";
        assertClean(run(copy));
    }

    /** Both CTAs of a 2-CTA cluster init their `bar`, FENCE, and meet at a relaxed cluster barrier. */
    private static final String CLUSTER_INIT = "mov.u32 %r20, %cluster_ctarank;\n@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\n"
            + "FENCE\nbarrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.aligned;\n";

    private static LaunchedRun cluster(String body, boolean fenced) {
        String k = CLUSTER_INIT.replace("FENCE", fenced ? "@%p1 fence.mbarrier_init.release.cluster;" : "") + body;
        return PtxRun.kernel(REGS + k).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128).threads(32)
                .cluster(2).run();
    }

    @Test
    void aRemoteArriveOnAPeersMbarrierWhoseInitWasNotFencedForTheClusterIsMbarrierInitNotFenced() {
        // Rank 1's thread 0 arrives on rank 0's bar; rank 0's thread 0 waits for phase 0.
        String body = "@!%p1 bra E;\nsetp.eq.u32 %p5, %r20, 0;\n@%p5 bra WAIT;\nmapa.shared::cluster.u32 %r21, %r2, 0;\n"
                + "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21];\nbra E;\nWAIT:\nmov.u32 %r5, 0;\n"
                + "W:\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p4, [%r2], %r5;\n@!%p4 bra W;\nE:\nret;";
        LaunchedRun bad = cluster(body, false);
        assertCode("mbarrier-init-not-fenced", bad);
        Diagnostic d = bad.interpreter().diagnostics().get(0);
        assertTrue(d.message().contains("mbarrier.init") && d.message().contains("fence.mbarrier_init.release.cluster"), d.message());
        assertEquals(2, d.ptxLocations().size(), d.message());
        assertClean(cluster(body, true));
    }

    @Test
    void aMulticastCopyCompletingOnAPeersMbarrierWhoseInitWasNotFencedIsMbarrierInitNotFenced() {
        // Rank 0's thread 0 multicasts 128 bytes to both CTAs; each CTA's thread 0 expects them on its own bar and waits.
        String body = "@!%p1 bra E;\nmbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 128;\nsetp.ne.u32 %p5, %r20, 0;\n"
                + "@%p5 bra WAIT;\nmov.u16 %rs1, 3;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], [%rd2], 128, [%r2], %rs1;\n"
                + "WAIT:\nmov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], %r5;\n@!%p4 bra W;\nE:\nret;";
        String regs = ".reg .b16 %rs<4>;\n";
        LaunchedRun bad = cluster(regs + body, false);
        assertCode("mbarrier-init-not-fenced", bad);
        Diagnostic d = bad.interpreter().diagnostics().get(0);
        assertTrue(d.message().contains("asynchronous copy issued by") && d.message().contains("fence.mbarrier_init"), d.message());
        assertClean(cluster(regs + body, true));
    }

    @Test
    void aPublishedInitThatTheRemoteArriveIsStillUnorderedWithIsAPlainRace() {
        // The init is fenced for the cluster, but rank 1 arrives without waiting on the cluster barrier:
        // the missing piece is the synchronization, not the fence.
        String body = "@!%p1 bra E;\nsetp.eq.u32 %p5, %r20, 0;\n@%p5 bra WAIT;\nmapa.shared::cluster.u32 %r21, %r2, 0;\n"
                + "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r21];\nbra E;\nWAIT:\nmov.u32 %r5, 0;\n"
                + "W:\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p4, [%r2], %r5;\n@!%p4 bra W;\nE:\nret;";
        String k = "mov.u32 %r20, %cluster_ctarank;\n@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\n"
                + "@%p1 fence.mbarrier_init.release.cluster;\nsetp.ne.u32 %p6, %r20, 0;\n@%p6 nanosleep.u32 500;\n" + body;
        LaunchedRun r = PtxRun.kernel(REGS + k).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128).threads(32)
                .cluster(2).run();
        assertCode("race", r);
        assertTrue(r.interpreter().diagnostics().get(0).message().contains("mbarrier.init"), r.summary());
    }

    @Test
    void aCheckpointRestoresTheProxyFencesSoTheSameFindingAndStateHashComeBack() {
        String body = "@%p2 st.shared.u32 [sm+4], 9;\nnanosleep.u32 100;\n@%p1 fence.proxy.async.shared::cta;\nbar.sync 0;\n" + STORE_TILE;
        LaunchedRun r = PtxRun.kernel(REGS + body).header(HEADER).buffer("in", 128, ScalarType.U32, "iota").buffer("out", 128)
                .threads(64).launch();
        for (int i = 0; i < 3; i++) r.interpreter().step();
        Checkpoint cp = Checkpoint.take(r.interpreter());
        long before = StateHash.of(r.interpreter());
        r.runToEnd();
        // Thread 0 fenced, but the writer (thread 32) did not.
        assertCode("proxy-fence-missing", r);
        String first = r.interpreter().diagnostics().get(0).message();
        long end = StateHash.of(r.interpreter());
        cp.restoreInto(r.interpreter());
        assertEquals(before, StateHash.of(r.interpreter()));
        r.runToEnd();
        assertEquals(first, r.interpreter().diagnostics().get(0).message());
        assertEquals(end, StateHash.of(r.interpreter()));
    }
}
