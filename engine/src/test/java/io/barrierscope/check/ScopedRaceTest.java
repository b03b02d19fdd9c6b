package io.barrierscope.check;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import io.barrierscope.trace.Checkpoint;
import io.barrierscope.trace.StateHash;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One test per scope rule of semantics.md section 8 (PTX ISA memory consistency model: scope,
 * morally strong, release and acquire patterns; 9.7.13.4 fences, 9.7.13.5 atom): a
 * release/acquire hand-off, a fence pattern or two atomics synchronize (or do not race) only
 * when each operation is in the other's scope. Grids of four CTAs of 32 threads, in clusters of
 * two: CTAs 0 and 1 share a cluster, CTAs 0 and 2 do not.
 */
class ScopedRaceTest {
    /** %r1 = tid, %r2 = ctaid, %rd4 = out; %p1: the producer (CTA P thread 0), %p2: the consumer (CTA C thread TC). */
    private static final String REGS = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n"
            + "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd4, %rd1;\n"
            + "setp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p3, %r2, @P@;\nand.pred %p1, %p1, %p3;\n"
            + "setp.eq.u32 %p2, %r1, @TC@;\nsetp.eq.u32 %p4, %r2, @C@;\nand.pred %p2, %p2, %p4;\n";
    /** The producer writes data out[1] and publishes flag out[0]; the consumer spins on the flag, then reads the data. */
    private static final String FLAG = "@!%p1 bra CONS;\nst.global.u32 [%rd4+4], 42;\nPUBLISH\nret;\nCONS:\n@!%p2 bra E;\n"
            + "SPIN:\nOBSERVE\nsetp.eq.u32 %p5, %r11, 0;\n@%p5 bra SPIN;\nAFTER\nld.global.u32 %r10, [%rd4+4];\n"
            + "st.global.u32 [%rd4+8], %r10;\nE:\nret;";

    /** The hand-off from CTA {@code p} thread 0 to CTA {@code c} thread {@code tc}. */
    private static LaunchedRun handOff(int p, int c, int tc, String publish, String observe, String after) {
        return handOffKernel(p, c, tc, publish, observe, after).run();
    }

    private static PtxRun handOffKernel(int p, int c, int tc, String publish, String observe, String after) {
        String body = REGS.replace("@P@", "" + p).replace("@C@", "" + c).replace("@TC@", "" + tc)
                + FLAG.replace("PUBLISH", publish).replace("OBSERVE", observe).replace("AFTER", after);
        return PtxRun.kernel(body).buffer("out", 16).clusters(4, 2).threads(64);
    }

    private static LaunchedRun release(int p, int c, int tc, String scopeRel, String scopeAcq) {
        return handOff(p, c, tc, "st.release." + scopeRel + ".global.u32 [%rd4], 1;",
                "ld.acquire." + scopeAcq + ".global.u32 %r11, [%rd4];", "");
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
    void ctaScopedReleaseAcquireSynchronizesWithinOneCta() {
        assertClean(release(0, 0, 32, "cta", "cta"));
        assertClean(release(2, 2, 32, "cta", "gpu"));
    }

    @Test
    void ctaScopedReleaseAcquireBetweenTwoCtasRaces() {
        LaunchedRun r = release(1, 0, 0, "cta", "cta");
        assertRace(r);
        String msg = r.interpreter().diagnostics().get(0).message();
        assertTrue(msg.contains("is scoped to its CTA, which leaves the other thread out, so they are not morally strong"), msg);
        // Morally strong needs each in the other's scope: one side at .cta is enough to break it.
        assertRace(release(1, 0, 0, "cta", "gpu"));
        assertRace(release(1, 0, 0, "gpu", "cta"));
    }

    @Test
    void clusterScopedReleaseAcquireSynchronizesWithinAClusterAndRacesAcrossClusters() {
        assertClean(release(1, 0, 0, "cluster", "cluster"));
        assertClean(release(3, 2, 0, "cluster", "gpu"));
        assertRace(release(2, 0, 0, "cluster", "cluster"));
        assertRace(release(2, 0, 0, "gpu", "cluster"));
    }

    @Test
    void gpuAndSysScopedReleaseAcquireSynchronizeAnywhere() {
        assertClean(release(3, 0, 0, "gpu", "gpu"));
        assertClean(release(2, 1, 0, "sys", "gpu"));
        assertClean(release(0, 0, 32, "gpu", "sys"));
    }

    private static LaunchedRun fences(int p, int c, String fenceRel, String flagScope, String fenceAcq) {
        return handOff(p, c, 0, fenceRel + "\nst.relaxed." + flagScope + ".global.u32 [%rd4], 1;",
                "ld.relaxed." + flagScope + ".global.u32 %r11, [%rd4];", fenceAcq);
    }

    @Test
    void fencePatternsSynchronizeOnlyWhenBothFencesReachTheOtherThread() {
        assertClean(fences(3, 0, "fence.acq_rel.gpu;", "gpu", "fence.acq_rel.gpu;"));
        assertClean(fences(3, 0, "membar.gl;", "gpu", "fence.sc.sys;"));
        assertClean(fences(1, 0, "fence.acq_rel.cluster;", "gpu", "fence.acq_rel.cluster;"));
        assertRace(fences(2, 0, "fence.acq_rel.cluster;", "gpu", "fence.acq_rel.cluster;"));
        assertRace(fences(1, 0, "fence.acq_rel.cta;", "gpu", "fence.acq_rel.cta;"));
        assertRace(fences(1, 0, "membar.cta;", "gpu", "membar.cta;"));
        assertRace(fences(1, 0, "fence.acq_rel.gpu;", "gpu", "fence.acq_rel.cta;"));
        assertRace(fences(1, 0, "fence.acq_rel.cta;", "gpu", "fence.acq_rel.gpu;"));
    }

    @Test
    void ctaScopedFencesSynchronizeWithinOneCta() {
        LaunchedRun r = handOff(0, 0, 32, "fence.acq_rel.cta;\nst.relaxed.cta.global.u32 [%rd4], 1;",
                "ld.relaxed.cta.global.u32 %r11, [%rd4];", "membar.cta;");
        assertClean(r);
    }

    @Test
    void aRelaxedFlagAtCtaScopeBetweenCtasIsNotObservedEvenBetweenGpuFences() {
        // The write and the read of the flag are not morally strong: they race, and order nothing.
        assertRace(fences(3, 0, "fence.acq_rel.gpu;", "cta", "fence.acq_rel.gpu;"));
    }

    /**
     * Thread 0 of cluster rank 0 writes its shared word, fences, arrives relaxed on the cluster
     * barrier; after the wait thread READER (of rank 0 or 1) reads the word through DSMEM.
     * Clusters of two CTAs of 64 threads.
     */
    private static LaunchedRun fenceThenRelaxedClusterArrive(String fence, int readerRank, int readerTid) {
        return relaxedClusterArriveKernel(fence, readerRank, readerTid).run();
    }

    private static PtxRun relaxedClusterArriveKernel(String fence, int readerRank, int readerTid) {
        String body = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r3, sm;\n"
                + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd4, %rd1;\nmov.u32 %r20, %cluster_ctarank;\n"
                + "setp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p6, %r20, 0;\nand.pred %p6, %p6, %p1;\n@%p6 st.shared.u32 [sm], 3;\n"
                + fence + "\nbarrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\n"
                + "setp.eq.u32 %p7, %r20, " + readerRank + ";\nsetp.eq.u32 %p2, %r1, " + readerTid + ";\nand.pred %p7, %p7, %p2;\n"
                + "@!%p7 bra E;\nmapa.shared::cluster.u32 %r5, %r3, 0;\nld.shared::cluster.u32 %r10, [%r5];\nst.global.u32 [%rd4], %r10;\nE:\n"
                + "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        return PtxRun.kernel(body).header(".shared .align 4 .b32 sm;").buffer("out", 16).cluster(2).threads(64);
    }

    @Test
    void aFenceBeforeARelaxedClusterArrivePublishesOnlyToTheThreadsOfItsScope() {
        // barrier.cluster.arrive.relaxed orders nothing itself (9.7.13.3); the fence before it is the
        // release pattern's first operation, which must be morally strong with the wait: a .cta
        // fence reaches the waiters of its own CTA, a .cluster (or wider) one the whole cluster.
        assertClean(fenceThenRelaxedClusterArrive("fence.acq_rel.cluster;", 1, 0));
        assertClean(fenceThenRelaxedClusterArrive("fence.acq_rel.gpu;", 1, 0));
        assertClean(fenceThenRelaxedClusterArrive("fence.acq_rel.cta;", 0, 32));
        assertRace(fenceThenRelaxedClusterArrive("fence.acq_rel.cta;", 1, 0));
        assertRace(fenceThenRelaxedClusterArrive("membar.cta;", 1, 0));
    }

    @Test
    void aCtaFenceDoesNotPublishAnMbarrierInitToThePeerCtas() {
        // Rank 0 inits its mbarrier, fences and arrives relaxed on the cluster barrier; rank 1 then
        // arrives on it remotely. A .cluster fence publishes the init to the cluster; a .cta one
        // only to its own CTA, so the remote arrive uses an init its thread never published. (The
        // last cluster barrier, which keeps rank 0's shared memory alive, is relaxed: a release one
        // by rank 0 before the remote arrive would publish the init.)
        String body = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\n"
                + "mov.u32 %r20, %cluster_ctarank;\nsetp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p6, %r20, 0;\nand.pred %p6, %p6, %p1;\n"
                + "@%p6 mbarrier.init.shared::cta.b64 [%r2], 1;\nFENCE\nbarrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\n"
                + "setp.eq.u32 %p7, %r20, 1;\nand.pred %p7, %p7, %p1;\n@!%p7 bra E;\nmapa.shared::cluster.u32 %r5, %r2, 0;\n"
                + "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r5];\nE:\nbarrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\nret;";
        assertClean(PtxRun.kernel(body.replace("FENCE", "fence.acq_rel.cluster;")).header(".shared .align 8 .b64 bar;").cluster(2).threads(32).run());
        LaunchedRun r = PtxRun.kernel(body.replace("FENCE", "fence.acq_rel.cta;")).header(".shared .align 8 .b64 bar;").cluster(2).threads(32).run();
        assertEquals(List.of("mbarrier-init-not-fenced"), codes(r), r.summary());
    }

    /**
     * Thread 0 of cluster rank 1 writes rank 0's shared word through DSMEM, then (after BEFORE)
     * arrives remotely with ARRIVE on rank 0's mbarrier; thread 0 of rank 0 waits with WAIT, then
     * AFTER, then reads the word. Clusters of two CTAs of 32 threads.
     */
    private static LaunchedRun remoteMbarrierHandOff(String before, String arrive, String wait, String after) {
        return remoteMbarrierKernel(before, arrive, wait, after).run();
    }

    private static PtxRun remoteMbarrierKernel(String before, String arrive, String wait, String after) {
        String body = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\n"
                + "mov.u32 %r3, sm;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd4, %rd1;\nmov.u32 %r20, %cluster_ctarank;\n"
                + "setp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p6, %r20, 0;\nand.pred %p6, %p6, %p1;\nsetp.eq.u32 %p7, %r20, 1;\n"
                + "and.pred %p7, %p7, %p1;\n@%p6 mbarrier.init.shared::cta.b64 [%r2], 1;\nfence.mbarrier_init.release.cluster;\n"
                + "barrier.cluster.arrive;\nbarrier.cluster.wait;\n@!%p7 bra C;\nmapa.shared::cluster.u32 %r5, %r3, 0;\n"
                + "st.shared::cluster.u32 [%r5], 7;\n" + before + "\nmapa.shared::cluster.u32 %r6, %r2, 0;\n"
                + "mbarrier.arrive." + arrive + "shared::cluster.b64 _, [%r6];\nbra E;\nC:\n@!%p6 bra E;\nW:\n"
                + "mbarrier.try_wait.parity." + wait + "shared::cta.b64 %p5, [%r2], 0;\n@!%p5 bra W;\n" + after + "\n"
                + "ld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4], %r10;\nE:\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        return PtxRun.kernel(body).header(".shared .align 8 .b64 bar;\n.shared .align 4 .b32 sm;").buffer("out", 16).cluster(2)
                .threads(32);
    }

    @Test
    void aPeerCtasMbarrierArriveOrdersItsWorkOnlyWhenTheArriveAndTheWaitAreBothClusterScoped() {
        // 9.7.13.15.13/.16: .scope (.cta by default) is the set of threads that directly observe the
        // synchronizing effect; the arrive and the wait must each be in the other's scope.
        assertClean(remoteMbarrierHandOff("", "release.cluster.", "acquire.cluster.", ""));
        assertRace(remoteMbarrierHandOff("", "release.cta.", "acquire.cluster.", ""));
        assertRace(remoteMbarrierHandOff("", "", "acquire.cluster.", ""));
        assertRace(remoteMbarrierHandOff("", "release.cluster.", "acquire.cta.", ""));
        assertRace(remoteMbarrierHandOff("", "release.cluster.", "", ""));
        // A relaxed .cluster wait acquires the peer's arrive through a later fence of .cluster scope or wider only.
        assertClean(remoteMbarrierHandOff("", "release.cluster.", "relaxed.cluster.", "fence.acq_rel.cluster;"));
        assertRace(remoteMbarrierHandOff("", "release.cluster.", "relaxed.cluster.", "fence.acq_rel.cta;"));
    }

    @Test
    void aReinitialisedMbarrierDoesNotKeepThePeersArriveOnsOfItsPreviousInit() {
        // CTA 1 writes CTA 0's shared word and arrives (.release.cluster) on CTA 0's barrier, one of
        // two; a relaxed cluster barrier (no fence: no edge) lets CTA 0 invalidate and re-initialise
        // the barrier, complete the new phase 0 itself and wait .acquire.cluster. That phase never saw
        // CTA 1's arrive-on: the read races (9.7.13.15.13; mbarrier.init starts a new object).
        String body = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\n"
                + "mov.u32 %r3, sm;\nld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd4, %rd1;\nmov.u32 %r20, %cluster_ctarank;\n"
                + "setp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p6, %r20, 0;\nand.pred %p6, %p6, %p1;\nsetp.eq.u32 %p7, %r20, 1;\n"
                + "and.pred %p7, %p7, %p1;\n@%p6 mbarrier.init.shared::cta.b64 [%r2], 2;\nfence.mbarrier_init.release.cluster;\n"
                + "barrier.cluster.arrive;\nbarrier.cluster.wait;\n@!%p7 bra C;\nmapa.shared::cluster.u32 %r5, %r3, 0;\n"
                + "st.shared::cluster.u32 [%r5], 7;\nmapa.shared::cluster.u32 %r6, %r2, 0;\n"
                + "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r6];\nC:\n"
                + "barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;\n@!%p6 bra E;\nmbarrier.inval.shared::cta.b64 [%r2];\n"
                + "mbarrier.init.shared::cta.b64 [%r2], 1;\nmbarrier.arrive.shared::cta.b64 _, [%r2];\nW:\n"
                + "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p5, [%r2], 0;\n@!%p5 bra W;\n"
                + "ld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4], %r10;\nE:\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
        assertRace(PtxRun.kernel(body).header(".shared .align 8 .b64 bar;\n.shared .align 4 .b32 sm;").buffer("out", 16).cluster(2)
                .threads(32).run());
    }

    @Test
    void aFenceBeforeARelaxedMbarrierArrivePublishesOnlyToTheThreadsOfItsScope() {
        // A peer's relaxed .cluster arrive publishes an earlier fence only if the fence's scope reaches the waiter.
        assertClean(remoteMbarrierHandOff("fence.acq_rel.cluster;", "relaxed.cluster.", "acquire.cluster.", ""));
        assertRace(remoteMbarrierHandOff("fence.acq_rel.cta;", "relaxed.cluster.", "acquire.cluster.", ""));
        assertRace(remoteMbarrierHandOff("", "relaxed.cluster.", "acquire.cluster.", ""));
        // Within one CTA a .cta fence reaches the waiter: a relaxed arrive after it hands the data over.
        String local = ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, bar;\n"
                + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd4, %rd1;\nsetp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p2, %r1, 32;\n"
                + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra C;\nst.shared.u32 [sm], 7;\nFENCE\n"
                + "mbarrier.arrive.relaxed.cta.shared::cta.b64 _, [%r2];\nret;\nC:\n@!%p2 bra E;\nW:\n"
                + "mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r2], 0;\n@!%p5 bra W;\nld.shared.u32 %r10, [sm];\n"
                + "st.global.u32 [%rd4], %r10;\nE:\nret;";
        String header = ".shared .align 8 .b64 bar;\n.shared .align 4 .b32 sm;";
        assertClean(PtxRun.kernel(local.replace("FENCE", "fence.acq_rel.cta;")).header(header).buffer("out", 16).threads(64).run());
        assertRace(PtxRun.kernel(local.replace("FENCE", "")).header(header).buffer("out", 16).threads(64).run());
    }

    /** Thread 0 of CTA {@code r} reads out[0] with READ; later (after sleeping) thread 0 of CTA {@code w} writes it with WRITE. */
    private static LaunchedRun readThenWrite(int r, String read, int w, String write) { return readThenWriteKernel(r, read, w, write).run(); }

    private static PtxRun readThenWriteKernel(int r, String read, int w, String write) {
        String body = REGS.replace("@P@", "" + w).replace("@C@", "" + r).replace("@TC@", "0")
                + "@!%p2 bra WR;\n" + read + "\nret;\nWR:\n@!%p1 bra E;\nnanosleep.u32 1000;\nnanosleep.u32 1000;\n"
                + "nanosleep.u32 1000;\n" + write + "\nE:\nret;";
        return PtxRun.kernel(body).buffer("out", 16).clusters(4, 2).threads(32);
    }

    @Test
    void aWriteAfterAnUnorderedStrongReadRacesUnlessTheyAreMorallyStrong() {
        // A strong read is an access like any other: a later write unordered with it races with it
        // unless both are strong and morally strong (each in the other's scope, same footprint).
        assertClean(readThenWrite(1, "ld.relaxed.gpu.global.u32 %r11, [%rd4];", 0, "st.relaxed.gpu.global.u32 [%rd4], 1;"));
        assertClean(readThenWrite(1, "ld.relaxed.cluster.global.u32 %r11, [%rd4];", 0, "atom.cluster.global.exch.b32 %r12, [%rd4], 1;"));
        assertRace(readThenWrite(1, "ld.relaxed.cta.global.u32 %r11, [%rd4];", 0, "st.relaxed.gpu.global.u32 [%rd4], 1;"));
        assertRace(readThenWrite(2, "ld.acquire.cluster.global.u32 %r11, [%rd4];", 0, "st.relaxed.gpu.global.u32 [%rd4], 1;"));
        assertRace(readThenWrite(1, "atom.cta.global.or.b32 %r11, [%rd4], 0;", 0, "st.release.gpu.global.u32 [%rd4], 1;"));
        // A plain write after an unordered atomic read races whatever the read's scope.
        assertRace(readThenWrite(1, "ld.relaxed.gpu.global.u32 %r11, [%rd4];", 0, "st.global.u32 [%rd4], 1;"));
        // Morally strong needs the same footprint: a write at another start address is not.
        assertRace(readThenWrite(1, "ld.relaxed.gpu.global.u64 %rd5, [%rd4];", 0, "st.relaxed.gpu.global.u32 [%rd4+4], 1;"));
    }

    private static LaunchedRun atomics(String atom, int ctas) {
        // Thread 0 of every CTA adds to one global word.
        String body = REGS.replace("@P@", "0").replace("@C@", "0").replace("@TC@", "0")
                + "setp.ne.u32 %p6, %r1, 0;\n@%p6 bra E;\n" + atom + " %r10, [%rd4], 1;\nE:\nret;";
        return PtxRun.kernel(body).buffer("out", 16).clusters(ctas, ctas == 1 ? 1 : 2).threads(32).run();
    }

    @Test
    void atomicsOfDifferentCtasRaceUnlessEachScopeIncludesTheOther() {
        assertClean(atomics("atom.global.add.u32", 4));
        assertClean(atomics("atom.gpu.global.add.u32", 4));
        assertClean(atomics("atom.cluster.global.add.u32", 2));
        assertRace(atomics("atom.cluster.global.add.u32", 4));
        assertRace(atomics("atom.cta.global.add.u32", 2));
        assertClean(atomics("atom.cta.global.add.u32", 1));
    }

    @Test
    void aPlainWriteAfterAnAtomicThatObservedTheOthersAtomicsIsOrderedAfterThem() {
        // The last CTA's atom reads what the other CTAs' atoms wrote (observation order, through the
        // chain of read-modify-writes), so they precede its later plain reset of the word in
        // causality order (memory consistency model: causality order); no fence is needed for the
        // word itself. Its own accesses in the program-order suffix are ordered, unlike the other
        // CTAs' data (which the release/acquire rows cover).
        String body = REGS.replace("@P@", "0").replace("@C@", "0").replace("@TC@", "0")
                + "setp.ne.u32 %p6, %r1, 0;\n@%p6 bra E;\natom.global.add.u32 %r10, [%rd4], 1;\n"
                + "setp.ne.u32 %p5, %r10, @LAST@;\n@%p5 bra E;\nst.global.u32 [%rd4], 0;\nE:\nret;";
        for (int ctas : new int[] {2, 4}) {
            assertClean(PtxRun.kernel(body.replace("@LAST@", "" + (ctas - 1))).buffer("out", 16).clusters(ctas, 2).threads(32).run());
        }
        // A thread whose atom did not observe the others' (the first one) races with them.
        assertRace(PtxRun.kernel(body.replace("@LAST@", "0")).buffer("out", 16).clusters(4, 2).threads(32).run());
    }

    @Test
    void atomicFlagsSynchronizeOnlyWithinTheirScope() {
        assertClean(handOff(3, 0, 0, "atom.release.gpu.global.exch.b32 %r12, [%rd4], 1;",
                "atom.acquire.gpu.global.or.b32 %r11, [%rd4], 0;", ""));
        assertClean(handOff(0, 0, 32, "atom.release.cta.global.exch.b32 %r12, [%rd4], 1;",
                "atom.acquire.cta.global.or.b32 %r11, [%rd4], 0;", ""));
        assertRace(handOff(1, 0, 0, "atom.release.cta.global.exch.b32 %r12, [%rd4], 1;",
                "atom.acquire.cta.global.or.b32 %r11, [%rd4], 0;", ""));
    }

    @Test
    void anAtomicInTheChainFromReleaseToAcquireMustBeMorallyStrongWithBoth() {
        // CTA 3 releases the flag at .gpu; thread 32 of CTA 0 sees it (relaxed) and bumps it; thread 0
        // of CTA 0 acquires the bumped value and reads the data. A .gpu bump continues the chain; a
        // .cta one is not morally strong with the release (nor ordered after it): it races.
        String body = REGS.replace("@P@", "3").replace("@C@", "0").replace("@TC@", "0")
                + "@!%p1 bra B;\nst.global.u32 [%rd4+4], 42;\natom.release.gpu.global.exch.b32 %r12, [%rd4], 1;\nret;\nB:\n"
                + "setp.eq.u32 %p6, %r1, 32;\nsetp.eq.u32 %p7, %r2, 0;\nand.pred %p6, %p6, %p7;\n@!%p6 bra A;\n"
                + "S:\nld.relaxed.gpu.global.u32 %r11, [%rd4];\nsetp.eq.u32 %p5, %r11, 0;\n@%p5 bra S;\n"
                + "atom.SCOPE.global.add.u32 %r13, [%rd4], 1;\nret;\nA:\n@!%p2 bra E;\n"
                + "T:\nld.acquire.gpu.global.u32 %r11, [%rd4];\nsetp.ne.u32 %p5, %r11, 2;\n@%p5 bra T;\n"
                + "ld.global.u32 %r10, [%rd4+4];\nst.global.u32 [%rd4+8], %r10;\nE:\nret;";
        assertClean(PtxRun.kernel(body.replace("SCOPE", "gpu")).buffer("out", 16).clusters(4, 2).threads(64).run());
        assertRace(PtxRun.kernel(body.replace("SCOPE", "cta")).buffer("out", 16).clusters(4, 2).threads(64).run());
    }

    @Test
    void strongLoadsStoresAndFencesWithoutTheScopeTheIsaRequiresAreRefused() {
        // ld/st.relaxed/.acquire/.release and fence{.sem}.scope take a scope, membar a level: no default to assume.
        for (String bad : List.of("ld.relaxed.global.u32 %r11, [%rd4];", "ld.acquire.global.u32 %r11, [%rd4];",
                "st.release.global.u32 [%rd4], 1;", "st.relaxed.shared.u32 [%r1], 1;", "fence.sc;", "fence.acq_rel;",
                "membar;")) {
            Exception ex = assertThrows(Exception.class,
                    () -> PtxRun.kernel(REGS_PLAIN + bad + "\nret;").buffer("out", 16).threads(32).run(), bad);
            assertTrue(ex.getMessage().contains("needs a " + (bad.startsWith("membar") ? "level" : "scope")), ex.getMessage());
        }
        // atom and red default to .gpu; volatile accesses need none.
        for (String ok : List.of("atom.global.add.u32 %r11, [%rd4], 1;", "red.global.add.u32 [%rd4], 1;",
                "ld.volatile.global.u32 %r11, [%rd4];", "ld.relaxed.sys.global.u32 %r11, [%rd4];", "fence.sc.sys;", "membar.gl;")) {
            assertClean(PtxRun.kernel(REGS_PLAIN + ok + "\nret;").buffer("out", 16).threads(32).run());
        }
    }

    private static final String REGS_PLAIN = ".reg .b32 %r<40>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\n"
            + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd4, %rd1;\nmul.lo.u32 %r1, %r1, 4;\n";

    @Test
    void aCheckpointRestoresTheScopedStateSoARunFromItEndsTheSame() {
        // Relaxed flags between fences: the per-scope fence clocks, pending acquires and the flag's
        // buckets are all live at some step; so are a CTA's relaxed cluster-arrive clocks, an
        // mbarrier's peer arrive-ons and the threads' last strong reads in the other kernels. Each
        // checkpoint must bring back the same state hash.
        List<PtxRun> kernels = new java.util.ArrayList<>();
        for (String fence : List.of("fence.acq_rel.cluster;", "fence.acq_rel.cta;")) {
            kernels.add(handOffKernel(1, 0, 0, fence + "\nst.relaxed.gpu.global.u32 [%rd4], 1;", "ld.relaxed.gpu.global.u32 %r11, [%rd4];", fence));
        }
        kernels.add(relaxedClusterArriveKernel("fence.acq_rel.cta;", 0, 32));
        kernels.add(remoteMbarrierKernel("fence.acq_rel.cluster;", "relaxed.cluster.", "relaxed.cluster.", "fence.acq_rel.cluster;"));
        kernels.add(readThenWriteKernel(1, "ld.relaxed.cta.global.u32 %r11, [%rd4];", 0, "st.relaxed.gpu.global.u32 [%rd4], 1;"));
        for (int n = 0; n < kernels.size(); n++) {
            PtxRun kernel = kernels.get(n);
            String fence = "kernel " + n;
            for (int k : new int[] {8, 16, 24, 32}) {
                LaunchedRun r = kernel.launch();
                for (int i = 0; i < k; i++) r.interpreter().step();
                Checkpoint cp = Checkpoint.take(r.interpreter());
                long before = StateHash.of(r.interpreter());
                r.runToEnd();
                List<String> found = codes(r);
                long end = StateHash.of(r.interpreter());
                cp.restoreInto(r.interpreter());
                assertEquals(before, StateHash.of(r.interpreter()), fence + " at step " + k);
                r.runToEnd();
                assertEquals(found, codes(r), fence + " at step " + k);
                assertEquals(end, StateHash.of(r.interpreter()), fence + " at step " + k);
            }
        }
    }
}
