package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * atom/red.add.noftz on .f16, .f16x2, .bf16 and .bf16x2 (PTX ISA 9.7.13.5 atom, 9.7.13.6 red),
 * what CUDA's atomicAdd(__half*), atomicAdd(__half2*) and their bf16 forms emit: the sum rounded
 * to nearest even per element, subnormals kept, the old value returned.
 */
class HalfAtomicTest {
    @Test
    void addNoftzRoundsEachSumToNearestEvenKeepsSubnormalsAndReturnsTheOldValue() {
        // f16: 1.0 + 2^-11 is a tie: stays 1.0 (even). Subnormal 0x0001 + 0x0001 = 0x0002 (not flushed).
        // f16x2 low 1.5 + 0.25, high -2 + 0.5. bf16: 1.0 + 2^-8 (tie) stays 1.0; bf16x2: 1+1, 3+(-1).
        String body = "ld.param.u64 %rd1, [h];\nld.param.u64 %rd2, [p];\n"
                + "mov.b16 %h1, 0x1000;\natom.global.add.noftz.f16 %h2, [%rd1], %h1;\ncvt.u32.u16 %r1, %h2;\n" + w(0, "%r1")
                + "mov.b16 %h3, 0x0001;\natom.global.add.noftz.f16 %h4, [%rd1+2], %h3;\n"
                + "mov.b32 %r2, 0x38003400;\natom.global.add.noftz.f16x2 %r3, [%rd2], %r2;\n" + w(1, "%r3")
                + "mov.b16 %h5, 0x3B80;\nred.global.add.noftz.bf16 [%rd1+4], %h5;\n"
                + "mov.b32 %r4, 0xBF803F80;\natom.add.noftz.bf16x2 %r5, [%rd2+4], %r4;\n";
        LaunchedRun r = ExecKernel.of(body)
                .buffer("h", ScalarType.U16, List.of(0x3C00, 0x0001, 0x3F80))
                .buffer("p", ScalarType.U32, List.of(0xC0003E00L, 0x40403F80L)).ok();
        List<Number> h = r.buffers().get("h");
        List<Number> p = r.buffers().get("p");
        assertEquals(0x3C00L, w(r, 0), "the old value");
        assertEquals(0x3C00, h.get(0).intValue(), "1 + 2^-11 ties to even");
        assertEquals(0x0002, h.get(1).intValue(), "subnormals are kept (.noftz)");
        assertEquals(0xC0003E00L, w(r, 1));
        assertEquals(0xBE003F00L, p.get(0).longValue(), "low 1.5 + 0.25 = 1.75, high -2 + 0.5 = -1.5");
        assertEquals(0x3F80, h.get(2).intValue(), "bf16 1 + 2^-8 ties to even");
        assertEquals(0x40004000L, p.get(1).longValue(), "bf16x2: 1 + 1 = 2, 3 - 1 = 2");
    }

    @Test
    void halfTypesTakeOnlyAddNoftzAndNoftzOnlyHalfTypes() {
        for (String bad : List.of("atom.global.add.f16 %h1, [%rd1], %h2;", "atom.global.max.noftz.f16 %h1, [%rd1], %h2;",
                "atom.global.exch.bf16 %h1, [%rd1], %h2;", "atom.global.add.noftz.f32 %f1, [%rd1], %f2;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains("atom."), e.getMessage());
        }
    }

    @Test
    void aCachePolicyOperandWithoutL2CacheHintIsRefusedAndWithItIsOnlyAHint() {
        // 9.7.13.5-6: "When the optional argument cache-policy is specified, the qualifier .level::cache_hint is required."
        // cas has no cache-policy form at all (ptxas 13.0 rejects both of the last two).
        for (String bad : List.of("red.global.add.noftz.f16 [%rd1], %h1, %rd2;", "atom.global.add.u32 %r1, [%rd1], %r2, %rd2;",
                "atom.global.cas.b32 %r1, [%rd1], %r2, %r3, %rd2;", "atom.global.cas.L2::cache_hint.b32 %r1, [%rd1], %r2, %r3, %rd2;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> ExecKernel.of(bad).launch(), bad);
            assertTrue(e.getMessage().contains("atom.") || e.getMessage().contains("red."), e.getMessage());
        }
        LaunchedRun r = ExecKernel.of("ld.param.u64 %rd1, [h];\nmov.b16 %h1, 0x3C00;\nmov.u64 %rd2, 0;\n"
                + "atom.global.add.noftz.L2::cache_hint.f16 %h2, [%rd1], %h1, %rd2;\ncvt.u32.u16 %r1, %h2;\n" + w(0, "%r1"))
                .buffer("h", ScalarType.U16, List.of(0x3C00)).ok();
        assertEquals(0x3C00L, w(r, 0));
        assertEquals(0x4000, r.buffers().get("h").get(0).intValue(), "1 + 1 = 2");
    }

    @Test
    void halfAddNoftzOverflowsBySignedZerosAndNaNsAsRoundToNearestEvenGives() {
        // 65504 + 16 = 65520 is the tie between 65504 (odd significand) and 2^16: to even, out of range: +inf.
        // -0 + -0 = -0; -2^-24 + 2^-24 = +0; NaN + 1 and inf + -inf are the canonical NaN 0x7FFF.
        String body = "ld.param.u64 %rd1, [h];\nmov.b16 %h1, 0x4C00;\nred.global.add.noftz.f16 [%rd1], %h1;\n"
                + "mov.b16 %h2, 0x8000;\nred.global.add.noftz.f16 [%rd1+2], %h2;\n"
                + "mov.b16 %h3, 0x0001;\nred.global.add.noftz.f16 [%rd1+4], %h3;\n"
                + "mov.b16 %h4, 0x3C00;\nred.global.add.noftz.f16 [%rd1+6], %h4;\n"
                + "mov.b16 %h5, 0xFC00;\nred.global.add.noftz.f16 [%rd1+8], %h5;\n";
        LaunchedRun r = ExecKernel.of(body).buffer("h", ScalarType.U16, List.of(0x7BFF, 0x8000, 0x8001, 0x7E01, 0x7C00)).ok();
        List<Number> h = r.buffers().get("h");
        assertEquals(List.of(0x7C00, 0x8000, 0x0000, 0x7FFF, 0x7FFF), h.stream().map(Number::intValue).toList());
    }
}
