package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.ThreadStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the engine thread copies out for the new panes: sources, threads, inspection, deadlock. */
class CaptureTest {
    @Test
    void openingASampleReadsItsCudaSourceLessonAndLineMap() {
        OpenedFile f = SessionRecorder.open("block-reduce").opened;
        CudaFile cu = f.cudaFiles().get(0);
        assertEquals("kernel.cu", cu.name());
        assertTrue(cu.available());
        assertTrue(cu.lines().stream().anyMatch(l -> l.contains("__syncthreads")));
        assertTrue(f.lesson().startsWith("# block-reduce"));
        // Every instruction line with a .loc maps to kernel.cu, and back.
        int barLine = lineOf(f.ptxLines(), "bar.sync");
        var loc = f.sourceMap().cudaOf(barLine);
        assertEquals("kernel.cu", loc.file());
        assertTrue(cu.lines().get(loc.line() - 1).contains("__syncthreads"), cu.lines().get(loc.line() - 1));
        assertTrue(f.sourceMap().ptxLinesOf("kernel.cu", loc.line()).contains(barLine));
        // A .loc line maps to the location it names.
        int locLine = lineOf(f.ptxLines(), ".loc");
        assertNotNull(f.sourceMap().cudaOf(locLine));
    }

    @Test
    void instructionsOfInlinedHeaderFunctionsKnowTheirCallSite() {
        OpenedFile f = SessionRecorder.open("tma-pipeline").opened;
        int inHeaders = 0;
        for (int line = 1; line <= f.ptxLines().size(); line++) {
            var loc = f.sourceMap().cudaOf(line);
            if (loc == null || !loc.file().startsWith("cuda-include/") || f.ptxLines().get(line - 1).contains(".loc")) continue;
            inHeaders++;
            assertEquals("kernel.cu", f.sourceMap().callSiteOf(line).file(), "PTX line " + line);
        }
        assertTrue(inHeaders > 0);
        assertFalse(f.cudaFiles().stream().filter(c -> c.name().startsWith("cuda-include/")).anyMatch(CudaFile::available));
    }

    @Test
    void aPtxWithoutItsCudaFileSaysWhereItLooked(@TempDir Path dir) throws Exception {
        Path src = io.barrierscope.app.TestFiles.sample("block-reduce").getParent();
        Files.copy(src.resolve("kernel.ptx"), dir.resolve("kernel.ptx"));
        Files.copy(src.resolve("launch.json"), dir.resolve("launch.json"));
        SessionRecorder r = new SessionRecorder();
        r.session.open(dir.resolve("launch.json"));
        CudaFile cu = r.opened.cudaFiles().get(0);
        assertFalse(cu.available());
        assertEquals("not found", cu.problem());
        assertEquals(dir.resolve("kernel.cu"), cu.path());
        assertNull(r.opened.lesson());
    }

    @Test
    void aTraceOpenedAwayFromItsSampleShowsTheCudaSourceItCarries(@TempDir Path dir) throws Exception {
        io.barrierscope.trace.TimeTravel tt = new io.barrierscope.trace.TimeTravel(
                io.barrierscope.launch.LaunchValidation.validate(io.barrierscope.app.TestFiles.sample("block-reduce")).start());
        tt.runForward(() -> false);
        Path trace = dir.resolve("away.bstrace");
        io.barrierscope.trace.TraceFile.write(tt, trace);
        SessionRecorder r = new SessionRecorder();
        r.session.open(trace);
        CudaFile cu = r.opened.cudaFiles().get(0);
        assertEquals("kernel.cu", cu.name());
        assertTrue(cu.available(), "carried by the trace: " + cu.problem());
        assertTrue(cu.lines().stream().anyMatch(l -> l.contains("__syncthreads")));
    }

    @Test
    void threadsAreGroupedPerWarpAndSayWhatTheyWaitOn() {
        SessionRecorder r = SessionRecorder.open("mbarrier-init-count-too-high");
        Snapshot end = r.runToEnd();
        assertEquals(Outcome.DEADLOCK, end.outcome());
        ThreadsState t = end.threads();
        assertEquals(1, t.ctas().size());
        assertEquals(4, t.warps().size());
        for (ThreadsState.Warp w : t.warps()) {
            assertEquals(1, w.groups().size(), "all lanes of a warp wait together");
            ThreadsState.LaneGroup g = w.groups().get(0);
            assertEquals(-1, g.lanes());
            assertEquals(ThreadStatus.PARKED, g.status());
            assertTrue(g.waitsOn().startsWith("mbarrier bar (shared 0x0) · phase 0"), g.waitsOn());
            assertEquals("kernel.cu", g.loc().file());
        }
        assertNotNull(end.deadlock());
        assertEquals(4, end.deadlock().waits().size());
        assertEquals(end.focusLine(), t.warps().get(0).groups().get(0).ptxLine());
        assertEquals("kernel.cu", end.focusLoc().file());
    }

    @Test
    void inspectionFollowsTheFocusedWarpUntilAThreadIsChosen() {
        SessionRecorder r = SessionRecorder.open("mbarrier-init-count-too-high");
        Snapshot end = r.runToEnd();
        Inspection i = end.inspection();
        assertEquals(end.focusWarp() << 5, i.slot());
        assertEquals("neighbour_sum", i.function());
        assertTrue(i.registers().stream().anyMatch(v -> v.name().equals("%r1")));
        // The one mbarrier of the CTA, decoded.
        Inspection.MbarrierWord bar = i.mbarrierAt(0);
        assertTrue(bar.valid());
        assertEquals(1, bar.pending());
        assertEquals(129, bar.expected());
        assertEquals("bar", i.symbolAt(0).name());

        r.session.inspect(37);
        assertEquals(1, r.inspections.size());
        Inspection t37 = r.inspections.get(0);
        assertEquals(37, t37.slot());
        assertEquals("CTA (0,0,0) thread (37,0,0)", t37.threadName());
        // %r1 holds tid.x in this kernel: the thread's own index.
        long r1 = t37.registers().stream().filter(v -> v.name().equals("%r1")).findFirst().orElseThrow().bits();
        assertEquals(37, r1);
        r.session.reset();
        assertEquals(37, r.last().inspection().slot(), "a reset keeps the chosen thread");
        r.session.open(io.barrierscope.app.TestFiles.sample("block-reduce"));
        assertEquals(0, r.last().inspection().slot(), "a new file follows the focus again");
    }

    private static int lineOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(text)) return i + 1;
        throw new AssertionError("no line with " + text);
    }

    @Test
    void aThreadInWaitGroupSaysItWaitsForTheGroupsOlderThanTheNewestN(@TempDir Path dir) throws Exception {
        // Two groups in flight, wait_group 1: it waits for the older one only (PTX ISA 9.7.9.25.3).
        Path ptx = dir.resolve("groups.ptx");
        Files.writeString(ptx, ".version 9.0\n.target sm_90a\n.address_size 64\n.global .align 16 .b8 g[64];\n"
                + ".visible .entry k()\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.shared .align 16 .b8 sm[64];\n"
                + "mov.u64 %rd1, g;\nmov.u32 %r1, sm;\ncp.async.ca.shared.global [%r1], [%rd1], 4;\ncp.async.commit_group;\n"
                + "cp.async.ca.shared.global [%r1+16], [%rd1+16], 4;\ncp.async.commit_group;\ncp.async.wait_group 1;\n"
                + "cp.async.wait_all;\nret;\n}\n");
        SessionRecorder r = new SessionRecorder();
        r.session.open(ptx, LaunchSettings.defaults());
        ThreadsState.LaneGroup g = null;
        for (int i = 0; i < 50 && g == null; i++) {
            g = r.step(1).threads().warps().get(0).groups().stream().filter(x -> x.status() == ThreadStatus.ASYNC_WAIT).findFirst().orElse(null);
        }
        assertNotNull(g, "the thread never waited at wait_group 1");
        assertEquals("cp.async group · until every group older than the newest 1 has completed (1 of them still in flight)", g.waitsOn());
    }
}
