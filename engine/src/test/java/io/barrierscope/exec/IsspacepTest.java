package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** isspacep (PTX ISA 9.7.9.19, isspacep): which window of the generic address space an address falls in. */
class IsspacepTest {
    private static final String[] SPACES = {"global", "shared", "shared::cta", "shared::cluster", "local", "const", "param", "param::entry"};
    private static final String HEADER = ".shared .align 4 .b32 sh[4];\n.const .align 4 .b32 cn[4] = {1, 2, 3, 4};\n";

    /** isspacep.S for every space S of the address in %rd1 (after setup), as 0/1 in SPACES' order. */
    private static List<Long> answers(String setup) {
        return answers(setup, 1).get(0);
    }

    /**
     * As {@link #answers(String)}, in a grid of {@code ctas} CTAs forming one cluster: one list per
     * CTA, by %ctaid.x.
     */
    private static List<List<Long>> answers(String setup, int ctas) {
        // Each CTA's answers go to w[ctaid * SPACES.length ...].
        StringBuilder body = new StringBuilder(".local .align 4 .b32 lo[4];\nmov.u32 %r5, %ctaid.x;\nmul.wide.u32 %rd3, %r5, "
                + 4 * SPACES.length + ";\nadd.u64 %rd40, %rd40, %rd3;\n").append(setup);
        for (int i = 0; i < SPACES.length; i++) {
            body.append("isspacep.").append(SPACES[i]).append(" %p1, %rd1;\nselp.u32 %r1, 1, 0, %p1;\n").append(w(i, "%r1"));
        }
        ExecKernel k = ExecKernel.of(body.toString()).header(HEADER).wSlots(ctas * SPACES.length);
        if (ctas > 1) k.grid(new Dim3(ctas, 1, 1)).cluster(new Dim3(ctas, 1, 1));
        LaunchedRun r = k.ok();
        List<List<Long>> all = new java.util.ArrayList<>();
        for (int c = 0; c < ctas; c++) {
            Long[] got = new Long[SPACES.length];
            for (int i = 0; i < SPACES.length; i++) got[i] = w(r, c * SPACES.length + i);
            all.add(List.of(got));
        }
        return all;
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
    void aMapaAddressOfTheExecutingCtasOwnRankIsSharedCtaToo() {
        // The ISA's note: shared::cta is 1 "only if the address is of a variable declared in the executing CTA", which sh is.
        assertEquals(List.of(0L, 1L, 1L, 1L, 0L, 0L, 0L, 0L), answers("cvta.shared.u64 %rd2, sh;\nmapa.u64 %rd1, %rd2, 0;\n"));
    }

    @Test
    void anotherCtasSharedAddressInTheClusterIsSharedClusterOnly() {
        List<Long> peerOnly = List.of(0L, 0L, 0L, 1L, 0L, 0L, 0L, 0L);
        assertEquals(List.of(peerOnly, peerOnly), answers("mov.u32 %r6, %cluster_ctarank;\nxor.b32 %r6, %r6, 1;\n"
                + "cvta.shared.u64 %rd2, sh;\nmapa.u64 %rd1, %rd2, %r6;\n", 2));
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
