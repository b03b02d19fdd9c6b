package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The restricted fences of PTX ISA 9.7.13.4: the operation fence fence.mbarrier_init, the
 * .sync_restrict thread fences and the uni-directional fence.proxy.async::generic, accepted in the
 * forms the ISA writes and refused with the rule otherwise (semantics.md section 13).
 */
class RestrictedFenceFormsTest {
    @Test
    void theMbarrierInitFenceIsOnlyReleaseAtClusterScope() {
        // Syntax: "fence.op_restrict.release.cluster;".
        for (String bad : new String[] {"fence.mbarrier_init.release.cta;", "fence.mbarrier_init.acquire.cluster;",
                "fence.mbarrier_init.cluster;", "fence.mbarrier_init.acq_rel.cluster;", "fence.mbarrier_init.release.gpu;"}) {
            assertRefusedAtLine(bad, "fence.mbarrier_init.release.cluster only");
        }
        ExecKernel.of("fence.mbarrier_init.release.cluster;\n").ok();
    }

    @Test
    void syncRestrictSharedCtaNeedsReleaseAndSharedClusterAcquireBothAtClusterScope() {
        // "When .sync_restrict is .sync_restrict::shared::cta, .sem must be .release ... ::shared::cluster, .sem must be
        // .acquire ... When either ... is present, the .scope must be specified as .cluster."
        assertRefusedAtLine("fence.acquire.sync_restrict::shared::cta.cluster;", ".sem must be .release");
        assertRefusedAtLine("fence.sync_restrict::shared::cta.cluster;", ".sem must be .release");
        assertRefusedAtLine("fence.release.sync_restrict::shared::cluster.cluster;", ".sem must be .acquire");
        assertRefusedAtLine("fence.release.sync_restrict::shared::cta.cta;", "the .scope must be specified as .cluster");
        assertRefusedAtLine("fence.acquire.sync_restrict::shared::cluster.gpu;", "the .scope must be specified as .cluster");
        ExecKernel.of("fence.release.sync_restrict::shared::cta.cluster;\nfence.acquire.sync_restrict::shared::cluster.cluster;\n").ok();
    }

    @Test
    void uniDirectionalAsyncFromGenericProxyFencesLoadInTheIsasFormsOnly() {
        // The ISA's examples: "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;" and
        // "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;".
        ExecKernel.of("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;\n"
                + "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;\n").ok();
        assertRefusedAtLine("fence.proxy.async::generic.acquire.sync_restrict::shared::cta.cluster;", ".sem must be .release");
        assertRefusedAtLine("fence.proxy.async::generic.release.sync_restrict::shared::cta.gpu;", "must be specified as .cluster");
        assertRefusedAtLine("fence.proxy.async::generic.release.cluster;", "is written with");
    }

    @Test
    void theReleaseAsyncFromGenericFenceOrdersSharedCtaWritesBeforeABulkCopyButNotGlobalOnes() {
        // "the effect of the fence only applies to operations performed on objects in .shared::cta state space".
        String store = "cp.async.bulk.global.shared::cta.bulk_group [%rd40], [%r2], 16;\ncp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\n";
        String fence = "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;\n";
        String shared = ".shared .align 16 .b8 sm[16];\nmov.u32 %r2, sm;\nst.shared.u32 [%r2], 5;\n";
        LaunchedRun ok = ExecKernel.of(shared + fence + store).ok();
        assertEquals(5, ExecKernel.w(ok, 0));
        assertEquals(List.of("proxy-fence-missing"), ExecKernel.codes(ExecKernel.of(shared + store).run()), "no fence");
        // A global source written generically is outside the fence's state space.
        String load = ".shared .align 16 .b8 sm[16];\n.shared .align 8 .b64 bar;\nmov.u32 %r2, sm;\nmov.u32 %r3, bar;\n"
                + "st.global.u32 [%rd40+64], 5;\n" + fence + "mbarrier.init.shared::cta.b64 [%r3], 1;\nadd.u64 %rd1, %rd40, 64;\n"
                + "mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r3], 16;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 16, [%r3];\n"
                + "W:\nmbarrier.try_wait.parity.shared::cta.b64 %p1, [%r3], 0;\n@!%p1 bra W;\n";
        assertEquals(List.of("proxy-fence-missing"), ExecKernel.codes(ExecKernel.of(load).run()));
    }

    @Test
    void theMbarrierInitFenceReleasesTheThreadsInitsButNotItsOtherWrites() {
        // "When .op_restrict is .mbarrier_init, the synchronizing effect of the fence only applies to the prior mbarrier.init
        // operations executed by the same thread on mbarrier objects in .shared::cta state space."
        String head = ".shared .align 8 .b64 bar;\n.shared .align 4 .b32 data;\nmov.u32 %r1, %cluster_ctarank;\nmov.u32 %r2, bar;\n"
                + "mov.u32 %r3, data;\nmbarrier.init.shared::cta.b64 [%r2], 1;\nst.shared.u32 [%r3], 7;\n"
                + "fence.mbarrier_init.release.cluster;\nbarrier.cluster.arrive.relaxed.aligned;\nbarrier.cluster.wait.aligned;\n"
                + "xor.b32 %r4, %r1, 1;\nmapa.shared::cluster.u32 %r5, %r2, %r4;\nmapa.shared::cluster.u32 %r6, %r3, %r4;\n"
                + "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r5];\n";
        String tail = "barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\n";
        Dim3 two = new Dim3(2, 1, 1);
        // The peer's init is published: its remote arrive is ordered after the init.
        ExecKernel.of(head + tail).grid(two).cluster(two).ok();
        // Its plain write before the fence is not: reading it from the peer races.
        LaunchedRun r = ExecKernel.of(head + "ld.shared::cluster.u32 %r7, [%r6];\n" + tail).grid(two).cluster(two).run();
        assertEquals(List.of("race"), ExecKernel.codes(r), r.summary());
    }
}
