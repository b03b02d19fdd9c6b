package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forms of atom and red the ISA lists, and the generic-address rules it leaves undefined
 * otherwise (PTX ISA 9.7.13.5 atom, 9.7.13.6 red; semantics.md section 10, "atom/red forms").
 */
class AtomRedFormsTest {
    @Test
    void redTakesOnlyRelaxedOrReleaseSemantics() {
        // 9.7.13.6: ".sem = {.relaxed, .release}" (atom has .acquire and .acq_rel; red does not).
        assertRefusedAtLine("red.acquire.gpu.global.add.u32 [%rd40], 1;", "red takes .relaxed or .release only");
        assertRefusedAtLine("red.acq_rel.gpu.global.add.u32 [%rd40], 1;", "red takes .relaxed or .release only");
        LaunchedRun r = ExecKernel.of("red.release.gpu.global.add.u32 [%rd40], 2;\nred.relaxed.cta.global.add.u32 [%rd40], 3;\n").ok();
        assertEquals(5, ExecKernel.w(r, 0));
    }

    @Test
    void redHasNoCasOrExch() {
        // 9.7.13.6: ".op = { .and, .or, .xor, .add, .inc, .dec, .min, .max }".
        assertRefusedAtLine("red.global.cas.b32 [%rd40], 0, 1;", "red has no .cas");
        assertRefusedAtLine("red.global.exch.b32 [%rd40], 1;", "red has no .exch");
    }

    @Test
    void bitSizeOperationsTakeBitSizeTypesAndIntegerOperationsIntegerTypes() {
        // "The bit-size operations are .and, .or, .xor, .cas ..., and .exch"; "The integer operations are
        // .add, .inc, .dec, .min, .max"; "The floating-point operation .add"; .cas alone has a .b16 form.
        for (String bad : List.of("atom.global.and.u32 %r1, [%rd40], 5;", "atom.global.xor.s64 %rd1, [%rd40], 5;",
                "atom.global.exch.u32 %r1, [%rd40], 5;", "atom.global.cas.f32 %f1, [%rd40], 0f00000000, 0f3F800000;",
                "atom.global.exch.f32 %f1, [%rd40], 0f3F800000;", "atom.global.exch.b16 %h1, [%rd40], %h2;",
                "atom.global.add.b32 %r1, [%rd40], 5;", "atom.global.min.b64 %rd1, [%rd40], 5;", "atom.global.inc.b32 %r1, [%rd40], 5;",
                "red.global.or.u32 [%rd40], 5;", "red.global.max.b32 [%rd40], 5;", "red.global.and.b16 [%rd40], %h1;")) {
            assertRefusedAtLine(bad, "is not defined on");
        }
        // Every listed pair loads and runs: the bit-size ops on .b32/.b64, the integer ops on .u/.s types, .add on floats.
        LaunchedRun r = ExecKernel.of("atom.global.or.b32 %r1, [%rd40], 6;\natom.global.and.b32 %r2, [%rd40], 3;\n"
                + "atom.global.exch.b64 %rd1, [%rd41], 9;\natom.global.max.s32 %r3, [%rd40+4], -1;\natom.global.inc.u32 %r4, [%rd40+8], 5;\n"
                + "atom.global.add.f32 %f1, [%rd40+12], 0f3F800000;\nred.global.xor.b64 [%rd41+8], 12;\nred.global.min.u64 [%rd41+8], 8;\n").ok();
        assertEquals(2, ExecKernel.w(r, 0), "(0 | 6) & 3");
        assertEquals(9, ExecKernel.x(r, 0));
        assertEquals(0, ExecKernel.w(r, 1), "max.s32(0, -1)");
        assertEquals(1, ExecKernel.w(r, 2));
        assertEquals(0x3F800000L, ExecKernel.w(r, 3));
        assertEquals(8, ExecKernel.x(r, 1), "min.u64(0 ^ 12, 8)");
    }

    @Test
    void atomAndRedTakeOnlyGlobalSharedOrGenericAddresses() {
        // ".space = { .global, .shared{::cta, ::cluster} }", else generic addressing.
        assertRefusedAtLine("atom.local.add.u32 %r1, [%rd1], 1;", "not local");
        assertRefusedAtLine("atom.const.add.u32 %r1, [%rd1], 1;", "not const");
        assertRefusedAtLine("red.param.add.u32 [%rd1], 1;", "not param");
    }

    @Test
    void aGenericAtomOrRedOnLocalMemoryIsAMemoryFault() {
        // "atom with scalar type may be used only ... with generic addressing, where the address points to .global or .shared space."
        for (String insn : List.of("atom.add.u32 %r2, [%rd2], 1;", "red.add.u32 [%rd2], 1;")) {
            LaunchedRun r = ExecKernel.of(".local .align 4 .b8 lc[16];\nmov.u64 %rd1, lc;\ncvta.local.u64 %rd2, %rd1;\n" + insn + "\n").run();
            assertEquals(List.of("memory-fault"), ExecKernel.codes(r), r.summary());
            String msg = r.interpreter().diagnostics().get(0).message();
            assertTrue(msg.contains("points to local memory") && msg.contains(".global or .shared"), msg);
        }
    }

    @Test
    void cacheHintOnSharedIsRefusedAndThroughAGenericSharedAddressIsAMemoryFault() {
        // ".level::cache_hint is only supported for .global state space and for generic addressing where the address points to .global".
        assertRefusedAtLine("atom.shared.add.L2::cache_hint.u32 %r1, [%r2], 1, %rd2;", ".L2::cache_hint is only supported for .global");
        assertRefusedAtLine("red.shared::cta.add.L2::cache_hint.u32 [%r2], 1, %rd2;", ".L2::cache_hint is only supported for .global");
        LaunchedRun r = ExecKernel.of(".shared .align 4 .b8 sm[16];\nmov.u64 %rd1, sm;\ncvta.shared.u64 %rd2, %rd1;\nmov.u64 %rd3, 0;\n"
                + "atom.add.L2::cache_hint.u32 %r1, [%rd2], 1, %rd3;\n").run();
        assertEquals(List.of("memory-fault"), ExecKernel.codes(r), r.summary());
        LaunchedRun g = ExecKernel.of("mov.u64 %rd3, 0;\natom.add.L2::cache_hint.u32 %r1, [%rd40], 1, %rd3;\n" + w(1, "%r1")).ok();
        assertEquals(1, ExecKernel.w(g, 0), "a generic address of global memory takes the hint");
    }
}
