package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.exec.Outcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DebugSessionTest {
    /** Records what the session reports, and on which thread. */
    private static final class Recorder implements DebugSession.Listener {
        final List<Snapshot> snapshots = new ArrayList<>();
        final List<String> threads = new ArrayList<>();
        final List<String> failures = new ArrayList<>();
        Runnable onProgress = () -> {};

        @Override public void opened(OpenedFile file) { threads.add(Thread.currentThread().getName()); }

        @Override
        public synchronized void updated(Snapshot s) {
            snapshots.add(s);
            threads.add(Thread.currentThread().getName());
            if (s.cause() == Snapshot.Cause.RUN_PROGRESS) onProgress.run();
        }

        @Override public void failed(String message) { failures.add(message); }

        Snapshot last() { return snapshots.get(snapshots.size() - 1); }
    }

    @Test
    void engineWorkHappensOnTheNamedWorkerAndResultsGoThroughTheUiExecutor() throws Exception {
        Recorder r = new Recorder();
        List<String> posted = new ArrayList<>();
        DebugSession s = DebugSession.withWorkerThread(task -> {
            posted.add("ui");
            task.run();
        }, r);
        try {
            s.open(TestFiles.sample("block-reduce"));
            // The file loads beside the worker; commands given meanwhile act on the session shown, so wait for it.
            assertTrue(s.awaitIdle(60, TimeUnit.SECONDS));
            s.run();
            assertTrue(s.awaitIdle(60, TimeUnit.SECONDS));
        } finally {
            s.close();
        }
        assertTrue(r.threads.stream().allMatch("barrierscope-engine"::equals), r.threads.toString());
        // Every opened and updated call went through the UI executor (breakpoint lists too).
        assertTrue(posted.size() >= r.threads.size());
        assertEquals(Outcome.COMPLETED, r.last().outcome());
        assertNotNull(r.last().report());
        assertEquals(r.last().steps(), r.last().travel().frontier());
        assertTrue(r.last().travel().complete());
    }

    @Test
    void pauseStopsALongRunWithProgressOnTheWayAndContinueGoesOn(@TempDir Path tmp) throws Exception {
        Recorder r = new Recorder();
        DebugSession s = new DebugSession(Runnable::run, Runnable::run, r);
        s.refreshNanos = 0; // a progress snapshot at every check
        s.open(TestFiles.spinPtx(tmp, 40_000));
        r.onProgress = s::pause;
        s.run();
        Snapshot paused = r.last();
        assertEquals(Snapshot.Cause.RUN_END, paused.cause());
        assertEquals(Outcome.RUNNING, paused.outcome());
        assertTrue(paused.steps() > 0 && paused.steps() < 100_000, "paused at " + paused.steps());
        assertTrue(paused.travel().stop().startsWith("Paused at step " + paused.steps()), paused.travel().stop());
        assertNull(paused.report());
        r.onProgress = () -> {};
        s.run();
        assertEquals(Outcome.COMPLETED, r.last().outcome());
        assertTrue(r.last().steps() > 100_000);
    }

    @Test
    void stepFollowsTheWarpThatMoved() {
        Recorder r = new Recorder();
        DebugSession s = new DebugSession(Runnable::run, Runnable::run, r);
        s.open(TestFiles.sample("block-reduce"));
        Snapshot start = r.last();
        assertEquals(0, start.steps());
        assertTrue(start.focusLine() > 0);
        assertEquals("", start.lastAction());
        s.step();
        Snapshot one = r.last();
        assertEquals(1, one.steps());
        assertTrue(one.focusLine() > start.focusLine());
        assertTrue(one.lastAction().contains("executed line " + start.focusLine()), one.lastAction());
        // Every live warp stands somewhere: 4 CTAs x 4 warps.
        assertEquals(16, one.warpsAtLine().values().stream().mapToInt(Integer::intValue).sum());
    }

    @Test
    void badInputIsAMessageNotAnException() {
        Recorder r = new Recorder();
        DebugSession s = new DebugSession(Runnable::run, Runnable::run, r);
        s.open(java.nio.file.Path.of("no-such-file.json"));
        assertEquals(1, r.failures.size());
        assertTrue(r.snapshots.isEmpty());
        s.step(); // nothing open: ignored
        assertTrue(r.snapshots.isEmpty());
        s.run(); // says so, so a view waiting for the run's end stops waiting
        assertEquals(2, r.failures.size());
    }

    @Test
    void aCudaSourceIsCompiledWithNvccOrSaysHowToCompileIt(@TempDir Path tmp) throws Exception {
        Recorder r = new Recorder();
        DebugSession s = new DebugSession(Runnable::run, Runnable::run, r);
        s.open(java.nio.file.Files.writeString(tmp.resolve("k.cu"), "__global__ void k() {}\n"));
        if (io.barrierscope.launch.NvccCompiler.findNvcc() == null) {
            assertEquals(1, r.failures.size());
            assertTrue(r.failures.get(0).contains("nvcc -arch=sm_90a -ptx -lineinfo k.cu"), r.failures.get(0));
        } else {
            // This machine has nvcc: the source is compiled (into a temporary directory) and opened.
            assertEquals(0, r.failures.size(), () -> String.valueOf(r.failures));
            assertEquals(java.util.List.of("k.cu"), java.util.Arrays.stream(tmp.toFile().list()).sorted().toList());
        }
    }
}
