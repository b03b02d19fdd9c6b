package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** isspacep (PTX ISA 9.7.9, isspacep): which window of the generic address space an address falls in. */
class IsspacepTest {
    private static final String[] SPACES = {"global", "shared", "shared::cta", "shared::cluster", "local", "const", "param", "param::entry"};
    private static final String HEADER = ".shared .align 4 .b32 sh[4];\n.const .align 4 .b32 cn[4] = {1, 2, 3, 4};\n";

    /** isspacep.S for every space S of the address in %rd1 (after setup), as 0/1 in SPACES' order. */
    private static List<Long> answers(String setup) {
        StringBuilder body = new StringBuilder(".local .align 4 .b32 lo[4];\n").append(setup);
        for (int i = 0; i < SPACES.length; i++) {
            body.append("isspacep.").append(SPACES[i]).append(" %p1, %rd1;\nselp.u32 %r1, 1, 0, %p1;\n").append(w(i, "%r1"));
        }
        LaunchedRun r = ExecKernel.of(body.toString()).header(HEADER).wSlots(SPACES.length).ok();
        Long[] got = new Long[SPACES.length];
        for (int i = 0; i < SPACES.length; i++) got[i] = w(r, i);
        return List.of(got);
    }

    @Test
    void aGlobalPointerIsGlobalOnly() {
        assertEquals(List.of(1L, 0L, 0L, 0L, 0L, 0L, 0L, 0L), answers("ld.param.u64 %rd1, [w];\n"));
    }

    @Test
    void theCtasSharedAddressIsSharedCtaAndSharedCluster() {
        assertEquals(List.of(0L, 1L, 1L, 1L, 0L, 0L, 0L, 0L), answers("cvta.shared.u64 %rd1, sh;\n"));
    }

    @Test
    void aSharedAddressNamingACtaByRankIsSharedClusterOnly() {
        assertEquals(List.of(0L, 0L, 0L, 1L, 0L, 0L, 0L, 0L), answers("cvta.shared.u64 %rd2, sh;\nmapa.u64 %rd1, %rd2, 0;\n"));
    }

    @Test
    void aLocalAddressIsLocalOnly() {
        assertEquals(List.of(0L, 0L, 0L, 0L, 1L, 0L, 0L, 0L), answers("cvta.local.u64 %rd1, lo;\n"));
    }

    @Test
    void aConstAddressIsConstOnly() {
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L, 1L, 0L, 0L), answers("cvta.const.u64 %rd1, cn;\n"));
    }

    @Test
    void aKernelParameterIsParamAndAlsoGlobalAsTheIsaSays() {
        assertEquals(List.of(1L, 0L, 0L, 0L, 0L, 0L, 1L, 1L), answers("mov.u64 %rd2, x;\ncvta.param.u64 %rd1, %rd2;\n"));
    }

    @Test
    void aMissingSpaceParamFuncAndA32BitAddressAreRefused() {
        for (String[] bad : new String[][] {{"isspacep %p1, %rd1;", "needs a state space"},
                {"isspacep.param::func %p1, %rd1;", "isspacep.param{::entry} only"}, {"isspacep.global %p1, %r1;", "32-bit register"}}) {
            try {
                LaunchedRun r = ExecKernel.of("mov.u64 %rd1, 0;\nmov.u32 %r1, 0;\n" + bad[0] + "\n").run();
                throw new AssertionError(bad[0] + " was accepted: " + r.summary());
            } catch (RuntimeException e) {
                assertTrue(String.valueOf(e.getMessage()).contains(bad[1]), bad[0] + ": " + e);
            }
        }
    }
}
