package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
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
    void fa3PingPongAlternatesTheWarpGroupsTurnsAndComputesEveryRow() {
        int[] k = {3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8};
        int[] v = {2, 7, -1, 8, 2, -8, 1, 8, -2, 8, 1, -8};
        List<Long> want = new ArrayList<>();
        for (int r = 0; r < 256; r++) {
            long q = (r * 37) % 19 - 9;
            long max = Long.MIN_VALUE;
            for (int j = 0; j < 12; j++) max = Math.max(max, q * k[j]);
            long o = 0;
            for (int j = 0; j < 12; j++) o += (q * k[j] - max) * v[j];
            want.add(o);
        }
        for (String policy : List.of("round-robin", "random", "adversarial")) {
            LaunchedRun r = SampleRuns.run("fa3-pingpong", policy, 5);
            assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
            assertEquals(want, SampleRuns.longs(r, "out"), policy);
            assertEquals(List.of(1L, 2L, 1L, 2L, 1L, 2L, 1L, 2L), SampleRuns.longs(r, "order"),
                    "the two warp groups take their GEMM turns alternately, WG1 first (" + policy + ")");
        }
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
    void aWarpSplitAcrossTwoCopiesOfOneNamedBarrierIsBarrierDivergenceInThatWarp() {
        LaunchedRun r = SampleRuns.run("named-barrier-two-copies", "random", 3);
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        Diagnostic d = r.interpreter().diagnostics().get(0);
        assertEquals("barrier-divergence", d.code().code());
        assertEquals(2, d.cudaLocations().size(), "both copies are named");
        assertTrue(d.cudaLocations().get(0).line() != d.cudaLocations().get(1).line());
        assertTrue(d.threads().stream().allMatch(s -> s / 32 == 1), "both threads are of warp 1: " + d.threads());
    }

    @Test
    void aSiblingWarpTwoPhasesBehindWaitsForeverOnTheAliasedParity() {
        LaunchedRun r = SampleRuns.run("phase-aliasing", "adversarial", 2);
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        String t = r.deadlockText();
        assertTrue(t.contains("warp 2") && t.contains("mbarrier ready") && t.contains("in phase 2"), t);
        assertTrue(!t.contains("warp 1 (all 32 threads) wait"), "the leader warp finished: " + t);
        // the leader warp's rows are complete and right: tile[c] * 2 - tile[63 - c], tile = in + 1000
        List<Long> out = SampleRuns.longs(r, "out");
        for (int tile = 0; tile < 4; tile++) {
            for (int c = 0; c < 32; c++) {
                long base = tile * 64L;
                assertEquals((base + c + 1000) * 2 - (base + 63 - c + 1000), out.get(tile * 64 + c));
                assertEquals(0L, out.get(tile * 64 + 32 + c), "warp 2 never got past its first wait");
            }
        }
    }

    @Test
    void expectTxBelowTheTmaBoxLeavesTheTxCountNegative() {
        LaunchedRun r = SampleRuns.run("expect-tx-too-low", "round-robin", 0);
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        String t = r.deadlockText();
        assertTrue(t.contains("mbarrier full") && t.contains("tx-count -128") && t.contains("No arrival is missing"), t);
    }

    @Test
    void aClusterBarrierInOnePartitionDeadlocksWithTheOtherPartitionNamed() {
        LaunchedRun r = SampleRuns.run("cluster-barrier-one-partition", "random", 4);
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        String t = r.deadlockText();
        assertTrue(t.contains("barrier.cluster") && t.contains("64 of 128 have"), t);
        assertTrue(t.contains("CTA (1,0,0) warp 0 (all 32 threads): blocked at CTA barrier 1"), t);
        assertTrue(t.contains("Cycle:"), t);
    }

    @Test
    void aStaleParityWaitIsARaceWithTheCopyItDidNotWaitFor() {
        LaunchedRun r = SampleRuns.run("stale-parity-early-return", "random", 7);
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        Diagnostic d = r.interpreter().diagnostics().get(0);
        assertEquals("race", d.code().code());
        assertTrue(d.message().contains("ld.shared") && d.message().contains("cp.async.bulk"), d.message());
        assertTrue(d.message().contains("mbarrier full"), "names the barrier that would order them: " + d.message());
    }

    @Test
    void aStaleParityWaitReadsTheOldTileAndReleasesTheSlotTwice() {
        // With the race detector off, the run goes on: the stale reads and the double release show.
        LaunchedRun r = LaunchValidation.validate(SampleRuns.launch("stale-parity-early-return")).start("random", 7L).raceDetection(false);
        r.runToEnd();
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome());
        assertEquals("mbarrier-phase-unobserved", r.interpreter().diagnostics().get(0).code().code());
        // out[k * 32 + l] = tile[(l + k) % 32] * 10 + k, with tile t = in[t * 32 ..] = t * 32 ..;
        // k = 1 and 3 return at once and read the tile already there: 0, 0, 1, 1 instead of 0, 1, 2, 3
        int[] tileRead = {0, 0, 1, 1};
        List<Long> out = SampleRuns.longs(r, "out");
        for (int kk = 0; kk < 4; kk++) {
            for (int l = 0; l < 32; l++) {
                assertEquals((tileRead[kk] * 32L + (l + kk) % 32) * 10 + kk, out.get(kk * 32 + l), "k " + kk + " lane " + l);
            }
        }
    }

    @Test
    void remoteArriveAndLocalArriveBeforeTheInitAreBothMbarrierUninitialized() {
        LaunchedRun remote = SampleRuns.run("remote-arrive-before-init", "adversarial", 1);
        assertEquals(Outcome.DIAGNOSED, remote.interpreter().outcome());
        Diagnostic d = remote.interpreter().diagnostics().get(0);
        assertEquals("mbarrier-uninitialized", d.code().code());
        assertTrue(d.threads().get(0) >= 32, "reported for a thread of CTA 1: " + d.threads());
        LaunchedRun local = SampleRuns.run("mbarrier-init-without-sync", "round-robin", 0);
        assertEquals(Outcome.DIAGNOSED, local.interpreter().outcome());
        assertEquals("mbarrier-uninitialized", local.interpreter().diagnostics().get(0).code().code());
        assertTrue(local.interpreter().diagnostics().get(0).threads().get(0) != 0, "thread 0 is the one still asleep");
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
