package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ReportWriter;
import io.barrierscope.ptx.PtxParser;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-location synchronization state (the clocks released to each location a strong access
 * wrote, by CTA and scope) is bounded (docs/reliability.md, "Memory is counted before it is
 * spent"): past {@link RaceDetector#LOCATION_STATE_CAP} detection stops for the rest of the run,
 * the run says at which step, and a launch whose kernel has strong accesses counts the cap in advance.
 */
class RaceLocationStateCapTest {
    @TempDir
    Path tmp;

    /** Every thread releases at .gpu scope to a word of its own: one location, one published clock, per thread. */
    private static final String PTX = ".version 9.0\n.target sm_90a\n.address_size 64\n"
            + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<8>;\n"
            + "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
            + "mad.lo.u32 %r4, %r2, %r3, %r1;\nmul.wide.u32 %rd2, %r4, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
            + "st.release.gpu.global.u32 [%rd3], %r4;\nret;\n}\n";

    private LaunchedRun run(int ctas) throws Exception {
        return RaceCapLaunch.run(tmp, PTX, ctas, ctas * 1024);
    }

    @Test
    void locationStatePastTheCapStopsRaceDetectionAtAStepTheRunReports() throws Exception {
        LaunchedRun run = run(16); // 16,384 locations, each with a clock of its own (about 4.4 KB live): past 64 MiB
        long at = run.raceDetectionStoppedAt();
        assertTrue(at > 0 && at < run.machine().steps, "stopped midway, at " + at);
        assertTrue(run.summary().contains("note: race detection stopped at warp step " + at + ": its per-location synchronization state"),
                run.summary());
        @SuppressWarnings("unchecked")
        Map<String, Object> rd = (Map<String, Object>) ReportWriter.report(run, 0).get("raceDetection");
        assertEquals(at, rd.get("stoppedAtStep"));
        assertEquals(at, run(16).raceDetectionStoppedAt(), "at the same step every time");
    }

    @Test
    void locationStateBelowTheCapLeavesDetectionOn() throws Exception {
        LaunchedRun run = run(1);
        assertEquals(-1, run.raceDetectionStoppedAt());
        assertNull(run.raceDetectionNote());
    }

    @Test
    void aKernelWithAStrongAccessCountsTheCapInAdvanceAndOneWithoutDoesNot() throws Exception {
        assertEquals(RaceDetector.LOCATION_STATE_CAP, RaceMemory.locationStateBytes(PtxParser.parse("k.ptx", PTX)));
        assertEquals(0, RaceMemory.locationStateBytes(PtxParser.parse("k.ptx", PTX.replace("st.release.gpu.global", "st.global"))));
        // in the launch's estimate once per machine, with race detection only, not once per explore checkpoint
        LaunchedRun run = run(1);
        io.barrierscope.launch.MemoryEstimate e = run.launch().memoryEstimate(true, 2);
        assertTrue(e.parts().stream().anyMatch(p -> p.name().equals("race location state of 2 machines")
                && p.bytes() == 2 * RaceDetector.LOCATION_STATE_CAP), e.describe());
        assertTrue(run.launch().memoryEstimate(false, 0).parts().stream().noneMatch(p -> p.name().startsWith("race")),
                run.launch().memoryEstimate(false, 0).describe());
    }

    @Test
    void onlyAStrongWriteCountsTheCapNotAFenceAnMbarrierABulkCopyOrAnAcquireLoad() throws Exception {
        // None of these makes a location (only a strong write does): a kernel of them was refused under
        // explore --jobs 2 at -Xmx256m for 128 MiB of location state it could never hold (tma-tile-load).
        String shared = ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[16];\n";
        String store = "st.release.gpu.global.u32 [%rd3], %r4;\n";
        for (String none : new String[] {"ld.acquire.gpu.global.u32 %r5, [%rd3];\n", "ld.relaxed.gpu.global.u32 %r5, [%rd3];\n",
                "fence.acq_rel.gpu;\n", "fence.mbarrier_init.release.cluster;\n",
                "mbarrier.arrive.release.cta.shared::cta.b64 %rd2, [bar];\n",
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd3], 16, [bar];\n"}) {
            String ptx = PTX.replace(".reg .b64 %rd<4>;", shared + ".reg .b64 %rd<4>;").replace(store, none);
            assertEquals(0, RaceMemory.locationStateBytes(PtxParser.parse("k.ptx", ptx)), none);
        }
        for (String strong : new String[] {"st.relaxed.gpu.global.u32 [%rd3], %r4;\n", "st.volatile.global.u32 [%rd3], %r4;\n",
                "atom.global.add.u32 %r5, [%rd3], 1;\n", "red.global.add.u32 [%rd3], 1;\n"}) {
            assertEquals(RaceDetector.LOCATION_STATE_CAP, RaceMemory.locationStateBytes(PtxParser.parse("k.ptx", PTX.replace(store, strong))), strong);
        }
    }
}
