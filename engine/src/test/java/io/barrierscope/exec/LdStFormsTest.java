package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The memory-order and cache qualifiers of ld, ld.global.nc and st (PTX ISA 9.7.9.8, 9.7.9.9,
 * 9.7.9.11): a form outside the syntax or against a restriction sentence is refused at its line.
 */
class LdStFormsTest {
    private static final String LOCAL = ".local .align 4 .b8 lb[16];\nmov.u64 %rd5, lb;\nmov.b64 %rd6, 0;\n";

    @Test
    void ldTakesNoReleaseAndStNoAcquire() {
        assertRefusedAtLine("ld.release.gpu.global.u32 %r1, [%rd40];", ".release is not a qualifier of ld");
        assertRefusedAtLine("ld.acq_rel.gpu.global.u32 %r1, [%rd40];", ".acq_rel is not a qualifier of ld");
        assertRefusedAtLine("st.acquire.gpu.global.u32 [%rd40], %r1;", ".acquire is not a qualifier of st");
    }

    @Test
    void weakVolatileRelaxedAndAcquireAreMutuallyExclusive() {
        // "The .weak, .volatile, .relaxed and .acquire qualifiers are mutually exclusive."
        assertRefusedAtLine("ld.volatile.relaxed.gpu.global.u32 %r1, [%rd40];", "mutually exclusive");
        assertRefusedAtLine("ld.weak.acquire.gpu.global.u32 %r1, [%rd40];", "mutually exclusive");
        assertRefusedAtLine("st.volatile.release.gpu.global.u32 [%rd40], %r1;", "mutually exclusive");
    }

    @Test
    void onlyTheRelaxedAcquireAndReleaseFormsTakeAScope() {
        assertRefusedAtLine("ld.volatile.gpu.global.u32 %r1, [%rd40];", "take a scope");
        assertRefusedAtLine("st.weak.cta.global.u32 [%rd40], %r1;", "take a scope");
    }

    @Test
    void volatileRelaxedAndAcquireOnlyOnGlobalSharedOrGenericAndWithoutCacheOperations() {
        // "may be used only with .global and .shared spaces and with generic addressing ... Cache operations are not permitted"
        assertRefusedAtLine("ld.volatile.local.u32 %r1, [%rd5];", "only with .global and .shared");
        assertRefusedAtLine("ld.acquire.gpu.param.u32 %r1, [%rd5];", "only with .global and .shared");
        assertRefusedAtLine("st.release.gpu.local.u32 [%rd5], %r1;", "only with .global and .shared");
        assertRefusedAtLine("ld.volatile.global.cg.u32 %r1, [%rd40];", "not permitted");
        assertRefusedAtLine("ld.relaxed.gpu.global.ca.u32 %r1, [%rd40];", "not permitted");
        assertRefusedAtLine("st.relaxed.gpu.global.cs.u32 [%rd40], %r1;", "not permitted");
        assertRefusedAtLine("ld.volatile.global.L2::cache_hint.u32 %r1, [%rd40], %rd6;", "takes no .L2::cache_hint");
        LaunchedRun r = ExecKernel.of(LOCAL + "mov.u32 %r3, 5;\nst.local.u32 [%rd5], %r3;\nld.weak.local.u32 %r1, [%rd5];\n"
                + "ld.acquire.gpu.global.L2::cache_hint.u32 %r2, [%rd40], %rd6;\nadd.u32 %r1, %r1, %r2;\nst.global.wb.u32 [%rd40], %r1;\n").ok();
        assertEquals(5, ExecKernel.w(r, 0));
    }

    @Test
    void cacheHintPrefetchSizeAndNcOnlyOnGlobalMemory() {
        assertRefusedAtLine("ld.shared.L2::cache_hint.u32 %r1, [%rd5], %rd6;", "only supported for the .global state space");
        assertRefusedAtLine("ld.shared.L2::128B.u32 %r1, [%rd5];", "only supported for the .global state space");
        assertRefusedAtLine("st.shared.L2::cache_hint.u32 [%rd5], %r1, %rd6;", "only supported for the .global state space");
        assertRefusedAtLine("ld.global.u32 %r1, [%rd40], %rd6;", "needs .L2::cache_hint");
        assertRefusedAtLine("ld.shared.nc.u32 %r1, [%rd5];", "ld.global{.cop}.nc");
        assertRefusedAtLine("ld.volatile.global.nc.u32 %r1, [%rd40];", "takes no .volatile");
    }

    @Test
    void mmioIsRelaxedAtSysScopeOnGlobalMemoryAndRuns() {
        // "Only .sys thread scope is valid for ld.mmio operation. The qualifiers .mmio and .relaxed must be specified together."
        assertRefusedAtLine("ld.mmio.relaxed.gpu.global.u32 %r1, [%rd40];", ".mmio needs .relaxed, the .sys scope");
        assertRefusedAtLine("ld.mmio.global.u32 %r1, [%rd40];", ".mmio needs .relaxed, the .sys scope");
        assertRefusedAtLine("st.mmio.relaxed.sys.shared.u32 [%rd5], %r1;", ".mmio needs .relaxed, the .sys scope");
        LaunchedRun r = ExecKernel.of("mov.u32 %r1, 7;\nst.mmio.relaxed.sys.global.u32 [%rd40+4], %r1;\n"
                + "ld.mmio.relaxed.sys.global.u32 %r2, [%rd40+4];\n" + ExecKernel.w(0, "%r2")).ok();
        assertEquals(7, ExecKernel.w(r, 0));
    }

    @Test
    void aStrongOrGlobalOnlyAccessThroughAGenericAddressElsewhereIsAMemoryFault() {
        // "... and with generic addressing, where the address points to .global or .shared space"; .level::cache_hint and
        // .mmio "where the address points to .global". A weak generic access to local memory stays fine.
        String local = LOCAL + "st.local.u32 [lb], %r1;\ncvta.local.u64 %rd7, %rd5;\n";
        for (String bad : List.of("ld.volatile.u32 %r2, [%rd7];", "ld.acquire.gpu.u32 %r2, [%rd7];", "st.release.gpu.u32 [%rd7], %r1;",
                "st.relaxed.cta.u32 [%rd7], %r1;")) {
            LaunchedRun r = ExecKernel.of(local + bad + "\n").run();
            assertEquals(List.of("memory-fault"), ExecKernel.codes(r), bad + "\n" + r.summary());
        }
        String shared = ".shared .align 4 .b8 sm[16];\nmov.u64 %rd8, sm;\ncvta.shared.u64 %rd7, %rd8;\nmov.b64 %rd6, 0;\n";
        for (String bad : List.of("ld.L2::cache_hint.u32 %r2, [%rd7], %rd6;", "ld.mmio.relaxed.sys.u32 %r2, [%rd7];")) {
            LaunchedRun r = ExecKernel.of(shared + bad + "\n").run();
            assertEquals(List.of("memory-fault"), ExecKernel.codes(r), bad + "\n" + r.summary());
        }
        ExecKernel.of(local + "ld.u32 %r2, [%rd7];\n").ok();
        ExecKernel.of(shared + "st.volatile.u32 [%rd7], %r1;\nld.acquire.cta.u32 %r2, [%rd7];\n").ok();
    }

    @Test
    void volatileOnLocalMemoryLoadsFromPtx91AndStoresToConstAreRefused() {
        // "Support for .volatile qualifier with .local state space introduced in PTX ISA version 9.1." (ld, st);
        // "Stores to const memory are illegal."
        String body = LOCAL + "mov.u32 %r3, 4;\nst.volatile.local.u32 [%rd5], %r3;\nld.volatile.local.u32 %r1, [%rd5];\n"
                + "cvta.local.u64 %rd7, %rd5;\nld.volatile.u32 %r2, [%rd7];\nadd.u32 %r1, %r1, %r2;\n" + ExecKernel.w(0, "%r1");
        assertEquals(8, ExecKernel.w(ExecKernel.of(body).version("9.1").ok(), 0));
        assertThrows(BadInputException.class, () -> ExecKernel.of(body).version("9.0").launch());
        assertRefusedAtLine("st.const.u32 [%rd5], %r1;", "stores to const memory are illegal");
    }
}
