package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ValidatedLaunch;
import io.barrierscope.ptx.PtxParser;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The detector's clocks of lanes that diverge for good are counted before a launch runs
 * (docs/reliability.md, "Memory is counted before it is spent").
 */
class RaceMemoryDivergenceTest {
    @TempDir
    Path tmp;

    private static final String HEADER = ".version 9.0\n.target sm_90a\n.address_size 64\n";

    /** Every lane of every warp syncs alone ({@code bar.warp.sync 1 << lane}, one lane per round): each ends with a clock of its own. */
    private static final String DIVERGED = HEADER
            + ".visible .entry k()\n{\n.reg .b32 %r<5>;\n.reg .pred %p;\n"
            + "mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 31;\nshl.b32 %r3, 1, %r2;\nmov.u32 %r4, 0;\n"
            + "L:\nsetp.ne.u32 %p, %r2, %r4;\n@%p bra S;\nbar.warp.sync %r3;\n"
            + "S:\nadd.u32 %r4, %r4, 1;\nsetp.lt.u32 %p, %r4, 32;\n@%p bra L;\nret;\n}\n";

    @Test
    void lanesThatEachSyncAloneHoldClocksTheEstimateCountsAndTheOldFormulaDidNot() throws Exception {
        int ctas = 4;
        int threads = 128;
        Files.writeString(tmp.resolve("k.ptx"), DIVERGED);
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [" + ctas + ", 1, 1], \"block\": [" + threads + ", 1, 1], \"args\": []}");
        ValidatedLaunch v = LaunchValidation.validate(l);
        LaunchedRun run = v.start();
        assertEquals(Outcome.COMPLETED, run.runToEnd(1_000_000));
        long held = RaceMemory.heldClockBytes((RaceDetector) run.machine().race);
        long fixed = (long) ctas * threads * RaceMemory.BYTES_PER_THREAD;
        long counted = RaceMemory.stateBytes(ctas, threads, true);
        assertTrue(held > RaceMemory.stateBytes(ctas, threads, false) - fixed, "the converged formula is exceeded: " + held);
        assertTrue(held <= counted - fixed, held + " held, " + (counted - fixed) + " counted");
        assertEquals(counted, v.memoryEstimate(true, 0).raceClockBytes());
    }

    @Test
    void aKernelOfCtaBarriersAloneIsNotCountedForLanesOfTheirOwn() {
        // Diverged lanes at bar.sync are released by one shared clock, so such kernels keep the smaller count.
        String bar = HEADER + ".visible .entry k()\n{\n.reg .b32 %r1;\n.reg .pred %p;\nmov.u32 %r1, %tid.x;\n"
                + "setp.lt.u32 %p, %r1, 5;\n@%p bra A;\nbar.sync 0;\nret;\nA:\nbar.sync 0;\nret;\n}\n";
        assertFalse(RaceMemory.lanesTakeClocksOfTheirOwn(PtxParser.parse("b.ptx", bar)));
        assertTrue(RaceMemory.lanesTakeClocksOfTheirOwn(PtxParser.parse("d.ptx", DIVERGED)));
        assertTrue(RaceMemory.stateBytes(4, 128, true) > RaceMemory.stateBytes(4, 128, false));
    }
}
