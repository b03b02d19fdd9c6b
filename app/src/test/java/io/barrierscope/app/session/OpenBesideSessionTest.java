package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A file loads beside the session shown: until it is ready the current session still steps, and a
 * cancelled (or superseded) load changes nothing when it finishes.
 */
class OpenBesideSessionTest {
    /** Loads wait here until the test lets them run. */
    private final ArrayDeque<Runnable> loads = new ArrayDeque<>();
    private final List<Path> opened = new ArrayList<>();
    private final List<Snapshot> snapshots = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final DebugSession session = new DebugSession(Runnable::run, loads::add, Runnable::run, new DebugSession.Listener() {
        @Override public void opened(OpenedFile file) { opened.add(file.file()); }
        @Override public void updated(Snapshot s) { snapshots.add(s); }
        @Override public void failed(String message) { failures.add(message); }
        @Override public void openProgress(Path path, String phase, long done, long total) { progress.add(phase + " " + done + "/" + total); }
    });
    private final List<String> progress = new ArrayList<>();

    private void finishLoads() {
        while (!loads.isEmpty()) loads.poll().run();
    }

    private long steps() { return snapshots.get(snapshots.size() - 1).steps(); }

    @Test
    void theCurrentSessionStepsWhileAFileLoadsAndTheNewOneReplacesItWhenReady() {
        Path a = TestFiles.sample("block-reduce");
        session.open(a);
        finishLoads();
        assertEquals(1, opened.size());
        session.open(TestFiles.sample("mbarrier-init-count-too-high"));
        assertEquals(1, loads.size(), "the load waits on the loader");
        session.step();
        session.step();
        assertEquals(2, steps(), "the session shown still steps");
        assertEquals(1, opened.size());
        finishLoads();
        assertEquals(2, opened.size());
        assertEquals(0, steps(), "the new session starts at step 0");
        assertTrue(failures.isEmpty(), failures.toString());
    }

    @Test
    void aCancelledLoadLeavesTheSessionAsItWas() {
        session.open(TestFiles.sample("block-reduce"));
        finishLoads();
        session.step();
        session.open(TestFiles.sample("mbarrier-init-count-too-high"));
        session.cancelOpen();
        finishLoads();
        assertEquals(1, opened.size(), "nothing installed");
        session.step();
        assertEquals(2, steps(), "the same session, one step further");
    }

    @Test
    void onlyTheLastOfTwoOpensIsInstalled() {
        session.open(TestFiles.sample("block-reduce"));
        session.open(TestFiles.sample("mbarrier-init-count-too-high"));
        finishLoads();
        assertEquals(1, opened.size());
        assertTrue(opened.get(0).toString().contains("mbarrier-init-count-too-high"), opened.toString());
    }

    /** A trace of a kernel that never ends, recorded for {@code steps} warp steps. */
    private static Path spinTrace(Path dir, long steps) throws Exception {
        Path spin = dir.resolve("spin.ptx");
        java.nio.file.Files.writeString(spin, ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry spin()\n{\n"
                + ".reg .b32 %r<3>;\nmov.u32 %r1, 0;\n$L1:\nadd.u32 %r1, %r1, 1;\nbra $L1;\n}\n");
        io.barrierscope.trace.TimeTravel tt = new io.barrierscope.trace.TimeTravel(io.barrierscope.launch.LaunchValidation.validate(spin).start(), steps);
        tt.runForward(() -> false);
        Path t = dir.resolve("spin.bstrace");
        io.barrierscope.trace.TraceFile.write(tt, t);
        return t;
    }

    @Test
    void cancelStopsATracesReplayInTheEngineAndNothingIsReported(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path t = spinTrace(dir, 50_000);
        // The loader stops at its first check once cancelled: the replay does not run to its end.
        List<Long> replayed = new ArrayList<>();
        io.barrierscope.ptx.Cancellation c = new io.barrierscope.ptx.Cancellation((phase, done, total) -> {
            if (phase.equals("replay")) replayed.add(done);
        });
        c.cancel();
        org.junit.jupiter.api.Assertions.assertThrows(io.barrierscope.ptx.Cancellation.Cancelled.class, () -> Loader.load(t, null, c));
        assertEquals(List.of(), replayed, "stopped before replaying");
        // Through the session: Cancel while the trace loads installs nothing and reports no failure.
        session.open(TestFiles.sample("block-reduce"));
        finishLoads();
        session.open(t);
        session.cancelOpen();
        finishLoads();
        assertEquals(1, opened.size(), "nothing installed");
        assertTrue(failures.isEmpty(), failures.toString());
        // Not cancelled, the trace opens, telling how far its replay has come.
        session.open(t);
        finishLoads();
        assertEquals(2, opened.size());
        assertTrue(progress.contains("replay 4096/50000") && progress.contains("replay 49152/50000"), progress.toString());
    }
}
