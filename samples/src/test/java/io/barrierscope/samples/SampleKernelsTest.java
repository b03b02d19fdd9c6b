package io.barrierscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.check.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * End-to-end runs of the nvcc-built samples, with outputs checked against values computed here
 * from each kernel's definition (not from the engine and not from the launch files).
 */
class SampleKernelsTest {

    @Test
    void blockReductionWithSyncthreadsSumsEachBlock() {
        LaunchedRun r = SampleRuns.run("block-reduce", "round-robin", 0);
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        List<Long> want = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            long s = 0;
            for (int i = 0; i < 128; i++) s += b * 128L + i;
            want.add(s);
        }
        assertEquals(want, SampleRuns.longs(r, "out"));
    }

    @Test
    void syncthreadsCountAndOrCombineTheWholeBlock() {
        LaunchedRun r = SampleRuns.run("syncthreads-count", "round-robin", 0);
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        long mult3 = 0;
        for (int v = 0; v < 128; v++) if (v % 3 == 0) mult3++;
        List<Long> row = List.of(mult3, 1L, 0L, 1L, 0L);
        List<Long> want = new ArrayList<>();
        for (int w = 0; w < 4; w++) want.addAll(row);
        assertEquals(want, SampleRuns.longs(r, "out"));
    }

    @Test
    void warpShuffleReductionBallotAndSyncwarpGiveExactResults() {
        LaunchedRun r = SampleRuns.run("warp-shuffle", "round-robin", 0);
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        List<Long> sums = new ArrayList<>();
        List<Long> masks = new ArrayList<>();
        List<Long> rotated = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            long s = 0;
            long m = 0;
            for (int l = 0; l < 32; l++) {
                int v = w * 32 + l;
                s += v;
                if (v % 3 == 0) m |= 1L << l;
                rotated.add((long) (w * 32 + (l + 1) % 32));
            }
            sums.add(s);
            masks.add(m);
        }
        assertEquals(sums, SampleRuns.longs(r, "sums"));
        assertEquals(masks, SampleRuns.longs(r, "mult3_mask"));
        assertEquals(rotated, SampleRuns.longs(r, "rotated"));
    }

    @Test
    void namedBarrierProducerConsumerHandsOverEveryTile() {
        LaunchedRun r = SampleRuns.run("named-producer-consumer", "round-robin", 0);
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        List<Long> want = new ArrayList<>();
        for (int it = 0; it < 4; it++) for (int l = 0; l < 32; l++) want.add((it * 32L + 31 - l) * 2 + it);
        assertEquals(want, SampleRuns.longs(r, "out"));
    }

    @Test
    void namedBarrierCountedForMoreThreadsThanReachItDeadlocksWithAnExplanation() {
        LaunchedRun r = SampleRuns.run("named-barrier-too-many", "round-robin", 0);
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        String text = r.deadlockText();
        assertTrue(text.contains("CTA barrier 1"), text);
        assertTrue(text.contains("2 of 4 have arrived"), text);
        assertTrue(text.contains("warp 2: exited") && text.contains("warp 3: exited"), text);
        assertTrue(text.contains("kernel.cu:"), "the CUDA line is named: " + text);
    }

    @Test
    void syncthreadsOnTwoLinesIsBarrierDivergenceNamingBothLines() {
        LaunchedRun r = SampleRuns.run("syncthreads-divergent", "round-robin", 0);
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        Diagnostic d = r.interpreter().diagnostics().get(0);
        assertEquals("barrier-divergence", d.code().code());
        assertEquals(2, d.ptxLocations().size());
        assertTrue(d.ptxLocations().get(0).line() != d.ptxLocations().get(1).line());
        assertEquals(2, d.cudaLocations().size(), "both CUDA lines");
        assertTrue(d.cudaLocations().get(0).line() != d.cudaLocations().get(1).line());
    }

    @Test
    void expectTxTooHighDeadlocksNamingTheMissingBytesAndNoMissingArrival() {
        LaunchedRun r = SampleRuns.run("expect-tx-too-high", "round-robin", 0);
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        String t = r.deadlockText();
        assertTrue(t.contains("mbarrier full") && t.contains("bytes expected but not delivered"), t);
        assertTrue(t.contains("No arrival is missing"), t);
        assertTrue(!t.contains("Cycle"), "warps polling one barrier do not wait for each other: " + t);
    }

    @Test
    void multicastDisagreementLeavesRankOneWaitingForBytesThatNeverCome() {
        LaunchedRun r = SampleRuns.run("multicast-disagreement", "round-robin", 0);
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        assertTrue(r.deadlockText().contains("tx-count 256"), r.deadlockText());
    }

    @Test
    void aPeerExitingBeforeItsSharedMemoryIsReadIsDsmemAfterExit() {
        LaunchedRun r = SampleRuns.run("peer-exits-early", "round-robin", 0);
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        assertEquals("dsmem-after-exit", r.interpreter().diagnostics().get(0).code().code());
    }

    @Test
    void aTmaTileLoadZeroFillsOutsideTheTensor() {
        LaunchedRun r = SampleRuns.run("tma-tile-load", "random", 3);
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        List<Long> out = SampleRuns.longs(r, "out");
        for (int t = 0; t < 128; t++) {
            int x = 16 + t % 16;
            int y = 8 + t / 16;
            assertEquals(x < 20 && y < 10 ? y * 20L + x : 0L, out.get(t), "element " + t);
        }
    }
}
