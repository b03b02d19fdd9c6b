package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ReportWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race detector's read sets are bounded (docs/reliability.md, "Memory is counted before it is
 * spent"): past {@link RaceDetector#READ_SET_ENTRY_CAP} live entries detection stops for the rest
 * of the run, and the run says at which step, in its summary and its report.
 */
class RaceReadSetCapTest {
    @TempDir
    Path tmp;

    /** Every thread reads every word of a 1 KiB buffer, unordered with every other thread: 256 read-set entries per thread. */
    private static final String PTX = ".version 9.0\n.target sm_90a\n.address_size 64\n"
            + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<8>;\n.reg .pred %q;\n"
            + "ld.param.u64 %rd1, [p];\nmov.u32 %r1, 0;\n"
            + "L:\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
            + "ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd3];\nadd.u32 %r1, %r1, 4;\nsetp.lt.u32 %q, %r1, 256;\n@%q bra L;\nret;\n}\n";

    private LaunchedRun run(int ctas) throws Exception {
        return RaceCapLaunch.run(tmp, PTX, ctas, 256);
    }

    @Test
    void readSetsPastTheCapStopRaceDetectionAtAStepTheRunReports() throws Exception {
        LaunchedRun run = run(8); // 8,192 threads x 256 words: twice the cap
        long at = run.raceDetectionStoppedAt();
        assertTrue(at > 0 && at < run.machine().steps, "stopped midway, at " + at);
        assertTrue(run.summary().contains("note: race detection stopped at warp step " + at), run.summary());
        @SuppressWarnings("unchecked")
        Map<String, Object> rd = (Map<String, Object>) ReportWriter.report(run, 0).get("raceDetection");
        assertEquals(at, rd.get("stoppedAtStep"));
        assertEquals(at, run(8).raceDetectionStoppedAt(), "at the same step every time");
    }

    @Test
    void readSetsBelowTheCapLeaveDetectionOnAndTheReportUnchanged() throws Exception {
        LaunchedRun run = run(2); // 2,048 threads x 256 words: half the cap
        assertEquals(-1, run.raceDetectionStoppedAt());
        assertNull(run.raceDetectionNote());
        assertTrue(!ReportWriter.report(run, 0).containsKey("raceDetection"));
    }
}
