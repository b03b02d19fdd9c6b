package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import org.junit.jupiter.api.Test;

/**
 * The Target ISA Notes the engine checks against the module's {@code .target} (docs/semantics.md,
 * Instructions): an instruction the target lacks is refused at load, by name, with its section
 * and the file's line and column; on a target that has it, it loads.
 */
class TargetNotesTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;";

    private static ExecKernel kernel(String insn, String target) { return ExecKernel.of(insn).header(HEADER).target(target); }

    private static void assertRefused(String insn, String target, String needs, String section) {
        BadInputException e = assertThrows(BadInputException.class, () -> kernel(insn, target).launch(), insn + " on " + target);
        String mn = insn.substring(0, insn.indexOf(' ') < 0 ? insn.length() - 1 : insn.indexOf(' '));
        assertTrue(e.getMessage().contains("unsupported instruction " + mn + " on .target " + target), e.getMessage());
        assertTrue(e.getMessage().contains("requires " + needs) && e.getMessage().contains("PTX ISA " + section + ", Target ISA Notes"),
                e.getMessage());
        assertTrue(e.getMessage().matches("(?s).*k\\.ptx:\\d+:\\d+: .*"), e.getMessage());
    }

    private static void assertLoads(String insn, String target) {
        assertDoesNotThrow(() -> kernel(insn, target).launch(), insn + " on " + target);
    }

    @Test
    void wgmmaNeedsSm90aItselfAndIsRefusedOnPlainSm90AndOlderTargets() {
        String[][] forms = {{"wgmma.fence.sync.aligned;", "9.7.15.7.1"}, {"wgmma.commit_group.sync.aligned;", "9.7.15.7.2"},
            {"wgmma.wait_group.sync.aligned 0;", "9.7.15.7.3"}};
        for (String[] f : forms) {
            for (String target : new String[] {"sm_90", "sm_80", "sm_100a"}) assertRefused(f[0], target, "sm_90a", f[1]);
            assertLoads(f[0], "sm_90a");
        }
    }

    @Test
    void setmaxnregNeedsAnArchitectureOrFamilySpecificTarget() {
        String insn = "setmaxnreg.inc.sync.aligned.u32 240;";
        for (String target : new String[] {"sm_90", "sm_89", "sm_100"}) assertRefused(insn, target, "sm_90a, sm_100a", "9.7.19.5");
        for (String target : new String[] {"sm_90a", "sm_100a", "sm_100f", "sm_103f", "sm_120a"}) assertLoads(insn, target);
    }

    @Test
    void sm90InstructionsAreRefusedOnOlderTargetsAndLoadFromSm90On() {
        String[][] forms = {{"elect.sync %r1|%p1, 0xffffffff;", "9.7.13.14"}, {"barrier.cluster.arrive;", "9.7.13.3"},
            {"griddepcontrol.launch_dependents;", "9.7.13.13"}, {"mbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd1;", "9.7.13.15.16"},
            {"mbarrier.expect_tx.shared::cta.b64 [bar], 16;", "9.7.13.15.11"}, {"fence.proxy.async;", "9.7.13.4"},
            {"fence.acq_rel.cluster;", "9.7.13.4"}};
        for (String[] f : forms) {
            assertRefused(f[0], "sm_80", "sm_90 or higher", f[1]);
            assertLoads(f[0], "sm_90");
            assertLoads(f[0], "sm_90a");
        }
        // mbarrier.test_wait needs only sm_80 (9.7.13.15.16)
        assertLoads("mbarrier.test_wait.shared::cta.b64 %p1, [bar], %rd1;", "sm_80");
        assertRefused("mbarrier.test_wait.shared::cta.b64 %p1, [bar], %rd1;", "sm_75", "sm_80 or higher", "9.7.13.15.16");
    }

    /** cvt.rs to the four-element fp8/fp6/fp4 types (9.7.9.21) is refused saying it needs sm_100a, not with a parse error. */
    @Test
    void fourElementStochasticConversionsAreRefusedSayingTheyNeedSm100a() {
        for (String ty : new String[] {"e4m3x4", "e5m2x4", "e2m3x4", "e3m2x4", "e2m1x4"}) {
            for (String relu : new String[] {"", ".relu"}) {
                String insn = "cvt.rs" + relu + ".satfinite." + ty + ".f32 " + (ty.equals("e2m1x4") ? "%h1" : "%r10") + ", {%f1, %f2, %f3, %f4}, %r5;";
                for (String target : new String[] {"sm_90a", "sm_100a"}) {
                    BadInputException e = assertThrows(BadInputException.class, () -> kernel(insn, target).launch(), insn);
                    assertTrue(e.getMessage().contains("unsupported instruction " + insn.substring(0, insn.indexOf(' '))), e.getMessage());
                    assertTrue(e.getMessage().contains("needs target sm_100a"), e.getMessage());
                    assertTrue(e.getMessage().matches("(?s).*k\\.ptx:\\d+:\\d+: .*"), e.getMessage());
                }
            }
        }
    }
}
