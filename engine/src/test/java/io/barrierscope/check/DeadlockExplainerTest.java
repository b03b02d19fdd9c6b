package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The wait-for explanation of semantics.md section 9. */
class DeadlockExplainerTest {
    private static final String REGS = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n";

    @Test
    void twoWarpsEachWaitingForTheOtherAtDifferentBarriersFormACycle() {
        // Warp 0 waits on barrier 1 (needs warp 1); warp 1 waits on barrier 2 (needs warp 0).
        String body = REGS + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbar.sync 2, 64;\nbar.arrive 1, 64;\n"
                + "bra.uni DONE;\nA:\nbar.sync 1, 64;\nbar.arrive 2, 64;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(64).run();
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        Deadlock d = r.deadlock();
        assertEquals(2, d.waits().size());
        assertEquals(3, d.cycle().size(), "warp -> warp -> back: " + d.cycle());
        assertEquals(d.cycle().get(0), d.cycle().get(2));
        assertTrue(d.text().contains("Cycle:"), d.text());
    }

    @Test
    void aWarpSplitAtTwoBarrierIdsIsDivergenceNotASilentHang() {
        String body = REGS + "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\nbarrier.sync 1;\nbra.uni DONE;\n"
                + "A:\nbarrier.sync 2;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        assertEquals(List.of("barrier-divergence"), PtxRun.codes(r));
    }

    @Test
    void aWarpSyncWaitingForLanesElsewhereExplainsWhereTheyAre() {
        // Lanes 0-15 wait at bar.warp.sync -1 forever: lanes 16-31 wait at CTA barrier 1 with a count no one completes.
        String body = REGS + "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\nbarrier.sync 1, 64;\nbra.uni DONE;\n"
                + "A:\nbar.warp.sync -1;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome(), r.summary());
        String t = r.deadlockText();
        assertTrue(t.contains("membermask 0xffffffff"), t);
        assertTrue(t.contains("lanes 16-31"), t);
        assertTrue(t.contains("blocked at CTA barrier 1"), t);
    }
}
