package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.exec.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder opens as the launch bundle `barrierscope exec` writes: its trace, else its launch file. */
class BundleFolderTest {
    @Test
    void aBundleFolderOpensItsTraceAtTheFailingStep(@TempDir Path tmp) throws Exception {
        SessionRecorder r = SessionRecorder.open("named-barrier-too-many");
        Snapshot end = r.runToEnd();
        Path bundle = Files.createDirectories(tmp.resolve("launch-1-stuck"));
        r.session.saveTrace(bundle.resolve("trace.bstrace"));
        Files.copy(TestFiles.sample("named-barrier-too-many"), bundle.resolve("launch.json"));

        SessionRecorder again = new SessionRecorder();
        again.session.open(bundle);
        assertTrue(again.opened.trace(), "the trace, not the launch file beside it");
        assertEquals(bundle.resolve("trace.bstrace"), again.opened.file());
        assertEquals(Outcome.DEADLOCK, again.last().outcome());
        assertEquals(end.steps(), again.last().steps());
    }

    @Test
    void aFolderWithOnlyALaunchFileOpensTheLaunch() {
        Path sample = TestFiles.sample("named-barrier-too-many");
        SessionRecorder r = new SessionRecorder();
        r.session.open(sample.getParent());
        assertFalse(r.opened.trace());
        assertEquals(sample, r.opened.file());
        assertEquals(0, r.last().steps());
    }

    @Test
    void aFolderThatIsNoBundleIsAMessage(@TempDir Path tmp) {
        List<String> failures = new ArrayList<>();
        List<Snapshot> snapshots = new ArrayList<>();
        DebugSession s = new DebugSession(Runnable::run, Runnable::run, new DebugSession.Listener() {
            @Override public void opened(OpenedFile file) { }
            @Override public void updated(Snapshot snapshot) { snapshots.add(snapshot); }
            @Override public void failed(String message) { failures.add(message); }
        });
        s.open(tmp);
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).contains("is a folder but not a launch bundle: it holds neither trace.bstrace nor launch.json"),
                failures.get(0));
        assertTrue(snapshots.isEmpty());
    }
}
