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

    /** {instruction, a target without it, a target with it, what the message says it needs, section}. */
    private static final String[][] ROWS = {
        {"fence.mbarrier_init.release.cluster;", "sm_80", "sm_90", "sm_90 or higher (qualifier .op_restrict)", "9.7.13.4"},
        {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd40], [bar], 128;", "sm_80", "sm_90",
            "sm_90 or higher", "9.7.13.16"},
        {"fence.acquire.gpu;", "sm_80", "sm_90", "sm_90 or higher (qualifiers .acquire, .release)", "9.7.13.4"},
        {"fence.release.sync_restrict::shared::cta.cluster;", "sm_80", "sm_90", "sm_90 or higher", "9.7.13.4"},
        {"fence.sc.gpu;", "sm_62", "sm_70", "sm_70 or higher", "9.7.13.4"},
        {"fence.proxy.alias;", "sm_62", "sm_70", "sm_70 or higher", "9.7.13.4"},
        {"membar.proxy.alias;", "sm_53", "sm_60", "sm_60 or higher", "9.7.13.4"},
        {"membar.sys;", "sm_13", "sm_20", "sm_20 or higher", "9.7.13.4"},
        {"atom.shared::cluster.add.u32 %r3, [bar], 1;", "sm_80", "sm_90", "sm_90 or higher (.cluster scope, ::cluster)", "9.7.13.5, 9.7.13.6"},
        {"red.global.cluster.add.u32 [%rd40], 1;", "sm_80", "sm_90", "sm_90 or higher (.cluster scope, ::cluster)", "9.7.13.5, 9.7.13.6"},
        {"red.global.add.noftz.bf16x2 [%rd40], %r1;", "sm_80", "sm_90", "sm_90 or higher (add.noftz.bf16{x2})", "9.7.13.5, 9.7.13.6"},
        {"atom.global.L2::cache_hint.add.u32 %r3, [%rd40], 1, %rd2;", "sm_75", "sm_80", "sm_80 or higher (.level::cache_hint)",
            "9.7.13.5, 9.7.13.6"},
        {"atom.global.add.noftz.f16 %h1, [%rd40], %h2;", "sm_62", "sm_70", "sm_70 or higher (add.noftz.f16)", "9.7.13.5, 9.7.13.6"},
        {"atom.global.cas.b16 %h1, [%rd40], %h2, %h3;", "sm_62", "sm_70", "sm_70 or higher (cas.b16)", "9.7.13.5"},
        {"atom.global.acq_rel.gpu.add.u32 %r3, [%rd40], 1;", "sm_62", "sm_70", "sm_70 or higher (.sem)", "9.7.13.5, 9.7.13.6"},
        {"red.global.add.noftz.f16x2 [%rd40], %r1;", "sm_53", "sm_60", "sm_60 or higher (add.noftz.f16x2)", "9.7.13.5, 9.7.13.6"},
        {"atom.global.add.f64 %fd1, [%rd40], %fd2;", "sm_53", "sm_60", "sm_60 or higher (add.f64)", "9.7.13.5, 9.7.13.6"},
        {"atom.global.gpu.add.u32 %r3, [%rd40], 1;", "sm_53", "sm_60", "sm_60 or higher (.scope)", "9.7.13.5, 9.7.13.6"},
        {"redux.sync.add.u32 %r3, %r1, 0xffffffff;", "sm_75", "sm_80", "sm_80 or higher", "9.7.13.12"},
        {"match.any.sync.b32 %r3, %r1, 0xffffffff;", "sm_62", "sm_70", "sm_70 or higher", "9.7.13.10"},
        {"vote.sync.all.pred %p1, %p2, 0xffffffff;", "sm_20", "sm_30", "sm_30 or higher", "9.7.13.9"},
        {"activemask.b32 %r3;", "sm_20", "sm_30", "sm_30 or higher", "9.7.13.11"},
        {"bar.warp.sync 0xffffffff;", "sm_20", "sm_30", "sm_30 or higher", "9.7.13.2"},
        {"barrier.sync 0;", "sm_20", "sm_30", "sm_30 or higher", "9.7.13.1"},
        {"bar.arrive 1, 32;", "sm_13", "sm_20", "sm_20 or higher", "9.7.13.1"},
        {"mbarrier.init.shared.b64 [bar], 1;", "sm_75", "sm_80", "sm_80 or higher", "9.7.13.15.9"},
        {"mbarrier.inval.shared.b64 [bar];", "sm_75", "sm_80", "sm_80 or higher", "9.7.13.15.10"},
        {"mbarrier.arrive.shared.b64 %rd3, [bar];", "sm_75", "sm_80", "sm_80 or higher", "9.7.13.15.13"},
        {"mbarrier.arrive_drop.shared.b64 %rd3, [bar];", "sm_75", "sm_80", "sm_80 or higher", "9.7.13.15.14"},
        {"cp.async.mbarrier.arrive.shared.b64 [bar];", "sm_75", "sm_80", "sm_80 or higher", "9.7.13.15.15"},
        {"mbarrier.pending_count.b64 %r3, %rd2;", "sm_75", "sm_80", "sm_80 or higher", "9.7.13.15.17"},
        {"mbarrier.arrive.shared::cluster.b64 _, [bar];", "sm_80", "sm_90", "sm_90 or higher (sub-qualifier ::cluster)", "9.7.13.15.13-14"},
        {"mbarrier.arrive.release.cluster.shared.b64 %rd3, [bar];", "sm_80", "sm_90", "sm_90 or higher (scope .cluster)",
            "9.7.13.15.13-14, .16"},
        {"mbarrier.test_wait.acquire.cluster.shared.b64 %p1, [bar], %rd2;", "sm_80", "sm_90", "sm_90 or higher (scope .cluster)",
            "9.7.13.15.13-14, .16"},
        {"cp.async.ca.shared.global [bar], [%rd40], 8;", "sm_75", "sm_80", "sm_80 or higher", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)"},
        {"cp.async.commit_group;", "sm_75", "sm_80", "sm_80 or higher", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)"},
        {"cp.async.wait_group 0;", "sm_75", "sm_80", "sm_80 or higher", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)"},
        {"cp.async.wait_all;", "sm_75", "sm_80", "sm_80 or higher", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)"},
        {"cp.async.bulk.commit_group;", "sm_89", "sm_90", "sm_90 or higher", "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)"},
        {"cp.async.bulk.wait_group.read 0;", "sm_89", "sm_90", "sm_90 or higher", "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)"},
        {"cp.async.bulk.prefetch.L2.global [%rd40], 16;", "sm_89", "sm_90", "sm_90 or higher", "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)"},
        {"mapa.shared::cluster.u32 %r2, bar, 0;", "sm_89", "sm_90", "sm_90 or higher", "9.7.9.23"},
        {"getctarank.shared::cluster.u32 %r2, bar;", "sm_89", "sm_90", "sm_90 or higher", "9.7.9.24"},
        {"shfl.sync.idx.b32 %r2, %r1, 0, 31, 0xffffffff;", "sm_20", "sm_30", "sm_30 or higher", "9.7.9.6"},
        {"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r2}, [bar];", "sm_72", "sm_75", "sm_75 or higher", "9.7.14.5.15"},
        {"stmatrix.sync.aligned.m8n8.x1.shared.b16 [bar], {%r2};", "sm_89", "sm_90", "sm_90 or higher", "9.7.14.5.16"},
        {"movmatrix.sync.aligned.m8n8.trans.b16 %r2, %r1;", "sm_72", "sm_75", "sm_75 or higher", "9.7.14.5.17"},
        {"tanh.approx.bf16 %h1, %h2;", "sm_89", "sm_90", "sm_90 or higher (.bf16, .bf16x2)", "9.7.4.9-10"},
        {"ex2.approx.ftz.bf16x2 %r1, %r2;", "sm_89", "sm_90", "sm_90 or higher (.bf16, .bf16x2)", "9.7.4.9-10"},
        {"tanh.approx.f16 %h1, %h2;", "sm_72", "sm_75", "sm_75 or higher", "9.7.4.9-10"},
        {"max.xorsign.abs.f16 %h1, %h2, %h3;", "sm_80", "sm_86", "sm_86 or higher (.xorsign.abs)", "9.7.4.7-8"},
        {"min.bf16 %h1, %h2, %h3;", "sm_75", "sm_80", "sm_80 or higher", "9.7.4.7-8"},
        {"max.f16x2 %r1, %r2, %r3;", "sm_75", "sm_80", "sm_80 or higher", "9.7.4.7-8"},
        {"fma.rn.bf16 %h1, %h2, %h3, %h1;", "sm_75", "sm_80", "sm_80 or higher (.bf16, .bf16x2)", "9.7.4.4-6"},
        {"neg.bf16 %h1, %h2;", "sm_75", "sm_80", "sm_80 or higher (.bf16, .bf16x2)", "9.7.4.4-6"},
        {"abs.bf16x2 %r1, %r2;", "sm_75", "sm_80", "sm_80 or higher (.bf16, .bf16x2)", "9.7.4.4-6"},
        {"fma.rn.relu.f16 %h1, %h2, %h3, %h1;", "sm_75", "sm_80", "sm_80 or higher (.relu)", "9.7.4.4"},
        {"fma.rn.f16 %h1, %h2, %h3, %h1;", "sm_52", "sm_53", "sm_53 or higher", "9.7.4.4-6"},
        {"cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;", "sm_86", "sm_89", "sm_89 or higher (.e4m3x2, .e5m2x2)", "9.7.9.21"},
        {"cvt.rn.bf16.f32 %h1, %f1;", "sm_75", "sm_80", "sm_80 or higher (.relu, destination", "9.7.9.21"},
        {"cvt.rn.relu.f16.f32 %h1, %f1;", "sm_75", "sm_80", "sm_80 or higher (.relu, destination", "9.7.9.21"},
        {"cvt.f32.bf16 %f1, %h1;", "sm_75", "sm_80", "sm_80 or higher (cvt.f32.bf16)", "9.7.9.21"},
        {"cvt.rn.bf16.s32 %h1, %r1;", "sm_89", "sm_90", "sm_90 or higher (cvt between .bf16", "9.7.9.21"},
        {"cvt.rzi.s32.bf16 %r1, %h1;", "sm_89", "sm_90", "sm_90 or higher (cvt between .bf16", "9.7.9.21"},
        {"cvt.rn.satfinite.tf32.f32 %r1, %f1;", "sm_90", "sm_100", "sm_100 or higher (cvt.{rn,rz}.satfinite.tf32.f32)", "9.7.9.21"},
    };

    @Test
    void everyCheckedNoteRefusesTheInstructionBelowItsTargetAndLoadsOnIt() {
        for (String[] r : ROWS) {
            assertRefused(r[0], r[1], r[3], r[4]);
            assertLoads(r[0], r[2]);
        }
    }

    /** clusterlaunchcontrol (9.7.13.17-18) "Requires sm_100 or higher": on sm_90a it is refused naming that note, not as an unknown form. */
    @Test
    void clusterLaunchControlIsRefusedNamingItsSm100Note() {
        assertRefused("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [bar], [bar];", "sm_90a",
                "sm_100 or higher", "9.7.13.17-18");
    }

    /** The ISA asks sm_90 for fence's .acquire and .release; ptxas 13.0 takes them on sm_80: we follow the ISA. */
    @Test
    void fenceAcquireAndReleaseNeedSm90AsTheIsaSaysThoughPtxasIsLaxer() {
        assertRefused("fence.release.gpu;", "sm_89", "sm_90 or higher (qualifiers .acquire, .release)", "9.7.13.4");
        assertLoads("fence.acq_rel.gpu;", "sm_89");
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
