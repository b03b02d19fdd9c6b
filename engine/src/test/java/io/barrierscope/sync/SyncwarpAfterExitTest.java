package io.barrierscope.sync;

import static io.barrierscope.testing.PtxRun.codes;
import static io.barrierscope.testing.PtxRun.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.CorpusKernel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** __syncwarp() whose mask names exited lanes: the PTX reading, with the CUDA guide's as a note (semantics.md section 12). */
class SyncwarpAfterExitTest {
    @Test
    void aSyncwarpNamingExitedLanesFollowsThePtxTextAndNotesTheGuidesReading() {
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = CorpusKernel.run("/isa-kernels/syncwarp_after_exit.ptx", "_Z19syncwarp_after_exitPi", 32, policy, 3, "out");
            assertEquals(Outcome.DIAGNOSED, outcome(r), policy + "\n" + r.summary());
            assertEquals(List.of("warp-sync-exited-member"), codes(r), policy);
            String msg = r.interpreter().diagnostics().get(0).message();
            assertTrue(msg.contains("PTX ISA 9.7.13.2") && msg.contains("note: the CUDA Programming Guide") && msg.contains("non-exited"), msg);
        }
    }
}
