package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.Recording;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wgmma events of the recording (docs/time-travel.md, trace format 3): each warp's issue,
 * commit and retire of every wgmma.mma_async, and traces of format 2, which have none, still
 * opening.
 */
class TensorCoreTraceTest {
    @TempDir
    Path dir;

    private static TimeTravel recorded(boolean withoutTensorCoreEvents) {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SampleRuns.launch("wgmma-gemm")).start());
        if (withoutTensorCoreEvents) tt.omitTensorCoreEvents();
        tt.runForward(() -> false);
        return tt;
    }

    /** Counts of WGMMA_ISSUE, WGMMA_COMMIT, WGMMA_RETIRE. */
    private static int[] count(Recording r, Program p) {
        int[] n = new int[3];
        EventCursor c = r.cursor(0);
        while (c.next()) {
            if (c.type != EventCursor.Type.SYNC) continue;
            switch (c.kind) {
                case WGMMA_ISSUE -> {
                    n[0]++;
                    assertTrue(p.code[(int) c.a].insn.mnemonic().startsWith("wgmma.mma_async"), "a names the instruction");
                    assertEquals(0, c.slot & 31, "the warp's lane 0");
                }
                case WGMMA_COMMIT -> {
                    n[1]++;
                    assertEquals(4, c.a, "the sample commits its four wgmma as one group");
                }
                case WGMMA_RETIRE -> n[2]++;
                default -> { }
            }
        }
        return n;
    }

    @Test
    void eachWarpRecordsTheIssueCommitAndRetireOfEveryWgmma() {
        TimeTravel tt = recorded(false);
        // four warps, each issuing four wgmma.mma_async, committing one group and waiting for it
        assertEquals(16, count(tt.recording(), tt.interpreter().machine().program)[0]);
        assertEquals(4, count(tt.recording(), tt.interpreter().machine().program)[1]);
        assertEquals(16, count(tt.recording(), tt.interpreter().machine().program)[2]);
    }

    @Test
    void aTraceKeepsTheWgmmaEventsThroughWritingAndOpening() throws Exception {
        TimeTravel tt = recorded(false);
        Path f = dir.resolve("wgmma.bstrace");
        TraceFile.write(tt, f);
        TimeTravel back = TraceFile.open(f);
        assertTrue(back.recording().sameEvents(tt.recording()));
        assertEquals(16, count(back.recording(), back.interpreter().machine().program)[0]);
    }

    @Test
    void aFormatTwoTraceOfAWgmmaKernelWithoutTheEventsStillOpens() throws Exception {
        TimeTravel old = recorded(true);
        assertEquals(0, count(old.recording(), old.interpreter().machine().program)[0]);
        Path f = dir.resolve("old.bstrace");
        TraceFile.write(old, f);
        // As format 3 the same events are refused: this engine records the wgmma events there.
        BadInputException e = assertThrows(BadInputException.class, () -> TraceFile.open(f));
        assertTrue(e.getMessage().contains("events differ"), e.getMessage());
        // Relabelled as the format-2 file the previous engine wrote, it opens without them.
        ObjectMapper json = new ObjectMapper();
        ObjectNode header = (ObjectNode) TraceFile.read(f).header();
        header.put("format", 2);
        Files.write(f, TraceFileSamplesTest.rebuilt(Files.readAllBytes(f), 2, 1, json.writeValueAsString(header).getBytes(StandardCharsets.UTF_8)));
        TimeTravel back = TraceFile.open(f);
        assertTrue(back.recording().sameEvents(old.recording()));
        assertEquals(0, count(back.recording(), back.interpreter().machine().program)[0]);
    }
}
