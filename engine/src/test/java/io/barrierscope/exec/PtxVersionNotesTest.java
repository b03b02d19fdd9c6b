package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import org.junit.jupiter.api.Test;

/**
 * The PTX ISA Notes the engine checks against the module's {@code .version} (docs/semantics.md
 * section 15): an instruction or qualifier introduced after the declared version is refused at
 * load, by name, with the version it came in, its section and the file's line and column; from
 * that version on it loads. Each row was also checked against ptxas 13.0 where ptxas still takes
 * the version (7.0 and later with sm_80, 6.3 and later with sm_75).
 */
class PtxVersionNotesTest {
    private static final String HEADER = ".shared .align 8 .b64 bar;";

    private static ExecKernel kernel(String insn, String version, String target) {
        return ExecKernel.of(insn).header(HEADER).version(version).target(target);
    }

    private static void assertRefused(String insn, String version, String target, String since, String section) {
        BadInputException e = assertThrows(BadInputException.class, () -> kernel(insn, version, target).launch(), insn + " in " + version);
        String mn = insn.substring(0, insn.indexOf(' ') < 0 ? insn.length() - 1 : insn.indexOf(' '));
        String m = e.getMessage();
        assertTrue(m.contains("unsupported instruction " + mn + " in .version " + version + ": "), m);
        assertTrue(m.contains("introduced in PTX ISA " + since + " (" + section + ", PTX ISA Notes)"), m);
        assertTrue(m.matches("(?s).*k\\.ptx:\\d+:\\d+: .*"), m);
    }

    private static void assertLoads(String insn, String version, String target) {
        assertDoesNotThrow(() -> kernel(insn, version, target).launch(), insn + " in .version " + version + " on " + target);
    }

    /** {instruction, a version before the note's, the note's version, a target that has it, section}. */
    private static final String[][] ROWS = {
        {"wgmma.fence.sync.aligned;", "7.8", "8.0", "sm_90a", "9.7.15.7.1"},
        {"wgmma.commit_group.sync.aligned;", "7.8", "8.0", "sm_90a", "9.7.15.7.2"},
        {"wgmma.wait_group.sync.aligned 0;", "7.8", "8.0", "sm_90a", "9.7.15.7.3"},
        {"setmaxnreg.inc.sync.aligned.u32 240;", "7.8", "8.0", "sm_90a", "9.7.19.5"},
        {"cp.async.ca.shared.global [bar], [%rd40], 8;", "6.5", "7.0", "sm_80", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)"},
        {"cp.async.commit_group;", "6.5", "7.0", "sm_80", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)"},
        {"cp.async.wait_all;", "6.5", "7.0", "sm_80", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)"},
        {"cp.async.ca.shared.global.L2::128B [bar], [%rd40], 8;", "7.3", "7.4", "sm_80", "9.7.9.25 (cp.async)"},
        {"cp.async.ca.shared::cta.global [bar], [%rd40], 8;", "7.7", "7.8", "sm_80", "9.7.9.25 (cp.async)"},
        {"cp.async.bulk.commit_group;", "7.8", "8.0", "sm_90", "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)"},
        {"cp.async.bulk.wait_group 0;", "7.8", "8.0", "sm_90", "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)"},
        {"cp.async.bulk.prefetch.L2.global [%rd40], 16;", "7.8", "8.0", "sm_90", "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)"},
        {"mapa.shared::cluster.u32 %r2, bar, 0;", "7.7", "7.8", "sm_90", "9.7.9.23"},
        {"getctarank.shared::cluster.u32 %r2, bar;", "7.7", "7.8", "sm_90", "9.7.9.24"},
        {"shfl.sync.idx.b32 %r2, %r1, 0, 31, 0xffffffff;", "5.0", "6.0", "sm_75", "9.7.9.6"},
        {"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r2}, [bar];", "6.4", "6.5", "sm_75", "9.7.14.5.15"},
        {"ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%r2}, [bar];", "7.7", "7.8", "sm_80", "9.7.14.5.15"},
        {"stmatrix.sync.aligned.m8n8.x1.shared.b16 [bar], {%r2};", "7.7", "7.8", "sm_90", "9.7.14.5.16"},
        {"movmatrix.sync.aligned.m8n8.trans.b16 %r2, %r1;", "7.7", "7.8", "sm_75", "9.7.14.5.17"},
        {"tanh.approx.bf16 %h1, %h2;", "7.7", "7.8", "sm_90", "9.7.4.9-10"},
        {"ex2.approx.ftz.bf16x2 %r1, %r2;", "7.7", "7.8", "sm_90", "9.7.4.9-10"},
        {"tanh.approx.f16 %h1, %h2;", "6.5", "7.0", "sm_75", "9.7.4.9-10"},
        {"max.xorsign.abs.f16 %h1, %h2, %h3;", "7.1", "7.2", "sm_86", "9.7.4.7-8"},
        {"min.bf16 %h1, %h2, %h3;", "6.5", "7.0", "sm_80", "9.7.4.7-8"},
        {"fma.rn.bf16 %h1, %h2, %h3, %h1;", "6.5", "7.0", "sm_80", "9.7.4.4-6"},
        {"neg.bf16 %h1, %h2;", "6.5", "7.0", "sm_80", "9.7.4.4-6"},
        {"fma.rn.relu.f16 %h1, %h2, %h3, %h1;", "6.5", "7.0", "sm_80", "9.7.4.4"},
        {"abs.f16 %h1, %h2;", "6.4", "6.5", "sm_75", "9.7.4.6"},
        {"neg.f16 %h1, %h2;", "5.0", "6.0", "sm_75", "9.7.4.5"},
        {"fma.rn.f16 %h1, %h2, %h3, %h1;", "4.1", "4.2", "sm_75", "9.7.4.4"},
        {"cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;", "7.7", "7.8", "sm_90", "9.7.9.21"},
        {"cvt.rn.bf16.f32 %h1, %f1;", "6.5", "7.0", "sm_80", "9.7.9.21"},
        {"cvt.rn.relu.f16.f32 %h1, %f1;", "6.5", "7.0", "sm_80", "9.7.9.21"},
        {"cvt.f32.bf16 %f1, %h1;", "7.0", "7.1", "sm_80", "9.7.9.21"},
        {"cvt.ftz.f32.bf16 %f1, %h1;", "7.7", "7.8", "sm_90", "9.7.9.21"},
        {"cvt.rn.bf16.s32 %h1, %r1;", "7.7", "7.8", "sm_90", "9.7.9.21"},
        {"cvt.rn.satfinite.tf32.f32 %r1, %f1;", "8.5", "8.6", "sm_100", "9.7.9.21"},
        {"cvt.rn.satfinite.bf16.f32 %h1, %f1;", "8.0", "8.1", "sm_80", "9.7.9.21"},
        {"barrier.sync 0;", "5.0", "6.0", "sm_75", "9.7.13.1"},
        {"barrier.cta.sync 0;", "7.7", "7.8", "sm_80", "9.7.13.1"},
        {"bar.cta.sync 0;", "7.7", "7.8", "sm_80", "9.7.13.1"},
        {"bar.warp.sync 0xffffffff;", "5.0", "6.0", "sm_75", "9.7.13.2"},
        {"barrier.cluster.arrive;", "7.7", "7.8", "sm_90", "9.7.13.3"},
        {"barrier.cluster.arrive.release;", "7.8", "8.0", "sm_90", "9.7.13.3"},
        {"fence.proxy.async;", "7.8", "8.0", "sm_90", "9.7.13.4"},
        {"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd40], [bar], 128;", "8.2", "8.3", "sm_90", "9.7.13.16"},
        {"fence.mbarrier_init.release.cluster;", "7.8", "8.0", "sm_90", "9.7.13.4"},
        {"fence.acquire.sync_restrict::shared::cluster.cluster;", "8.5", "8.6", "sm_90", "9.7.13.4"},
        {"fence.acquire.gpu;", "8.5", "8.6", "sm_90", "9.7.13.4"},
        {"fence.acq_rel.cluster;", "7.7", "7.8", "sm_90", "9.7.13.4"},
        {"fence.proxy.alias;", "7.4", "7.5", "sm_80", "9.7.13.4"},
        {"membar.proxy.alias;", "7.4", "7.5", "sm_80", "9.7.13.4"},
        {"fence.sc.gpu;", "5.0", "6.0", "sm_75", "9.7.13.4"},
        {"atom.shared::cta.add.u32 %r3, [bar], 1;", "7.7", "7.8", "sm_80", "9.7.13.5, 9.7.13.6"},
        {"atom.global.cluster.add.u32 %r3, [%rd40], 1;", "7.7", "7.8", "sm_90", "9.7.13.5, 9.7.13.6"},
        {"atom.global.add.noftz.bf16 %h1, [%rd40], %h2;", "7.7", "7.8", "sm_90", "9.7.13.5, 9.7.13.6"},
        {"atom.global.L2::cache_hint.add.u32 %r3, [%rd40], 1, %rd2;", "7.3", "7.4", "sm_80", "9.7.13.5, 9.7.13.6"},
        {"atom.global.add.noftz.f16 %h1, [%rd40], %h2;", "6.2", "6.3", "sm_75", "9.7.13.5, 9.7.13.6"},
        {"atom.global.cas.b16 %h1, [%rd40], %h2, %h3;", "6.2", "6.3", "sm_75", "9.7.13.5"},
        {"red.global.add.noftz.f16x2 [%rd40], %r1;", "6.1", "6.2", "sm_75", "9.7.13.5, 9.7.13.6"},
        {"atom.global.acq_rel.gpu.add.u32 %r3, [%rd40], 1;", "5.0", "6.0", "sm_75", "9.7.13.5, 9.7.13.6"},
        {"atom.global.gpu.add.u32 %r3, [%rd40], 1;", "4.3", "5.0", "sm_75", "9.7.13.5, 9.7.13.6"},
        {"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [bar], 1, [bar];", "8.0", "8.1", "sm_90",
            "9.7.13.7"},
        {"vote.sync.all.pred %p1, %p2, 0xffffffff;", "5.0", "6.0", "sm_75", "9.7.13.9"},
        {"match.any.sync.b32 %r3, %r1, 0xffffffff;", "5.0", "6.0", "sm_75", "9.7.13.10"},
        {"activemask.b32 %r3;", "6.1", "6.2", "sm_75", "9.7.13.11"},
        {"redux.sync.add.u32 %r3, %r1, 0xffffffff;", "6.5", "7.0", "sm_80", "9.7.13.12"},
        {"griddepcontrol.wait;", "7.7", "7.8", "sm_90", "9.7.13.13"},
        {"elect.sync %r3|%p1, 0xffffffff;", "7.8", "8.0", "sm_90", "9.7.13.14"},
        {"mbarrier.init.shared.b64 [bar], 1;", "6.5", "7.0", "sm_80", "9.7.13.15.9"},
        {"mbarrier.init.shared::cta.b64 [bar], 1;", "7.7", "7.8", "sm_80", "9.7.13.15.9-17"},
        {"mbarrier.inval.shared.b64 [bar];", "6.5", "7.0", "sm_80", "9.7.13.15.10"},
        {"mbarrier.expect_tx.shared::cta.b64 [bar], 16;", "7.8", "8.0", "sm_90", "9.7.13.15.11"},
        {"mbarrier.complete_tx.shared::cta.b64 [bar], 16;", "7.8", "8.0", "sm_90", "9.7.13.15.12"},
        {"mbarrier.arrive.shared.b64 %rd3, [bar];", "6.5", "7.0", "sm_80", "9.7.13.15.13"},
        {"mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [bar], 16;", "7.8", "8.0", "sm_90", "9.7.13.15.13-14"},
        {"mbarrier.arrive.release.cta.shared::cta.b64 %rd3, [bar];", "7.8", "8.0", "sm_90", "9.7.13.15.13-14, .16"},
        {"mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd3, [bar];", "8.5", "8.6", "sm_90", "9.7.13.15.13-14, .16"},
        {"mbarrier.arrive_drop.shared.b64 %rd3, [bar];", "6.5", "7.0", "sm_80", "9.7.13.15.14"},
        {"cp.async.mbarrier.arrive.shared.b64 [bar];", "6.5", "7.0", "sm_80", "9.7.13.15.15"},
        {"mbarrier.test_wait.shared.b64 %p1, [bar], %rd2;", "6.5", "7.0", "sm_80", "9.7.13.15.16"},
        {"mbarrier.test_wait.parity.shared.b64 %p1, [bar], %r1;", "7.0", "7.1", "sm_80", "9.7.13.15.16"},
        {"mbarrier.try_wait.shared.b64 %p1, [bar], %rd2;", "7.7", "7.8", "sm_90", "9.7.13.15.16"},
        {"mbarrier.pending_count.b64 %r3, %rd2;", "6.5", "7.0", "sm_80", "9.7.13.15.17"},
    };

    @Test
    void everyCheckedNoteRefusesTheInstructionBeforeItsVersionAndLoadsFromItOn() {
        for (String[] r : ROWS) {
            assertRefused(r[0], r[1], r[3], r[2], r[4]);
            assertLoads(r[0], r[2], r[3]);
        }
    }

    @Test
    void wgmmaMmaAsyncIsRefusedInVersion78NamingTheVersionItCameIn() {
        String insn = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;";
        BadInputException e = assertThrows(BadInputException.class, () -> kernel(insn, "7.8", "sm_90a").launch());
        assertTrue(e.getMessage().contains("unsupported instruction wgmma.mma_async") && e.getMessage().contains("in .version 7.8: introduced "
                + "in PTX ISA 8.0 (9.7.15.5.2, PTX ISA Notes)"), e.getMessage());
    }

    @Test
    void aQualifierIsNamedWhenOnlyItIsNewerThanTheModule() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> kernel("mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd3, [bar];", "8.5", "sm_90").launch());
        assertTrue(e.getMessage().contains(": qualifier .relaxed introduced in PTX ISA 8.6"), e.getMessage());
    }

    /** The ISA gives 8.6 for fence's .acquire and .release; ptxas 13.0 takes them in 8.5 too: we follow the ISA. */
    @Test
    void fenceAcquireFollowsTheIsaWherePtxasIsLaxer() {
        assertRefused("fence.release.gpu;", "8.5", "sm_90", "8.6", "9.7.13.4");
        assertLoads("fence.release.gpu;", "8.6", "sm_90");
    }

    @Test
    void versionsAreComparedAsMajorAndMinorNumbers() {
        assertEquals(78, PtxVersionNotes.parse("7.8"));
        assertEquals(90, PtxVersionNotes.parse("9.0"));
        assertEquals(-1, PtxVersionNotes.parse("9"));
        assertEquals(-1, PtxVersionNotes.parse(""));
    }
}
