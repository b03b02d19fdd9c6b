package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static io.barrierscope.exec.ExecKernel.codes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operand and qualifier forms of cp.async.bulk, cp.reduce.async.bulk, the bulk prefetch and
 * the tensor copies (PTX ISA 9.7.9.25.4-5) that a third reading of the text found the engine
 * running with a meaning of its own: an operand the syntax does not have, a qualifier of a later
 * target or PTX version, a destination outside the CTA the form names.
 */
class BulkCopyFormsTest {
    private static final String HEADER = ".shared .align 16 .b8 s[64];\n.shared .align 8 .b64 mb;";
    private static final String SETUP = "mov.u32 %r2, s;\nmov.u32 %r3, mb;\nmbarrier.init.shared::cta.b64 [%r3], 1;\n"
            + "mbarrier.arrive.expect_tx.shared::cta.b64 %rd9, [%r3], 16;\nmov.b64 %rd5, 0;\nmov.u16 %h1, 1;\n";
    private static final String WAIT = "W:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;\n@!%p2 bra W;\n";

    @Test
    void aCachePolicyOperandNeedsTheCacheHintQualifier() {
        // 9.7.9.25.4.1, .4.2, .4.3, .5.2: "When the optional argument cache-policy is specified, the qualifier .level::cache_hint is required."
        String why = "needs .L2::cache_hint";
        assertRefusedAtLine("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd40], 16, [%r3], %rd5;", why);
        assertRefusedAtLine("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r2], [%rd40], 16, [%r3], %rd5;", why);
        assertRefusedAtLine("cp.async.bulk.global.shared::cta.bulk_group [%rd40], [%r2], 16, %rd5;", why);
        assertRefusedAtLine("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd40], [%r2], 16, %rd5;", why);
        assertRefusedAtLine("cp.async.bulk.prefetch.L2.global [%rd40], 16, %rd5;", why);
        assertRefusedAtLine("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd41, {%r4}], [%r3], %rd5;", why);
        // A 16-bit register where the multicast form puts its ctaMask is no policy either.
        assertRefusedAtLine("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd40], 16, [%r3], %h1;",
                "can only be a cache policy");
        LaunchedRun r = ExecKernel.of(SETUP + "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint "
                + "[%r2], [%rd40], 16, [%r3], %rd5;\n" + WAIT).header(HEADER).ok();
        assertEquals(List.of(), codes(r));
    }

    @Test
    void aBulkCopyToSharedCtaHasNoMulticastAndMustLandInTheIssuingCta() {
        // 9.7.9.25.4.1: the global -> .shared::cta syntax has no .multicast; "When the destination of the copy is
        // .shared::cta the destination address has to be in the shared memory of the executing CTA within the cluster".
        assertRefusedAtLine("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.multicast::cluster [%r2], [%rd40], 16, [%r3], %h1;",
                "has no .multicast::cluster");
        String peer = "mov.u32 %r2, s;\nmov.u32 %r3, mb;\nmov.u32 %r20, %cluster_ctarank;\nxor.b32 %r21, %r20, 1;\n"
                + "mapa.shared::cluster.u32 %r4, %r2, %r21;\nmapa.shared::cluster.u32 %r5, %r3, %r21;\n"
                + "mbarrier.init.shared::cta.b64 [%r3], 1;\nbarrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n"
                + "setp.ne.u32 %p1, %r20, 0;\n@%p1 bra DONE;\n"
                + "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r4], [%rd40], 16, [%r5];\nDONE:\n";
        LaunchedRun r = ExecKernel.of(peer).header(HEADER).grid(new Dim3(2, 1, 1)).cluster(new Dim3(2, 1, 1)).run();
        assertEquals(List.of("memory-fault"), codes(r), r.summary());
        assertTrue(r.summary().contains("has to be in the shared memory of the executing CTA"), r.summary());
    }

    @Test
    void laterQualifiersAreRefusedNamingTheirNote() {
        assertRefusedAtLine("cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd40], [%r2], 16, %h1;", "requires sm_100");
        assertRefusedAtLine("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.ignore_oob [%r2], [%rd40], 16, 0, 0, [%r3];",
                "PTX ISA version 9.2");
    }

    @Test
    void aBulkPrefetchWithASizeOrAddressOffSixteenIsDiagnosed() {
        // 9.7.9.25.4.3: "size must be a multiple of 16. The address srcMem must be aligned to 16 bytes."
        ExecKernel.of("cp.async.bulk.prefetch.L2.global [%rd40], 32;\n").ok();
        assertEquals(List.of("misaligned-access"), codes(ExecKernel.of("cp.async.bulk.prefetch.L2.global [%rd40], 24;\n").run()));
        assertEquals(List.of("misaligned-access"), codes(ExecKernel.of("cp.async.bulk.prefetch.L2.global [%rd40+8], 16;\n").run()));
    }
}
