package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxParser;
import io.barrierscope.testing.PtxRun;
import org.junit.jupiter.api.Test;

/**
 * What a launch counts for its race clocks is read from its PTX (docs/reliability.md, "Clocks joined
 * from other CTAs"): the id kinds its async operations raise, whether its clocks stay within a
 * cluster, and for a kernel with async operations a reservation its run keeps (past it detection
 * stops with a note, as at the detector's cap), since nothing bounds the copies in flight.
 */
class RaceClockReservationTest {
    private static Module kernel(String body) {
        return PtxParser.parse("k.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                + ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n.shared .align 16 .b8 s[64];\n" + body + "\nret;\n}\n");
    }

    @Test
    void aClockCarriesTheIdKindsOfTheKernelsAsyncOperationsOnly() {
        assertEquals(1, RaceMemory.idKinds(kernel("bar.sync 0;")));
        assertEquals(2, RaceMemory.idKinds(kernel("cp.async.ca.shared.global [s], [%rd1], 4;\ncp.async.wait_all;")), "cp.async's agents");
        assertEquals(3, RaceMemory.idKinds(kernel("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [s], 16;")),
                "a bulk copy to global memory: its reads' and its writes' agents");
        assertEquals(2, RaceMemory.idKinds(kernel("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [%rd1], 16, [s+32];")),
                "a copy completing on an mbarrier");
    }

    @Test
    void onlyAKernelWhoseEveryAcquireIsScopedToItsClusterKeepsItsClocksWithinIt() {
        assertTrue(RaceMemory.synchronizesWithinClusters(kernel("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [s], 0;\n"
                + "fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"
                + "fence.acq_rel.cluster;\nld.acquire.cta.shared.u32 %r1, [s];\nbar.sync 0;")));
        for (String wider : new String[] {"ld.acquire.gpu.global.u32 %r1, [%rd1];", "fence.sc.sys;", "membar.gl;", "fence.acq_rel;",
                "atom.shared.add.u32 %r1, [s], 1;", "ld.relaxed.global.u32 %r1, [%rd1];", "ld.volatile.global.u32 %r1, [%rd1];"}) {
            assertFalse(RaceMemory.synchronizesWithinClusters(kernel(wider)), wider + " can take a clock from any CTA");
        }
    }

    /** Two CTAs: each thread copies a word with cp.async and waits for it, then acquires its neighbour's .gpu release. */
    private static PtxRun asyncKernel() {
        String body = ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nld.param.u64 %rd1, [buf];\ncvta.to.global.u64 %rd2, %rd1;\n"
                + "shl.b32 %r3, %r1, 2;\nmov.u32 %r4, sm;\nadd.s32 %r5, %r4, %r3;\ncvt.u64.u32 %rd3, %r3;\nadd.s64 %rd4, %rd2, %rd3;\n"
                + "cp.async.ca.shared.global [%r5], [%rd4], 4;\ncp.async.wait_all;\nbar.sync 0;\n"
                + "st.release.gpu.global.u32 [%rd4+256], %r2;\nld.acquire.gpu.global.u32 %r6, [%rd4+256];\nret;";
        return PtxRun.kernel(body).header(".shared .align 4 .b8 sm[256];").buffer("buf", 128).grid(2).threads(64);
    }

    @Test
    void aKernelWithAsyncCopiesCountsAReservationItsRunKeepsAndStopsPast() throws Exception {
        LaunchedRun run = asyncKernel().launch();
        long counted = run.memoryEstimate(0).joinedClockBytes();
        assertTrue(counted > 0 && counted < RaceDetector.JOINED_CLOCK_CAP / 16, "a reservation for 2 CTAs of 64, not the cap: " + counted);
        RaceDetector d = (RaceDetector) run.machine().race;
        assertEquals(counted, RaceMemory.runClockCap(d), "the run keeps what its launch counts");
        assertEquals(Outcome.COMPLETED, run.runToEnd(1_000_000), run.summary());
        assertEquals(-1, run.raceDetectionStoppedAt(), "its clocks stay within the reservation: " + d.clockBudget.liveBytes());
        // A kernel without async operations keeps the detector's cap (what it counts is a bound).
        LaunchedRun plain = PtxRun.kernel("bar.sync 0;\nret;").grid(2).threads(64).launch();
        assertEquals(RaceDetector.JOINED_CLOCK_CAP, RaceMemory.runClockCap((RaceDetector) plain.machine().race));
    }

    /**
     * Two CTAs: each thread puts {@code copies} cp.async in flight (latency 10^5 cycles), acquiring the other CTA's
     * .gpu release between two of them, so each copy's view keeps a clock of its own.
     */
    private static PtxRun copiesAcrossAcquires(int copies) {
        String body = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<12>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
                + "ld.param.u64 %rd1, [buf];\ncvta.to.global.u64 %rd2, %rd1;\nshl.b32 %r3, %r1, 2;\ncvt.u64.u32 %rd3, %r3;\n"
                + "add.s64 %rd4, %rd2, %rd3;\nmul.wide.u32 %rd5, %r2, 256;\nadd.s64 %rd6, %rd4, %rd5;\nadd.s64 %rd6, %rd6, 512;\n"
                + "xor.b32 %r7, %r2, 1;\nmul.wide.u32 %rd7, %r7, 256;\nadd.s64 %rd8, %rd4, %rd7;\nadd.s64 %rd8, %rd8, 512;\n"
                + "mov.u32 %r4, sm;\nadd.u32 %r5, %r4, %r3;\nmov.u32 %r8, 0;\n"
                + "L:\ncp.async.ca.shared.global [%r5], [%rd4], 4;\nadd.u32 %r5, %r5, 256;\n"
                + "st.release.gpu.global.u32 [%rd6], %r8;\nld.acquire.gpu.global.u32 %r6, [%rd8];\n"
                + "add.u32 %r8, %r8, 1;\nsetp.lt.u32 %p1, %r8, " + copies + ";\n@%p1 bra L;\ncp.async.wait_all;\nret;";
        return PtxRun.kernel(body).header(".shared .align 4 .b8 sm[8192];").buffer("buf", 256).grid(2).threads(64)
                .latency(100_000, 100_000);
    }

    @Test
    void copiesInFlightKeepingMoreClocksThanReservedStopDetectionAtAStepTheNoteGivesWithTheExactCountAndWhatTheCopiesKept() {
        LaunchedRun run = copiesAcrossAcquires(30).launch();
        assertEquals(Outcome.COMPLETED, run.runToEnd(1_000_000), run.summary());
        RaceDetector d = (RaceDetector) run.machine().race;
        long at = run.raceDetectionStoppedAt();
        assertTrue(at > 0, "30 clocks per thread kept in flight where one is reserved: " + run.summary());
        long[] s = d.clocksAtStop();
        assertTrue(s[0] > s[1] && s[1] == d.clockBudget.stopAbove(), s[0] + " past " + s[1]);
        assertTrue(s[3] > 128 && s[2] >= s[3], "copies " + s[2] + ", clocks only their views keep " + s[3]);
        assertTrue(run.raceDetectionNote().contains("took " + s[0] + " bytes at that step") && run.raceDetectionNote().contains(
                "is a reservation, as the kernel has async operations: " + s[2] + " copies were in flight and their views kept " + s[3]
                        + " clocks their issuers no longer hold, where it has room for one per thread slot (128)"), run.raceDetectionNote());
        LaunchedRun again = copiesAcrossAcquires(30).launch();
        again.runToEnd(1_000_000);
        assertEquals(at, again.raceDetectionStoppedAt(), "at the same step every run");
        assertEquals(run.raceDetectionNote(), again.raceDetectionNote());
        // Copies that never outlive their issuer's clock keep none of their own: detection goes on to the end.
        LaunchedRun one = copiesAcrossAcquires(1).launch();
        assertEquals(Outcome.COMPLETED, one.runToEnd(1_000_000), one.summary());
        assertEquals(-1, one.raceDetectionStoppedAt(), one.summary());
    }

    @Test
    void clocksTakenWholeFromALocationAreChargedSoTheCountPassesItsLimitByOneJoinAtMost() {
        // Each ld.acquire took the other CTA's published clock whole, charged to neither the clocks nor (once
        // the location moved on) the location state: the count at the stop was 1,410,848 bytes where its limit
        // (the 914,297 it stops at, plus an eighth of the reservation) is about 1.0 MB. Stepped 20 warp steps at
        // a time, what the clocks hold now stays within the limit plus one clock of every CTA's ids.
        LaunchedRun run = copiesAcrossAcquires(30).launch();
        RaceDetector d = (RaceDetector) run.machine().race;
        long cap = RaceMemory.runClockCap(d);
        long limit = d.clockBudget.stopAbove() + cap / 8;
        long ids = (long) RaceDetector.KINDS * 2;
        long oneClock = 32 + 8 * ids + ids * (16 + 4 * 64);
        while (run.interpreter().outcome() == Outcome.RUNNING && run.raceDetectionStoppedAt() < 0) {
            run.interpreter().advance(run.machine().steps + 20);
            long live = d.clockBudget.liveBytes();
            assertTrue(live <= limit + oneClock, live + " bytes of clocks at step " + run.machine().steps + ", limit " + limit);
        }
        assertTrue(run.raceDetectionStoppedAt() > 0, run.summary());
        long[] s = d.clocksAtStop();
        assertTrue(s[0] > s[1] && s[0] <= limit + oneClock, s[0] + " counted at the stop, limit " + limit + " + one clock " + oneClock);
    }
}
