package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operands of non-bulk cp.async (PTX ISA 9.7.9.25.3.1): src-size, ignore-src and the cache
 * policy are told apart by kind, and the two undefined cases (src-size above cp-size, two copies
 * of one group to the same bytes) are diagnostics.
 */
class CpAsyncFormsTest {
    private static final String HEADER = ".shared .align 16 .b8 s[64];";
    /** s[0..3] = 99, then %r2 = s; w[4..7] = 10, 11, 12, 13 as the global source at %rd42. */
    private static final String SETUP = "mov.u32 %r2, s;\nmov.u32 %r11, 99;\n"
            + "st.shared.v4.u32 [%r2], {%r11, %r11, %r11, %r11};\n"
            + "mov.u32 %r12, 10;\nmov.u32 %r13, 11;\nmov.u32 %r14, 12;\nmov.u32 %r15, 13;\n"
            + "st.global.v4.u32 [%rd40+16], {%r12, %r13, %r14, %r15};\nadd.s64 %rd42, %rd40, 16;\n";
    /** w[0..3] = s[0..3]. */
    private static final String DUMP = "ld.shared.v4.u32 {%r4, %r5, %r6, %r7}, [%r2];\n"
            + w(0, "%r4") + w(1, "%r5") + w(2, "%r6") + w(3, "%r7");

    private static List<Long> copied(String copy) {
        LaunchedRun r = ExecKernel.of(SETUP + copy + "\ncp.async.wait_all;\n" + DUMP).header(HEADER).ok();
        return List.of(ExecKernel.w(r, 0), ExecKernel.w(r, 1), ExecKernel.w(r, 2), ExecKernel.w(r, 3));
    }

    @Test
    void ignoreSrcFalseCopiesTheSourceAndTrueCopiesZeros() {
        // "If the source data is ignored then zeros will be copied to destination dst."
        assertEquals(List.of(10L, 11L, 12L, 13L), copied("setp.ne.u32 %p1, %r2, %r2;\ncp.async.ca.shared.global [%r2], [%rd42], 16, %p1;"));
        assertEquals(List.of(0L, 0L, 0L, 0L), copied("setp.eq.u32 %p1, %r2, %r2;\ncp.async.cg.shared.global [%r2], [%rd42], 16, %p1;"));
        assertEquals(List.of(10L, 11L, 12L, 13L), copied("setp.eq.u32 %p1, %r2, %r2;\ncp.async.cg.shared.global [%r2], [%rd42], 16, !%p1;"));
    }

    @Test
    void theCachePolicyOperandIsAHintNotASourceSize() {
        // "cache-policy is a hint ... does not change the memory consistency behavior of the program."
        assertEquals(List.of(10L, 11L, 12L, 13L),
                copied("mov.b64 %rd5, 0;\ncp.async.cg.shared.global.L2::cache_hint [%r2], [%rd42], 16, %rd5;"));
        assertEquals(List.of(10L, 11L, 0L, 0L),
                copied("mov.b64 %rd5, 0;\nmov.u32 %r9, 8;\ncp.async.cg.shared.global.L2::cache_hint [%r2], [%rd42], 16, %r9, %rd5;"));
        assertEquals(List.of(0L, 0L, 0L, 0L),
                copied("mov.b64 %rd5, 16;\nsetp.eq.u32 %p1, %r2, %r2;\ncp.async.cg.shared.global.L2::cache_hint [%r2], [%rd42], 16, %p1, %rd5;"));
    }

    @Test
    void srcSizeBelowCpSizeZeroFillsTheRest() {
        // "remaining bytes in destination dst are filled with zeros"
        assertEquals(List.of(10L, 0L, 0L, 0L), copied("cp.async.ca.shared.global [%r2], [%rd42], 16, 4;"));
        assertEquals(List.of(10L, 11L, 12L, 13L), copied("mov.u32 %r9, 16;\ncp.async.cg.shared.global [%r2], [%rd42], 16, %r9;"));
    }

    @Test
    void srcSizeAboveCpSizeIsUndefined() {
        // "Specifying src-size larger than cp-size results in undefined behavior."
        LaunchedRun r = ExecKernel.of(SETUP + "mov.u32 %r9, 20;\ncp.async.cg.shared.global [%r2], [%rd42], 16, %r9;\ncp.async.wait_all;\n")
                .header(HEADER).run();
        assertEquals(List.of("async-copy-size"), codes(r), r.summary());
    }

    @Test
    void twoCopiesOfOneGroupToTheSameBytesAreUndefined() {
        // 9.7.9.25.3.2: "two or more cp.async operations within a cp.async-group copying data to the same location results in undefined behavior"
        LaunchedRun r = ExecKernel.of(SETUP + "cp.async.ca.shared.global [%r2], [%rd42], 8;\ncp.async.ca.shared.global [%r2+4], [%rd42], 4;\n"
                + "cp.async.commit_group;\ncp.async.wait_group 0;\n").header(HEADER).run();
        assertEquals(List.of("async-group-overlap"), codes(r), r.summary());
        // In different groups they land in commit order: defined.
        assertEquals(List.of(12L, 13L, 0L, 0L), copied("cp.async.ca.shared.global [%r2], [%rd42], 16;\ncp.async.commit_group;\n"
                + "cp.async.ca.shared.global [%r2], [%rd42+8], 8;\ncp.async.ca.shared.global [%r2+8], [%rd42+16], 8, 0;"));
    }

    @Test
    void aDestinationInAnotherCtasSharedMemoryIsAMemoryFault() {
        // "dst specifies a location in the shared state space" (.shared{::cta}): the executing CTA's own window.
        String body = "mov.u32 %r2, s;\nmov.u32 %r20, %cluster_ctarank;\nxor.b32 %r21, %r20, 1;\nmapa.shared::cluster.u32 %r4, %r2, %r21;\n"
                + "barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\nsetp.ne.u32 %p1, %r20, 0;\n@%p1 bra DONE;\n"
                + "cp.async.ca.shared.global [%r4], [%rd40], 4;\ncp.async.wait_all;\nDONE:\n"
                + "barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n";
        LaunchedRun r = ExecKernel.of(body).header(HEADER).grid(new Dim3(2, 1, 1)).cluster(new Dim3(2, 1, 1)).run();
        assertEquals(List.of("memory-fault"), codes(r), r.summary());
        // The own CTA's shared::cluster address is in the window.
        ExecKernel.of(body.replace("xor.b32 %r21, %r20, 1;", "mov.u32 %r21, %r20;")).header(HEADER).grid(new Dim3(2, 1, 1))
                .cluster(new Dim3(2, 1, 1)).ok();
    }

    @Test
    void operandFormsOutsideTheSyntaxAreRefused() {
        assertRefusedAtLine("cp.async.cg.shared.global [%r2], [%rd42], 16, %rd5;", "needs .L2::cache_hint");
        assertRefusedAtLine("cp.async.cg.shared.global [%r2], [%rd42], 16, %r9, %p1;", "ignore-src comes right after cp-size");
        assertRefusedAtLine("cp.async.cg.shared.global [%r2], [%rd42], 16, %r9, %r10;", "not both");
        assertRefusedAtLine("cp.async.ca.shared [%r2], [%rd42], 4;", "names both");
        assertRefusedAtLine("cp.async.ca.shared.global.L2::64B.L2::128B [%r2], [%rd42], 16;", "at most one .level::prefetch_size");
    }
}
