package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap a launch needs, counted before it runs: state, race shadow, explore's machines and checkpoints. */
class MemoryEstimateTest {
    @TempDir
    Path tmp;

    private static final long MIB = 1L << 20;

    @Test
    void aSingleRunWithoutRaceDetectionNeedsItsStateTwice() {
        MemoryEstimate m = new MemoryEstimate(100 * MIB, 90 * MIB, 95 * MIB, false, 0);
        assertEquals(0, m.shadowBytes());
        assertEquals(200 * MIB, m.total());
        assertEquals(2, m.parts().size());
    }

    @Test
    void raceDetectionAddsFortyBytesPerWordOfGlobalAndSharedMemory() {
        MemoryEstimate m = new MemoryEstimate(100 * MIB, 90 * MIB, 95 * MIB, true, 0);
        assertEquals(950 * MIB, m.shadowBytes());
        assertEquals(200 * MIB + 950 * MIB, m.total());
        // A partial word is a whole cell.
        assertEquals(80, new MemoryEstimate(10, 5, 5, true, 0).shadowBytes());
    }

    @Test
    void exploreCountsEveryJobsMachineShadowStartCheckpointAndOneForkCheckpoint() {
        MemoryEstimate m = new MemoryEstimate(128 * MIB, 128 * MIB, 128 * MIB, true, 2);
        long shadow = 1280 * MIB;
        assertEquals(2 * 128 * MIB + 2 * shadow + (2 * 128 * MIB + 128 * MIB + shadow), m.total());
        assertEquals(4480 * MIB, m.total());
    }

    @Test
    void aLaunchThatCannotFitIsRefusedWithEveryPartNamed() throws Exception {
        // The case that ran out of memory: a 128 MiB buffer explored on two jobs under -Xmx600m.
        MemoryEstimate m = new MemoryEstimate(128 * MIB, 128 * MIB, 128 * MIB, true, 2);
        assertFalse(m.fits(466 * MIB));
        Files.writeString(tmp.resolve("launch.json"), "{\"ptx\": \"k.ptx\",\n \"args\": []}");
        LaunchSpec spec = new LaunchSpec(tmp.resolve("launch.json"), tmp.resolve("k.ptx"), null, io.barrierscope.exec.Dim3.ONE,
                io.barrierscope.exec.Dim3.ONE, null, java.util.List.of(), 0, null, "round-robin", 0, 1, java.util.List.of(),
                java.util.List.of(), null, Files.readString(tmp.resolve("launch.json")));
        String e = m.refusal(spec, 466 * MIB, 600 * MIB).getMessage();
        assertTrue(e.contains("about 4480 MiB") && e.contains("emulated state of 2 machines 256 MiB")
                && e.contains("race shadow of 2 machines 2560 MiB") && e.contains("explore's checkpoints (2 start, 1 fork) 1664 MiB")
                && e.contains("466 MiB free of 600 MiB") && e.contains("fewer --jobs"), e);
        assertTrue(e.startsWith(tmp.resolve("launch.json") + ":2:10: error:"), e);
        // The same launch, run once without the race detector, fits.
        assertTrue(new MemoryEstimate(128 * MIB, 128 * MIB, 128 * MIB, false, 0).fits(466 * MIB));
    }

    @Test
    void aLaunchedRunsEstimateFollowsItsBuffersSharedMemoryAndRaceDetection() throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\n.shared .align 4 .b8 s[1024];\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [2, 1, 1], \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 262144}]}");
        LaunchedRun run = LaunchValidation.validate(l).start();
        MemoryEstimate on = run.memoryEstimate(0);
        assertTrue(on.race());
        assertEquals(MIB, on.bufferBytes());
        // The buffer and both CTAs' shared memory are shadowed.
        assertEquals(MIB + 2 * 1024, on.shadowableBytes());
        assertEquals((MIB + 2048) / 4 * 40, on.shadowBytes());
        run.raceDetection(false);
        assertEquals(0, run.memoryEstimate(0).shadowBytes());
        assertEquals(2 * run.stateBytes(), run.memoryEstimate(0).total());
    }

    @Test
    void aKernelWithAccessesNarrowerThanAWordCountsByteCellsForEveryShadowedByte() throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n.reg .b16 %h<2>;\nld.param.u64 %rd1, [p];\n"
                + "mov.b16 %h1, 7;\nst.global.u8 [%rd1], %h1;\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u8\", \"count\": 4096}]}");
        MemoryEstimate m = LaunchValidation.validate(l).start().memoryEstimate(0);
        assertTrue(m.splitsWords());
        assertEquals(4096 / 4 * 40 + 4096 * 41, m.shadowBytes());
        // A kernel whose accesses are all whole words (or vectors making one) never splits a word.
        Files.writeString(tmp.resolve("w.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n.reg .b16 %h<5>;\nld.param.u64 %rd1, [p];\n"
                + "st.global.v4.u8 [%rd1], {%h1, %h2, %h3, %h4};\nret;\n}\n");
        Files.writeString(l, "{\"ptx\": \"w.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u8\", \"count\": 4096}]}");
        MemoryEstimate w = LaunchValidation.validate(l).start().memoryEstimate(0);
        assertFalse(w.splitsWords());
        assertEquals(4096 / 4 * 40, w.shadowBytes());
    }

    @Test
    void exploreCountsTheForkCheckpointsOfEveryRunAliveUpToEachRunsCap() {
        // A short run: one checkpoint per run (the default run, one per preemption level below the bound, one run again).
        assertEquals(4, MemoryEstimate.forkCheckpoints(MIB, 1000, 3));
        // One per 256 steps of a small state, 16384 steps of a 1 MiB one; never more than the cap per run.
        assertEquals(4 * 10, MemoryEstimate.forkCheckpoints(16 * 1024, 2560, 3));
        assertEquals(4 * 7, MemoryEstimate.forkCheckpoints(MIB, 100_000, 3));
        assertEquals(4L * MemoryEstimate.EXPLORE_CHECKPOINTS_PER_RUN, MemoryEstimate.forkCheckpoints(16 * 1024, 50_000_000, 3));
        assertEquals(2L * MemoryEstimate.EXPLORE_CHECKPOINTS_PER_RUN, MemoryEstimate.forkCheckpoints(16 * 1024, 50_000_000, 0));
        MemoryEstimate m = new MemoryEstimate(MIB, MIB, MIB, true, 2, false, 40);
        assertEquals(2 * MIB + 2 * 10 * MIB + (2 * MIB + 40 * (MIB + 10 * MIB)), m.total());
        assertTrue(m.describe().contains("explore's checkpoints (2 start, 40 fork) 442 MiB"), m.describe());
    }

    @Test
    void anExploreValidatedForItsStepsAndBoundCountsTheirCheckpoints() throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 16}]}");
        ValidatedLaunch v = LaunchValidation.validate(l, new LaunchValidation.Use(true, 2, 2560, 1));
        assertEquals(MemoryEstimate.forkCheckpoints(v.stateBytes(), 2560, 1), v.memory.forkCheckpoints());
        assertEquals(2, v.memory.exploreJobs());
        // Without steps of its own, explore is counted under the launch's step limit (50,000,000: every run at its cap).
        ValidatedLaunch d = LaunchValidation.validate(l, new LaunchValidation.Use(true, 2));
        assertEquals((LaunchValidation.Use.DEFAULT_DEVIATIONS + 1L) * MemoryEstimate.EXPLORE_CHECKPOINTS_PER_RUN, d.memory.forkCheckpoints());
    }

    @Test
    void aHeapTooSmallForEveryCheckpointHalvesTheCheckpointsPerRunInsteadOfRefusing() {
        // 4 runs alive of 64 checkpoints of a 10 MiB state: 2.5 GiB of fork checkpoints.
        MemoryEstimate m = new MemoryEstimate(10 * MIB, 0, 0, false, 2, false, 4 * 64);
        assertEquals(m, m.fittedTo(m.total(), 4), "what fits keeps every checkpoint");
        MemoryEstimate f = m.fittedTo(600 * MIB, 4);
        assertTrue(f.fits(600 * MIB), f.describe());
        assertEquals(4 * 8, f.forkCheckpoints(), "halved to 8 per run: 2 start + 32 fork checkpoints + 2 states = 360 MiB");
        assertFalse(m.withForkCheckpoints(4 * 16).fits(600 * MIB), "16 per run would not have fit");
        // Never below one per run: what cannot fit even then is refused by require, with the numbers.
        assertEquals(4, m.fittedTo(10 * MIB, 4).forkCheckpoints());
        assertEquals(m, m.with(false, 0).with(false, 2), "a single run is not fitted");
        assertEquals(m.with(false, 0), m.with(false, 0).fittedTo(MIB, 4));
    }

    @Test
    void explorersOfALaunchValidatedForExploreKeepAtMostTheFittedCheckpointsPerRun() throws Exception {
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 16}]}");
        ValidatedLaunch v = LaunchValidation.validate(l, new LaunchValidation.Use(true, 2, 2560, 1));
        assertEquals(10, v.exploreCheckpointsPerRun(), "2560 steps of a small state: one per 256");
        assertEquals(10, v.start().exploreCheckpointsPerRun());
    }

    @Test
    void readSetsAreCountedAtOneEntryPerCellAndReaderNeverAboveTheDetectorsCapAndNamedInARefusal() throws Exception {
        assertEquals(1024L * 64, MemoryEstimate.readSetEntries(4096, false, 64));
        assertEquals(1024L * 64 + 4096L * 64, MemoryEstimate.readSetEntries(4096, true, 64), "byte cells read too");
        long cap = io.barrierscope.check.RaceDetector.READ_SET_ENTRY_CAP;
        assertEquals(cap, MemoryEstimate.readSetEntries(128 * MIB, false, 4 * 65536));
        MemoryEstimate m = new MemoryEstimate(128 * MIB, 128 * MIB, 128 * MIB, true, 0, false, 1, cap);
        long arrays = Math.min((cap + 1) / 2 * 8192, 128 * MIB / 4 * 8);
        assertEquals(cap * io.barrierscope.check.RaceDetector.READ_SET_BYTES_PER_ENTRY + arrays, m.readSetBytes());
        assertTrue(m.describe().contains("race read sets (" + cap + " entries) "), m.describe());
        assertEquals(0, m.with(false, 0).readSetBytes(), "none without the detector");
        // A launch: 2 CTAs of 32 threads (four reader ids each), a 1 MiB buffer and 2 KiB of shared memory: capped.
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\n.shared .align 4 .b8 s[1024];\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [2, 1, 1], \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 64}]}");
        MemoryEstimate small = LaunchValidation.validate(l).start().memoryEstimate(0);
        assertEquals((256 + 2 * 1024) / 4 * 4L * 64, small.readSetEntries(), "one per word cell and reader id");
        String refusal = m.refusal(LaunchValidation.validate(l).spec(), 100 * MIB, 600 * MIB).getMessage();
        assertTrue(refusal.contains("race read sets (" + cap + " entries)"), refusal);
    }

    @Test
    void theRaceDetectorsClocksAreCountedSoALaunchOnlyTheyWouldExhaustIsRefusedWithRaceDetectionAndFitsWithout() throws Exception {
        // 2048 CTAs of 32 threads, no shared memory: the state and the shadow are small, the clocks are not
        // (per CTA a clock with a reference per CTA and agent kind: quadratic in the CTAs).
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [2048, 1, 1], \"block\": [32, 1, 1], \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 16}]}");
        ValidatedLaunch v = LaunchValidation.validate(l, new LaunchValidation.Use(false, 0));
        MemoryEstimate off = v.memoryEstimate(false, 0);
        MemoryEstimate on = v.memoryEstimate(true, 0);
        long clocks = io.barrierscope.check.RaceMemory.stateBytes(2048, 32);
        assertEquals(clocks, on.raceClockBytes());
        assertEquals(0, off.raceClockBytes(), "nothing without the detector");
        assertTrue(clocks > 128 * MIB && clocks > on.shadowBytes() + on.readSetBytes() + off.total(), on.describe());
        assertEquals(off.total() + on.shadowBytes() + on.readSetBytes() + clocks, on.total());
        // A heap with room for everything but the clocks: refused with them named, fits with --no-race.
        long free = off.total() + on.shadowBytes() + on.readSetBytes() + MIB;
        assertTrue(off.fits(free));
        assertFalse(on.fits(free));
        String e = on.refusal(v.spec(), free, 2 * free).getMessage();
        assertTrue(e.contains("race clocks " + (clocks >> 20) + " MiB") && e.contains("--no-race"), e);
        // Linear in the threads of a CTA for a fixed grid, and each CTA's reference array grows with the grid.
        long perThread = io.barrierscope.check.RaceMemory.stateBytes(1, 64) - io.barrierscope.check.RaceMemory.stateBytes(1, 32);
        assertTrue(perThread >= 32 * io.barrierscope.check.RaceMemory.BYTES_PER_THREAD, "" + perThread);
        assertTrue(io.barrierscope.check.RaceMemory.stateBytes(2, 32) > 2 * io.barrierscope.check.RaceMemory.stateBytes(1, 32));
    }

    @Test
    void aKernelThatCallsMallocIsRefusedNamingTheDefaultDeviceHeapAndItsRaceShadow() throws Exception {
        // 64 threads, each mallocs 16 bytes and adds to its block atomically: the 8 MiB default heap
        // is most of the launch, through its race shadow and read sets.
        String ptx = ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".extern .func (.param .b64 func_retval0) malloc\n(\n.param .b64 malloc_param_0\n)\n;\n"
                + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
                + "{\n.param .b64 param0;\nst.param.b64 [param0], 16;\n.param .b64 retval0;\n"
                + "call.uni (retval0), malloc, (param0);\nld.param.b64 %rd1, [retval0];\n}\n"
                + "atom.global.add.u32 %r1, [%rd1], 1;\nret;\n}\n";
        Files.writeString(tmp.resolve("k.ptx"), ptx);
        Path l = tmp.resolve("launch.json");
        String args = "{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 64}";
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"block\": [64, 1, 1], \"args\": [" + args + "]}");
        ValidatedLaunch v = LaunchValidation.validate(l, new LaunchValidation.Use(false, 0));
        MemoryEstimate on = v.memoryEstimate(true, 0);
        long heap = io.barrierscope.exec.DeviceHeap.segmentBytes(io.barrierscope.exec.DeviceHeap.DEFAULT_BYTES);
        assertEquals(heap, on.deviceHeapBytes());
        String e = on.refusal(v.spec(), 100 * MIB, 200 * MIB).getMessage();
        assertTrue(e.contains("8 MiB of them CUDA's default device heap, mapped because the kernel calls malloc or free (its race shadow is "
                + ((heap + 3) / 4 * MemoryEstimate.SHADOW_BYTES_PER_WORD >> 20) + " MiB") && e.contains("a buffer named deviceHeap"), e);
        String off = v.memoryEstimate(false, 0).refusal(v.spec(), MIB, MIB).getMessage();
        assertTrue(off.contains("default device heap") && !off.contains("its race shadow"), "no shadow without the detector: " + off);
        // A launch that brings its heap (a buffer named deviceHeap) is not told of the default one.
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"block\": [64, 1, 1], \"args\": [" + args
                + "], \"buffers\": [{\"buffer\": \"deviceHeap\", \"type\": \"u8\", \"count\": 4112}]}");
        ValidatedLaunch own = LaunchValidation.validate(l, new LaunchValidation.Use(false, 0));
        assertEquals(0, own.memoryEstimate(true, 0).deviceHeapBytes());
        String o = own.memoryEstimate(true, 0).refusal(own.spec(), MIB, MIB).getMessage();
        assertFalse(o.contains("device heap"), o);
    }

    @Test
    void aSmallMultiCtaAcquiringLaunchCountsItsClocksAtMostAndALargeOneTheCap() throws Exception {
        // Every thread acquires at .gpu scope what any CTA released: its clocks may carry every CTA's chunk.
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
                + "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\nld.acquire.gpu.global.u32 %r1, [%rd2];\nret;\n}\n");
        Path l = tmp.resolve("launch.json");
        long cap = io.barrierscope.check.RaceDetector.JOINED_CLOCK_CAP;
        // 4 CTAs of 64 threads: 7 clocks per thread, 1 per warp and 20 per CTA, each with 20 references and 4 full chunks of 64 ints.
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 1}]}");
        long small = LaunchValidation.validate(l, new LaunchValidation.Use(false, 0)).memoryEstimate(true, 0).joinedClockBytes();
        assertEquals((7 * 256 + 8 + 20 * 4) * (48 + 8 * 20 + 16 + 20 + 4 * (16 + 4 * 64)), small);
        assertTrue(small < cap / 16, "far less than the cap: " + small);
        // 8 CTAs of 256 (the launch measured at 17.76 MB of clocks, docs/reliability.md): its bound passes the cap.
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [8, 1, 1], \"block\": [256, 1, 1], \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 1}]}");
        assertEquals(cap, LaunchValidation.validate(l, new LaunchValidation.Use(false, 0)).memoryEstimate(true, 0).joinedClockBytes());
        // An async copy keeps its issuer's clock while in flight, and nothing bounds how many are: a reservation the
        // run keeps (RaceMemory.asyncClockReservation): per thread its base (this kernel has no fence and no relaxed
        // acquire) and one clock for its copies in flight, per warp and CTA as above, each with a chunk per CTA for
        // threads' and cp.async's ids, and an eighth more for the run's margin.
        Files.writeString(tmp.resolve("k.ptx"), ".version 9.0\n.target sm_90a\n.address_size 64\n"
                + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n.shared .align 16 .b8 s[16];\n"
                + "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r2, s;\n"
                + "cp.async.ca.shared.global [%r2], [%rd2], 4;\ncp.async.wait_all;\nld.acquire.gpu.global.u32 %r1, [%rd2];\nret;\n}\n");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [4, 1, 1], \"block\": [64, 1, 1], \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}]}");
        long held = (256 + 8 + 20 * 4 + 256) * (48 + 8 * 20 + 16 + 20 + 2 * 4 * (16 + 4 * 64));
        assertEquals(held + (held + 6) / 7,
                LaunchValidation.validate(l, new LaunchValidation.Use(false, 0)).memoryEstimate(true, 0).joinedClockBytes());
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [8, 1, 1], \"block\": [256, 1, 1], \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": 4}]}");
        assertEquals(cap, LaunchValidation.validate(l, new LaunchValidation.Use(false, 0)).memoryEstimate(true, 0).joinedClockBytes(),
                "never more than the cap");
    }

    @Test
    void exploreCountsItsRaceFirstLogOnceAndASingleRunDoesNot() {
        long log = MemoryEstimate.exploreRaceLogBytes(4 * MIB, 8, 32, 1_000_000);
        MemoryEstimate without = new MemoryEstimate(MIB, MIB, 4 * MIB, false, 2, false, 4);
        MemoryEstimate with = without.withExploreLog(log);
        assertEquals(log, with.total() - without.total(), "once, whatever the jobs");
        assertTrue(with.parts().stream().anyMatch(p -> p.name().equals("explore's race-first log")), with.describe());
        assertEquals(with.with(false, 0).total(), without.with(false, 0).total(), "a single run logs nothing");
        // A long run over many words: the log at its caps (2^16 entries, 2^20 keys) and the analysis' maps, about 270 MiB.
        long capped = MemoryEstimate.exploreRaceLogBytes(1L << 30, 1, 32, 1L << 40);
        assertEquals(capped, MemoryEstimate.exploreRaceLogBytes(1L << 31, 1, 32, 1L << 41));
        assertTrue(capped > 250 * MIB && capped < 300 * MIB, capped + "");
        // A short run over a small kernel: small.
        assertTrue(MemoryEstimate.exploreRaceLogBytes(4096, 1, 4, 100) < MIB);
    }
}
