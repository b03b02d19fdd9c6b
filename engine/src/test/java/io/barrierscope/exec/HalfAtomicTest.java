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
}
