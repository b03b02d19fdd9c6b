package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** tensormap.cp_fenceproxy (PTX ISA 9.7.13.16): a warp-aligned 128-byte copy from shared::cta to global. */
class TensormapCpFenceproxyTest {
    private static final String CP = "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned";

    @Test
    void copiesTheFull128BytesFromSharedToGlobalForTheWholeWarp() {
        // "Copies data of size specified by the size argument, in bytes, from ... src in shared memory to ... dst in the global memory".
        String body = ".shared .align 128 .b8 sm[128];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, sm;\nshl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\n"
                + "add.u32 %r5, %r1, 100;\nst.shared.u32 [%r4], %r5;\nbar.warp.sync -1;\n" + CP + " [%rd40], [%r2], 128;\n";
        LaunchedRun r = ExecKernel.of(body).threads(32).ok();
        for (int i = 0; i < 32; i++) assertEquals(100 + i, ExecKernel.w(r, i), "word " + i);
        assertEquals(0, ExecKernel.w(r, 32), "exactly 128 bytes");
    }

    @Test
    void aLaneWithItsGuardFalseBreaksTheAlignedRule() {
        // ".aligned ... all threads in the warp must execute the same tensormap.cp_fenceproxy instruction ... otherwise behavior is undefined".
        String body = ".shared .align 128 .b8 sm[128];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, sm;\nsetp.ne.u32 %p1, %r1, 3;\n"
                + "@%p1 " + CP + " [%rd40], [%r2], 128;\nbar.warp.sync -1;\n";
        LaunchedRun r = ExecKernel.of(body).threads(32).run();
        assertEquals(1, ExecKernel.codes(r).size(), r.summary());
        assertEquals(true, List.of("warp-collective-partial", "warp-sync-exited-member", "warp-sync-mismatch").contains(ExecKernel.codes(r).get(0)),
                r.summary());
        assertEquals(0, ExecKernel.w(r, 0), "nothing copied");
    }

    @Test
    void formsOutsideTheIsasOneAreRefused() {
        // ".release.scope" and ".sync.aligned" are mandatory; "The valid value of immediate operand size is 128."
        assertRefusedAtLine("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.acquire.gpu.sync.aligned [%rd40], [%r2], 128;",
                "written tensormap.cp_fenceproxy");
        assertRefusedAtLine("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync [%rd40], [%r2], 128;",
                "written tensormap.cp_fenceproxy");
        assertRefusedAtLine(CP + " [%rd40], [%r2], 64;", "the size must be the immediate 128");
    }
}
