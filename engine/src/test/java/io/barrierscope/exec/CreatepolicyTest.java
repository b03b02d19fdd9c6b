package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import org.junit.jupiter.api.Test;

/**
 * createpolicy (PTX ISA 9.7.9.18): the opaque cache policy that .L2::cache_hint operands take. It
 * was refused as an unsupported instruction, so a kernel making its TMA or load policy with it
 * did not load.
 */
class CreatepolicyTest {
    @Test
    void eachFormMakesADeterministicPolicyThatACacheHintedAccessTakesAsAHint() {
        LaunchedRun r = ExecKernel.of("mov.u32 %r1, 9;\nst.global.u32 [%rd40+4], %r1;\n"
                + "createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;\n"
                + "createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd2, 0.5;\n"
                + "createpolicy.fractional.L2::evict_normal.b64 %rd3;\n"
                + "createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %rd4, [%rd40], 256, 1024;\n"
                + "createpolicy.cvt.L2.b64 %rd5, %rd4;\n"
                + "ld.global.L2::cache_hint.u32 %r2, [%rd40+4], %rd1;\n" + ExecKernel.w(0, "%r2")
                + ExecKernel.x(0, "%rd1") + ExecKernel.x(1, "%rd2") + ExecKernel.x(2, "%rd3") + ExecKernel.x(3, "%rd4")
                + ExecKernel.x(4, "%rd5")).ok();
        assertEquals(9, ExecKernel.w(r, 0));
        for (int i = 0; i < 5; i++) for (int j = i + 1; j < 5; j++) assertNotEquals(ExecKernel.x(r, i), ExecKernel.x(r, j), i + " vs " + j);
        LaunchedRun again = ExecKernel.of("createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;\n" + ExecKernel.x(0, "%rd1")).ok();
        assertEquals(ExecKernel.x(r, 0), ExecKernel.x(again, 0), "the same qualifiers make the same policy");
    }

    @Test
    void formsOutsideTheSyntaxOrItsRangesAreRefused() {
        assertRefusedAtLine("createpolicy.fractional.b64 %rd1, 1.0;", "needs a primary priority");
        assertRefusedAtLine("createpolicy.fractional.L2::evict_first.L2::evict_last.b64 %rd1, 1.0;", "needs a primary priority");
        assertRefusedAtLine("createpolicy.fractional.L2::evict_last.b64 %rd1, 0.0;", "(0.0, 1.0]");
        assertRefusedAtLine("createpolicy.fractional.L2::evict_last.b64 %rd1, 1.5;", "(0.0, 1.0]");
        assertRefusedAtLine("createpolicy.range.global.L2::evict_last.b64 %rd1, [%rd40], 2048, 1024;", "larger than total-size");
        assertRefusedAtLine("createpolicy.cvt.b64 %rd1, %rd2;", "createpolicy.cvt.L2.b64");
        BadInputException e = assertThrows(BadInputException.class,
                () -> ExecKernel.of("createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;").target("sm_75").launch());
        assertTrue(e.getMessage().contains("sm_80"), e.getMessage());
    }
}
