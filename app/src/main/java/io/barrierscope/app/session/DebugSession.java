package io.barrierscope.app.session;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.PtxException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One debugging session: the open run and the commands on it (open, step, run, pause, reset).
 *
 * <p>All engine work happens on one worker thread, so the run is never touched by two threads
 * and the FX thread never waits for the engine. Results go to the {@link Listener} through one
 * UI executor ({@code Platform::runLater} in the app). Tests pass inline executors for both and
 * get a synchronous, deterministic session.
 */
public final class DebugSession implements AutoCloseable {
    /** Receives results, always through the UI executor. */
    public interface Listener {
        /** A file was opened (or re-opened by reset); a snapshot follows. */
        void opened(OpenedFile file);

        void updated(Snapshot snapshot);

        /** A command failed: bad input (message only) or an engine error. */
        void failed(String message);

        /** A fresh look at the thread asked for with {@link #inspect}, between snapshots. */
        default void inspected(Inspection inspection) {}
    }

    /** Warp steps between looks at the pause flag and the refresh clock while running (tests shorten it). */
    int chunk = 4096;
    /** Least time between progress snapshots while running (at most ten a second). */
    long refreshNanos = 100_000_000L;

    private final Executor worker;
    private final ExecutorService ownedWorker;
    private final Executor ui;
    private final Listener listener;
    private final AtomicBoolean pauseRequested = new AtomicBoolean();
    /** The thread to inspect, or -1 for the followed warp; read by every capture, even mid-run. */
    private final AtomicInteger inspectSlot = new AtomicInteger(-1);

    // Confined to the worker thread.
    private Path file;
    private LaunchedRun run;
    private int lastWarp = -1;
    private int lastPc = -1;
    private boolean running;
    private boolean chunkBreak;
    private long chunkEnd;

    /** A session with its own named worker thread. */
    public static DebugSession withWorkerThread(Executor ui, Listener listener) {
        ExecutorService w = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "barrierscope-engine");
            t.setDaemon(true); // closing the window must not wait for a long run
            return t;
        });
        return new DebugSession(w, w, ui, listener);
    }

    /** A session on the given executors (tests: {@code Runnable::run} for both). */
    public DebugSession(Executor worker, Executor ui, Listener listener) {
        this(worker, null, ui, listener);
    }

    private DebugSession(Executor worker, ExecutorService owned, Executor ui, Listener listener) {
        this.worker = worker;
        this.ownedWorker = owned;
        this.ui = ui;
        this.listener = listener;
    }

    /** Opens a launch file or PTX file, replacing the current run. */
    public void open(Path path) {
        pauseRequested.set(true);
        inspectSlot.set(-1); // a thread of the old run means nothing in the new one
        worker.execute(() -> guarded(() -> load(path)));
    }

    /** Starts the current file again from the beginning. */
    public void reset() {
        pauseRequested.set(true);
        worker.execute(() -> guarded(() -> {
            if (file != null) load(file);
        }));
    }

    /** Executes one warp step. */
    public void step() {
        worker.execute(() -> guarded(() -> {
            if (run == null || run.interpreter().finished()) return;
            run.interpreter().step();
            post(capture(Snapshot.Cause.STEPPED));
        }));
    }

    /** Runs to the end of the run (completion, deadlock, diagnostic, step limit) or a pause. */
    public void run() {
        pauseRequested.set(false);
        worker.execute(() -> guarded(this::runToEnd));
    }

    /**
     * Chooses the thread whose registers (and whose CTA's shared memory) every snapshot carries;
     * -1 follows the focused warp. A run in progress picks it up at its next refresh; otherwise
     * an inspection is posted at once.
     */
    public void inspect(int slot) {
        inspectSlot.set(slot);
        worker.execute(() -> guarded(() -> {
            if (run == null || running) return;
            Inspection i = StateCapture.inspection(run, slot, lastWarp);
            if (i != null) ui.execute(() -> listener.inspected(i));
        }));
    }

    /** Asks a run in progress to stop at the next chunk boundary; it then posts a snapshot. */
    public void pause() {
        pauseRequested.set(true);
    }

    @Override
    public void close() {
        pauseRequested.set(true);
        if (ownedWorker != null) ownedWorker.shutdownNow();
    }

    /** For tests: waits until the worker has finished what was queued before. */
    boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
        if (ownedWorker == null) return true;
        var done = new CountDownLatch(1);
        ownedWorker.execute(done::countDown);
        return done.await(timeout, unit);
    }

    private void load(Path path) {
        LaunchedRun opened = LaunchedRun.open(path);
        file = path;
        run = opened;
        lastWarp = -1;
        lastPc = -1;
        run.interpreter().addListener(new ExecutionListener() {
            @Override
            public void warpStep(long step, int warp, int pc, int group, int active) {
                lastWarp = warp;
                lastPc = pc;
                // Break a long run into chunks so pause and screen refresh get a look-in.
                if (running && step + 1 >= chunkEnd) {
                    chunkBreak = true;
                    opened.interpreter().requestBreak();
                }
            }
        });
        OpenedFile info = SourceFiles.opened(path, run);
        Snapshot first = capture(Snapshot.Cause.OPENED);
        ui.execute(() -> listener.opened(info));
        post(first);
    }

    private void runToEnd() {
        if (run == null) {
            ui.execute(() -> listener.failed("Nothing to run: no file is open."));
            return;
        }
        Interpreter x = run.interpreter();
        Machine m = run.machine();
        long lastPost = System.nanoTime();
        running = true;
        try {
            while (!x.finished() && !pauseRequested.get()) {
                long before = m.steps;
                chunkBreak = false;
                chunkEnd = m.steps + chunk;
                x.run(run.maxSteps());
                // A break we did not ask for is the kernel's own brkpt: stop there. (A break left
                // pending by a brkpt during a single step returns at once; just go on then.)
                if (!x.finished() && !chunkBreak && m.steps != before) break;
                if (System.nanoTime() - lastPost >= refreshNanos && !x.finished()) {
                    post(capture(Snapshot.Cause.RUN_PROGRESS));
                    lastPost = System.nanoTime();
                }
            }
        } finally {
            running = false;
        }
        post(capture(Snapshot.Cause.RUN_END));
    }

    private Snapshot capture(Snapshot.Cause cause) {
        return StateCapture.capture(run, lastWarp, lastPc, cause, inspectSlot.get());
    }

    private void post(Snapshot s) {
        ui.execute(() -> listener.updated(s));
    }

    /**
     * Runs a command, turning bad input into a message. Anything else is a bug: the listener
     * hears about it, then it is rethrown so the uncaught-exception handler shows it.
     */
    private void guarded(Runnable command) {
        try {
            command.run();
        } catch (BadInputException | PtxException e) { // the CLI's exit 2: the user's input, not a bug
            String msg = e.getMessage();
            ui.execute(() -> listener.failed(msg));
        } catch (RuntimeException | Error e) {
            String msg = "Internal error: " + e;
            ui.execute(() -> listener.failed(msg));
            throw e;
        }
    }
}
