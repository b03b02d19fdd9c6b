package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;

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
}
