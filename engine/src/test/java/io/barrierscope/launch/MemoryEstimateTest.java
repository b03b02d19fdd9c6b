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
        LaunchedRun run = LaunchedRun.open(l);
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
}
