package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.MemoryEstimate;
import io.barrierscope.launch.ReportWriter;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxParser;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector clocks a thread joins from other CTAs are bounded (docs/reliability.md, "Clocks joined
 * from other CTAs past their cap stop race detection, with a note"): past what the launch counts
 * plus {@link RaceDetector#JOINED_CLOCK_CAP} detection stops at a step the run reports, the same
 * every time, and a launch whose threads can acquire other CTAs' clocks counts the cap in advance.
 * The kernel (launch/joined_clocks.cu) has every thread acquire two neighbours' .gpu releases in
 * every CTA without waiting for them: a chunk of its own per CTA whose flags were published. At 8
 * CTAs of 64 threads its clocks reach about 1.3 MB in about 2,000 warp steps (the launch counts
 * 0.4 MB), so a cap lowered to a few hundred KiB (the budget's {@code cap}, a test knob) is passed
 * in well under a second, and the real cap is not.
 */
class RaceJoinedClockCapTest {
    @TempDir
    Path tmp;

    private Path launch(int ctas, int threads) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/launch/joined_clocks.ptx")) {
            Files.write(tmp.resolve("k.ptx"), in.readAllBytes());
        }
        Path l = tmp.resolve("launch.json");
        int n = ctas * threads;
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [" + ctas + ", 1, 1], \"block\": [" + threads + ", 1, 1], \"args\": ["
                + "{\"buffer\": \"flags\", \"type\": \"u32\", \"count\": " + n + "}, {\"buffer\": \"sums\", \"type\": \"u32\", \"count\": " + n + "}]}");
        return l;
    }

    /** Runs 8 CTAs of 64 threads with the clocks' cap set to {@code cap} bytes. */
    private LaunchedRun run(long cap) throws Exception {
        LaunchedRun run = LaunchValidation.validate(launch(8, 64)).start();
        ((RaceDetector) run.machine().race).clockBudget.cap = cap;
        assertEquals(Outcome.COMPLETED, run.runToEnd(5_000_000), run.summary());
        return run;
    }

    @Test
    void clocksJoinedFromOtherCtasPastTheCapStopRaceDetectionAtTheSameStepEveryRun() throws Exception {
        LaunchedRun run = run(256 << 10); // each thread ends with about 2.5 KB of its own: 1.3 MB, past 256 KiB
        long at = run.raceDetectionStoppedAt();
        assertTrue(at > 0 && at < run.machine().steps, "stopped midway, at " + at);
        assertTrue(run.summary().contains("note: race detection stopped at warp step " + at + ": its vector clocks"), run.summary());
        @SuppressWarnings("unchecked")
        Map<String, Object> rd = (Map<String, Object>) ReportWriter.report(run, 0).get("raceDetection");
        assertEquals(at, rd.get("stoppedAtStep"));
        assertEquals(at, run(256 << 10).raceDetectionStoppedAt(), "at the same step every time");
        // the clocks were dropped: what is left is within one CTA's ids
        assertTrue(((RaceDetector) run.machine().race).clockBudget.liveBytes() < 256 << 10);
    }

    @Test
    void theNoteWhenTheClocksStopDetectionNamesTheStepTheCountThatStoppedItAndTheBoundItPassed() throws Exception {
        // RaceClockBudget stops once a count passes what the launch counts plus the run's cap less an eighth (224 of
        // 256 KiB here, 56 of 64 MiB at the detector's cap): the note gives that count and that bound exactly, in bytes.
        LaunchedRun run = run(256 << 10);
        RaceDetector d = (RaceDetector) run.machine().race;
        long[] s = d.clocksAtStop();
        assertEquals(d.clockBudget.stopAbove(), s[1]);
        assertEquals(RaceMemory.stateBytes(8, 64, true) + (256 << 10) - (32 << 10), s[1], "counted per thread, plus the cap less an eighth");
        assertTrue(s[0] > s[1], s[0] + " past " + s[1]);
        assertEquals("race detection stopped at warp step " + run.raceDetectionStoppedAt()
                + ": its vector clocks (clocks joined from other CTAs and mbarrier phases) took " + s[0] + " bytes at that step ("
                + (s[0] >> 10) + " KiB), past the " + s[1] + " it stops at: what the launch counts per thread and the 256 KiB this launch"
                + " keeps beyond, less an eighth (docs/reliability.md); races after that step are not reported", run.raceDetectionNote());
        assertEquals(256 << 10, RaceMemory.runClockCap(d));
    }

    @Test
    void clocksBelowTheCapLeaveDetectionOnAndTheKernelRacesNowhere() throws Exception {
        LaunchedRun run = run(RaceDetector.JOINED_CLOCK_CAP);
        assertEquals(-1, run.raceDetectionStoppedAt());
        assertNull(run.raceDetectionNote());
        assertEquals(java.util.List.of(), run.interpreter().diagnostics());
    }

    @Test
    void theClocksAreRecountedBeforeTheyCanPassWhatTheLaunchCountsPlusTheCap() throws Exception {
        // Stepped 100 warp steps at a time: what the clocks hold stays within the limit (by one join at most).
        long cap = 512 << 10;
        LaunchedRun run = LaunchValidation.validate(launch(8, 64)).start();
        RaceDetector d = (RaceDetector) run.machine().race;
        d.clockBudget.cap = cap;
        long limit = RaceMemory.stateBytes(8, 64, true) + cap;
        long oneJoin = RaceMemory.ownClockBytes(8, 64) * 8;
        long most = 0;
        while (run.interpreter().outcome() == Outcome.RUNNING) {
            run.interpreter().advance(run.machine().steps + 100);
            long live = d.clockBudget.liveBytes();
            assertTrue(live <= limit + oneJoin, live + " bytes of clocks at step " + run.machine().steps);
            most = Math.max(most, live);
        }
        assertEquals(Outcome.COMPLETED, run.interpreter().outcome());
        assertTrue(run.raceDetectionStoppedAt() > 0, "stopped");
        assertTrue(most > limit / 2, "the clocks grew towards the limit before it stopped: " + most);
    }

    @Test
    void aLaunchWhoseThreadsCanAcquireOtherCtasClocksCountsTheCapInAdvanceAndOthersDoNot() throws Exception {
        Module k = PtxParser.parse("k.ptx", Files.readString(launch(1, 32).resolveSibling("k.ptx")));
        assertEquals(RaceDetector.JOINED_CLOCK_CAP, RaceMemory.joinedClockBytes(k, 8, 256, 0), "several CTAs: at most the cap");
        long small = RaceMemory.joinedClockBytes(k, 8, 32, 0);
        assertTrue(small > 0 && small < RaceDetector.JOINED_CLOCK_CAP / 4, "a small launch counts its clocks' bound: " + small);
        assertEquals(0, RaceMemory.joinedClockBytes(k, 1, 32, 0), "one CTA without mbarriers: every clock within its ids");
        String plain = ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\nbar.sync 0;\nret;\n}\n";
        assertEquals(0, RaceMemory.joinedClockBytes(PtxParser.parse("p.ptx", plain), 8, 32, 0));
        MemoryEstimate e = LaunchValidation.validate(launch(8, 256)).start().launch().memoryEstimate(true, 2);
        assertTrue(e.parts().stream().anyMatch(p -> p.name().equals("race joined clocks of 2 machines")
                && p.bytes() == 2 * RaceDetector.JOINED_CLOCK_CAP), e.describe());
    }

    @Test
    void theBoundASmallLaunchCountsHoldsEveryClockItsRunHolds() throws Exception {
        // 4 CTAs of 64 threads acquiring each other's .gpu releases: the clocks alive, sampled every
        // 50 warp steps, never pass what the launch counts in advance (the bound, below the cap).
        LaunchedRun run = LaunchValidation.validate(launch(4, 64)).start();
        RaceDetector d = (RaceDetector) run.machine().race;
        long counted = run.memoryEstimate(0).joinedClockBytes();
        assertTrue(counted < RaceDetector.JOINED_CLOCK_CAP, "the bound, not the cap: " + counted);
        long most = 0;
        while (run.interpreter().outcome() == Outcome.RUNNING) {
            run.interpreter().advance(run.machine().steps + 50);
            most = Math.max(most, d.clockBudget.liveBytes());
        }
        assertEquals(Outcome.COMPLETED, run.interpreter().outcome());
        assertTrue(most > 0 && most <= counted, most + " bytes of clocks alive at most, counted " + counted);
    }

    @Test
    void eachForkCheckpointCountsItsCopyOfThePerLocationMap() {
        MemoryEstimate none = new MemoryEstimate(1 << 20, 0, 0, true, 1, false, 10, 0, 0, 0);
        MemoryEstimate some = new MemoryEstimate(1 << 20, 0, 0, true, 1, false, 10, 0, 0, RaceDetector.LOCATION_STATE_CAP);
        long copy = RaceMemory.locationMapCopyBytes(RaceDetector.LOCATION_STATE_CAP);
        assertEquals(RaceDetector.LOCATION_STATE_CAP / 128 * 40, copy);
        assertEquals(RaceDetector.LOCATION_STATE_CAP + 10 * copy, some.total() - none.total());
    }

    /** One CTA: thread 0 writes shared memory and arrives on an mbarrier, thread 32 waits for the phase and reads it. */
    private static io.barrierscope.testing.PtxRun mbarrierHandoff() {
        String body = ".reg .pred %p<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\nmov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\n"
                + "setp.eq.u32 %p2, %r1, 32;\nmov.u32 %r2, bar;\nld.param.u64 %rd3, [out];\ncvta.to.global.u64 %rd4, %rd3;\n"
                + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra C;\nst.shared.u32 [sm], 7;\n"
                + "mbarrier.arrive.shared::cta.b64 _, [%r2];\nret;\nC:\n@!%p2 bra E;\nmov.u32 %r5, 0;\n"
                + "W:\nmbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], %r5;\n@!%p4 bra W;\n"
                + "ld.shared.u32 %r10, [sm];\nst.global.u32 [%rd4], %r10;\nE:\nret;";
        return io.barrierscope.testing.PtxRun.kernel(body).header(".shared .align 8 .b64 bar;\n.shared .align 4 .b8 sm[4];")
                .buffer("out", 4).threads(64);
    }

    @Test
    void anMbarriersPhaseClocksAreCountedWithTheOthersAndInAdvanceForOneCtaByThePlacesItsInitsName() throws Exception {
        io.barrierscope.testing.PtxRun k = mbarrierHandoff();
        // One CTA: two clocks per mbarrier it can hold (its init names two places, its 8 bytes hold one), each with a chunk per agent kind at most.
        io.barrierscope.ptx.Module m = PtxParser.parse("k.ptx", k.ptx());
        long perClock = 64 + 16L * RaceDetector.KINDS + RaceDetector.KINDS * (16 + 4 * 64);
        assertEquals(2 * perClock, RaceMemory.joinedClockBytes(m, 1, 64, 8));
        // Its init names the place of `bar` (and 0, a register's initial value): two objects, not one per 8 bytes of 228 KiB.
        long perClock1024 = 64 + 16L * RaceDetector.KINDS + RaceDetector.KINDS * (16 + 4 * 1024);
        assertEquals(2 * 2 * perClock1024, RaceMemory.joinedClockBytes(m, 1, 1024, 228 << 10));
        assertEquals(RaceMemory.heldClocksBound(2, 64, 1, false), RaceMemory.joinedClockBytes(m, 2, 2, 64, 8),
                "several CTAs of a cluster: every clock the detector can hold, the mbarrier's four among them");
        assertEquals(RaceMemory.heldClocksBound(2, 1, 64, 1, false), RaceMemory.joinedClockBytes(m, 2, 1, 64, 8),
                "without clusters a kernel that synchronizes within clusters keeps its CTA's chunks only");
        assertEquals(RaceMemory.heldClocksBound(2, 64, 0, false) + 2 * 4 * (48 + 8 * 10 + 16 + 10 + 2 * (16 + 4 * 64)),
                RaceMemory.heldClocksBound(2, 64, 1, false));
        long counted = k.launch().memoryEstimate(0).joinedClockBytes();
        assertTrue(counted >= 2 * perClock && counted <= 4 * perClock, "the launch counts its 12 bytes of shared memory: " + counted);
        LaunchedRun run = k.run();
        assertEquals(Outcome.COMPLETED, run.interpreter().outcome(), run.summary());
        RaceDetector d = (RaceDetector) run.machine().race;
        RaceMbarriers.State st = d.mbarriers.map.firstEntry().getValue();
        assertTrue(st.done != null, "the phase completed with a clock");
        long with = d.clockBudget.liveBytes();
        st.done = null;
        assertTrue(with - d.clockBudget.liveBytes() >= 32, "the completed phase's clock is counted: " + with + " then " + d.clockBudget.liveBytes());
    }

    @Test
    void aCompletedBuilderIsChargedItsClockAndTheChunksItMadeItself() throws Exception {
        RaceDetector d = (RaceDetector) mbarrierHandoff().run().machine().race;
        VectorClock.Builder b = new VectorClock.Builder(d.chunkCount, d.chunkSize);
        b.raise(3, 1); // a chunk of its own
        long before = d.clockBudget.sinceCount;
        VectorClock v = d.clockBudget.complete(b);
        assertEquals(32 + 8L * d.chunkCount + 16 + 4L * d.chunkSize, d.clockBudget.sinceCount - before);
        assertTrue(b.isEmpty(), "cleared for the next phase");
        // A builder that only shares chunks of clocks joined into it is charged its clock alone.
        b.join(v);
        before = d.clockBudget.sinceCount;
        d.clockBudget.complete(b);
        assertEquals(32 + 8L * d.chunkCount, d.clockBudget.sinceCount - before);
        assertNull(d.clockBudget.complete(null));
    }
}
