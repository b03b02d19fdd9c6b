package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.CorpusKernel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every policy is fair: delays are bounded and no warp or group is starved (semantics.md section 12). */
class FairnessTest {
    private static final String PTX = "/isa-kernels/warp_handoff.ptx";

    private static void assertHandoffCompletes(String entry, int threads, int lanes) {
        for (String policy : Policy.NAMES) {
            for (long seed : new long[] {1, 2, 3, 5, 8}) {
                LaunchedRun r = CorpusKernel.run(PTX, entry, threads, policy, seed, "out");
                String what = policy + " seed " + seed;
                assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), what + "\n" + r.summary());
                assertEquals(List.of(), r.interpreter().diagnostics(), what);
                // Each lane added 10 * turn + lane for the 8 turns 0..7.
                List<Number> out = r.buffers().get("out");
                for (int k = 0; k < lanes; k++) assertEquals(280 + 8 * k, out.get(k).intValue(), what + " lane " + k);
                if (policy.equals("round-robin")) break;
            }
        }
    }

    @Test
    void warpsHandingOffThroughAnAtomicFlagAfterSyncwarpCompleteUnderEveryPolicy() {
        // Adversarial used to run the spinning warp for ever and never the warp at __syncwarp.
        assertHandoffCompletes("_Z12warp_handoffPi", 64, 32);
    }

    @Test
    void halvesOfOneWarpHandingOffThroughAnAtomicFlagCompleteUnderEveryPolicy() {
        // Three groups in one warp (spinning, at __syncwarp, passing the turn): round-robin used to starve the middle one.
        assertHandoffCompletes("_Z17half_warp_handoffPi", 32, 16);
    }

    @Test
    void aRunnableWarpIsPassedOverAtMostTheBoundInARow() {
        // Warp 1's next instruction synchronizes (bar.warp.sync) while warp 0 spins for ever on an atomic: adversarial
        // prefers warp 0, but warp 1 must get a step within WARP_BOUND picks, and then again, and so on.
        String body = ".reg .pred %p<4>;\n.reg .b32 %r<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, flag;\nsetp.ge.u32 %p1, %r1, 32;\n"
                + "@%p1 bra SYNC;\nSPIN:\natom.shared.add.u32 %r3, [%r2], 0;\nsetp.lt.u32 %p2, %r3, 3;\n@%p2 bra SPIN;\nret;\n"
                + "SYNC:\nbar.warp.sync -1;\nbar.warp.sync -1;\nbar.warp.sync -1;\nsetp.eq.u32 %p3, %r1, 32;\n@%p3 atom.shared.exch.b32 %r4, [%r2], 3;\nret;";
        LaunchedRun r = io.barrierscope.testing.PtxRun.kernel(body).header(".shared .align 4 .b32 flag;").threads(64)
                .policy("adversarial", 9).run();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        // 5 steps of warp 1, each after at most WARP_BOUND steps of warp 0.
        long bound = 6L * (Fairness.WARP_BOUND + 1);
        assertEquals(true, r.machine().steps <= bound, "steps " + r.machine().steps + " > " + bound);
    }
}
