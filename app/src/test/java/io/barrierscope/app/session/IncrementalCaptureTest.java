package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.exec.Outcome;
import io.barrierscope.trace.TimeTravel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A move's capture copies only what changed: unchanged warps and barrier lists are handed on as
 * the same objects, and what it hands on equals a capture made from nothing.
 */
class IncrementalCaptureTest {
    private static Navigator open(String sample) {
        return new Navigator(Loader.load(TestFiles.sample(sample), null).travel());
    }

    @Test
    void aStepKeepsTheRecordsOfTheWarpsItDidNotChange() {
        Navigator nav = open("block-reduce");
        ThreadsState before = nav.threads.capture();
        nav.move(Move.STEP, nav.focus(-1), () -> false);
        ThreadsState after = nav.threads.capture();
        int kept = 0;
        for (int w = 0; w < after.warps().size(); w++) if (after.warps().get(w) == before.warps().get(w)) kept++;
        assertEquals(after.warps().size() - 1, kept, "one warp stepped; the others keep their records");
        assertSame(before.ctas(), after.ctas());
    }

    @Test
    void aCaptureWhereNothingChangedIsThePreviousOne() {
        Navigator nav = open("block-reduce");
        nav.move(Move.STEP, nav.focus(-1), () -> false);
        ThreadsState once = nav.threads.capture();
        assertSame(once, nav.threads.capture());
    }

    @Test
    void whatAMoveHandsOnEqualsACaptureFromNothing() {
        for (String sample : List.of("block-reduce", "tma-pipeline")) {
            Navigator nav = open(sample);
            nav.threads.capture();
            for (int i = 0; i < 200; i++) {
                nav.move(i % 5 == 4 ? Move.STEP_BACK : Move.STEP, nav.focus(-1), () -> false);
                ThreadsState incremental = nav.threads.capture();
                assertEquals(new ThreadCapture(nav.tt.run()).capture(), incremental, sample + " after move " + i);
            }
            // Jumps of many steps (as a Continue's refreshes and seeks make them): lanes may come
            // back to the state they had with other values behind it (a loop's next mbarrier parity).
            long end = nav.move(Move.CONTINUE, nav.focus(-1), () -> false).step();
            for (long at = 0; at <= end; at += 37) {
                nav.seek(at);
                assertEquals(new ThreadCapture(nav.tt.run()).capture(), nav.threads.capture(), sample + " at step " + at);
            }
        }
    }

    @Test
    void unchangedBarrierRowsAreHandedOnAsTheSameList() {
        Navigator nav = open("block-reduce");
        Snapshot a = StateCapture.capture(nav, Snapshot.Cause.STEPPED, -1, "", -1);
        Snapshot b = StateCapture.capture(nav, Snapshot.Cause.STEPPED, -1, "", -1);
        assertSame(a.barriers(), b.barriers());
        assertSame(a.mbarriers(), b.mbarriers());
        assertSame(a.threads(), b.threads());
    }

    /** A UI that has not got round to what was posted: tasks wait until drained. */
    private static final class SlowUi implements java.util.concurrent.Executor {
        final List<Runnable> queued = new ArrayList<>();
        @Override public void execute(Runnable r) { queued.add(r); }
        void drain() {
            while (!queued.isEmpty()) queued.remove(0).run();
        }
    }

    @Test
    void progressTheUiHasNotReachedIsReplacedByTheNewest(@TempDir Path tmp) throws Exception {
        SlowUi ui = new SlowUi();
        SessionRecorder r = new SessionRecorder();
        DebugSession s = new DebugSession(Runnable::run, ui, r);
        s.refreshNanos = 0; // a progress snapshot at every check
        s.open(TestFiles.spinPtx(tmp, 20_000));
        ui.drain();
        int before = r.snapshots.size();
        s.run();
        ui.drain();
        List<Snapshot> got = r.snapshots.subList(before, r.snapshots.size());
        // Hundreds of checks, none drained meanwhile: the stop's snapshot alone is shown.
        assertEquals(1, got.size(), "snapshots shown: " + got.size());
        assertEquals(Outcome.COMPLETED, got.get(0).outcome());
    }

    @Test
    void aRunChecksForPauseAtLeastEveryChunkOfSteps(@TempDir Path tmp) throws Exception {
        List<Long> checks = new ArrayList<>();
        DebugSession s = new DebugSession(Runnable::run, Runnable::run, new DebugSession.Listener() {
            @Override public void opened(OpenedFile file) {}
            @Override public void updated(Snapshot snap) {
                if (snap.cause() == Snapshot.Cause.RUN_PROGRESS) checks.add(snap.steps());
            }
            @Override public void failed(String message) { throw new AssertionError(message); }
        });
        s.refreshNanos = 0; // a progress snapshot at every check
        s.open(TestFiles.spinPtx(tmp, 20_000));
        s.run();
        assertTrue(checks.size() > 10, "checks: " + checks.size());
        long prev = 0;
        for (long at : checks) {
            assertTrue(at - prev <= TimeTravel.CHUNK, "a check after " + (at - prev) + " steps");
            prev = at;
        }
    }
}
