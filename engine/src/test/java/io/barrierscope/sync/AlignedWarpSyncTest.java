package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.CorpusKernel;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Warp-synchronous .sync.aligned instructions (wgmma.fence/commit_group/wait_group, setmaxnreg): semantics.md section 12. */
class AlignedWarpSyncTest {
    @Test
    void aWarpSpecializedPipelineThatReconvergesOnlyThroughWgmmaFencesCompletesUnderEveryPolicy() {
        // ws_aligned_pipeline.cu: consumer lane k sums 100*i + k over 6 stages.
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            for (long seed : new long[] {1, 2, 3, 7, 11}) {
                LaunchedRun r = CorpusKernel.run("/isa-kernels/ws_aligned_pipeline.ptx", "_Z19ws_aligned_pipelinePi", 64, policy, seed, "out");
                assertEquals(Outcome.COMPLETED, outcome(r), policy + " seed " + seed + "\n" + r.summary());
                List<Number> out = r.buffers().get("out");
                for (int k = 0; k < 32; k++) assertEquals(1500 + 6 * k, out.get(k).intValue(), policy + " seed " + seed + " lane " + k);
                if (policy.equals("round-robin")) break;
            }
        }
    }

    @Test
    void eachLaneWaitsAtAnAlignedInstructionUntilItsWholeWarpIsThere() {
        // Lanes 0-15 reach wgmma.fence first and store a flag after it; lanes 16-31 store their own flag before it.
        // A lane past the fence must see every lane's pre-fence store: out[lane] = number of flags set.
        String body = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, flags;\n"
                + "shl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra FENCE;\n"
                + "mov.u32 %r5, 1;\nst.shared.u32 [%r4], %r5;\nFENCE:\nmov.u32 %r5, 1;\n@%p1 st.shared.u32 [%r4], %r5;\n"
                + "wgmma.fence.sync.aligned;\nmov.u32 %r6, 0;\nmov.u32 %r7, 0;\nLOOP:\nshl.b32 %r8, %r7, 2;\nadd.u32 %r9, %r2, %r8;\n"
                + "ld.shared.u32 %r10, [%r9];\nadd.u32 %r6, %r6, %r10;\nadd.u32 %r7, %r7, 1;\nsetp.lt.u32 %p2, %r7, 32;\n@%p2 bra LOOP;\n"
                + "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
                + "st.global.u32 [%rd4], %r6;\nret;";
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = PtxRun.kernel(body).header(".shared .align 4 .b32 flags[32];").buffer("out", 32).threads(32)
                    .policy(policy, 4).run();
            assertEquals(Outcome.COMPLETED, outcome(r), policy + "\n" + r.summary());
            assertEquals(java.util.Collections.nCopies(32, 32L), PtxRun.u32(r, "out"), policy);
        }
    }

    @Test
    void lanesMeetingAtTwoDifferentAlignedInstructionsAreAWarpSyncMismatch() {
        String body = ".reg .pred %p<4>;\n.reg .b32 %r<4>;\nmov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\n"
                + "wgmma.fence.sync.aligned;\nbra.uni END;\nA:\nwgmma.fence.sync.aligned;\nEND:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        assertEquals(List.of("warp-sync-mismatch"), codes(r));
    }

    @Test
    void setmaxnregAndWgmmaGroupsAreWarpSynchronousToo() {
        // The second half of the warp exits before the aligned instruction: it can never arrive.
        for (String insn : List.of("setmaxnreg.inc.sync.aligned.u32 232;", "wgmma.commit_group.sync.aligned;",
                "wgmma.wait_group.sync.aligned 1;")) {
            String body = ".reg .pred %p<4>;\n.reg .b32 %r<4>;\nmov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 16;\n@%p1 bra END;\n"
                    + insn + "\nEND:\nret;";
            LaunchedRun r = PtxRun.kernel(body).threads(32).run();
            assertEquals(List.of("warp-sync-exited-member"), codes(r), insn);
            assertTrue(r.interpreter().diagnostics().get(0).message().contains(insn.substring(0, insn.indexOf(' ') < 0 ? insn.length() - 1 : insn.indexOf(' '))), insn);
        }
    }
}
