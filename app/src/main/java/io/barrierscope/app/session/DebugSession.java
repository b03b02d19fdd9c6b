package io.barrierscope.app.session;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.app.timeline.TimelineModel;
import io.barrierscope.exec.Policy;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.trace.Breakpoint;
import io.barrierscope.trace.BreakpointSet;
import io.barrierscope.trace.TimeTravel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One debugging session: the open run, recorded as it executes so it can go backwards, and the
 * commands on it (open, re-run, move either way, seek, breakpoints, save).
 *
 * <p>All engine work happens on one worker thread, so the run is never touched by two threads
 * and the FX thread never waits for the engine. Results go to the {@link Listener} through one
 * UI executor ({@code Platform::runLater} in the app). Tests pass inline executors for both and
 * get a synchronous, deterministic session.
 */
public final class DebugSession implements AutoCloseable {
    /** Receives results, always through the UI executor. */
    public interface Listener {
        /** A file was opened (or re-run); a snapshot follows. */
        void opened(OpenedFile file);

        void updated(Snapshot snapshot);

        /** A command failed: bad input (message only) or an engine error. */
        void failed(String message);

        /**
         * Opening {@code path} failed on bad input ({@code message}, with file:line:col where
         * there is one); the session that was open (if any) is untouched and still current.
         */
        default void openFailed(Path path, String message) { failed(message); }

        /**
         * Opening {@code path} has come this far: {@code done} of {@code total} units of {@code phase}
         * ("parse": characters of the PTX lexed and parsed; "replay": a trace's warp steps). Told
         * at most once per percent of each phase.
         */
        default void openProgress(Path path, String phase, long done, long total) {}

        /** A fresh look at the thread asked for with {@link #inspect}, between snapshots. */
        default void inspected(Inspection inspection) {}

        /** The breakpoints changed (added, removed, enabled, hit counts after a move). */
        default void breakpoints(List<BreakpointRow> rows) {}

        /** A breakpoint was refused; the engine's message says why. */
        default void breakpointRefused(String message) {}

        /** A file was written (trace, export); the message says where. */
        default void saved(String message) {}

        /**
         * A new run's timeline data. The session's worker updates it as the recording grows and
         * then calls {@link #timelineGrew}; the FX thread may query it at any time.
         */
        default void timeline(TimelineModel model) {}

        default void timelineGrew() {}

        /** The selected barrier's roster, history and waiters (null: none selected, or it is gone). */
        default void barrierDetail(BarrierDetail detail) {}

        /**
         * Device printf lines the recording gained since the last call (the run's first call
         * follows {@link #opened}), in step order. Going back removes nothing here: the console
         * shows the lines printed before the snapshot's position.
         */
        default void printed(List<ConsoleLine> lines) {}

        /** The launch's global buffers, after every stop (not during a run). */
        default void globalMemory(GlobalBuffers buffers) {}
    }

    /** Least time between progress snapshots while running (at most ten a second). */
    long refreshNanos = 100_000_000L;

    private final Executor worker;
    private final ExecutorService ownedWorker;
    /** Where files load: a thread of its own beside the worker, or the worker itself (tests). */
    private final Executor loader;
    private final ExecutorService ownedLoader;
    /** The open asked for last; a load whose ticket is no longer this one is dropped (cancelled or superseded). */
    private final java.util.concurrent.atomic.AtomicLong openTicket = new java.util.concurrent.atomic.AtomicLong();
    private final Executor ui;
    private final Listener listener;
    /** Progress snapshots and timeline growth, posted so that they never queue up. */
    private final Coalescing repeated;
    private final AtomicBoolean pauseRequested = new AtomicBoolean();
    /** The thread to inspect, or -1 for the followed warp; read by every capture, even mid-run. */
    private final AtomicInteger inspectSlot = new AtomicInteger(-1);
    /** The barrier selected in the barriers pane, or null; its detail follows every snapshot. */
    private final java.util.concurrent.atomic.AtomicReference<BarrierKey> selectedBarrier =
            new java.util.concurrent.atomic.AtomicReference<>();

    // Confined to the worker thread.
    private Path file;
    private Navigator nav;
    private final BreakpointRegistry breakpoints = new BreakpointRegistry();
    private TimelineModel timeline;
    private boolean running;
    /** The breakpoint hit the last move stopped at, or null. */
    private BreakpointSet.Hit lastHit;
    /** Printf lines of the recording already handed to the listener. */
    private int printedPosted;

    /** A session with its own named worker thread. */
    public static DebugSession withWorkerThread(Executor ui, Listener listener) {
        ExecutorService w = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "barrierscope-engine");
            t.setDaemon(true); // closing the window must not wait for a long run
            return t;
        });
        ExecutorService loads = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "barrierscope-open");
            t.setDaemon(true);
            return t;
        });
        return new DebugSession(w, w, loads, loads, ui, listener);
    }

    /** A session on the given executors (tests: {@code Runnable::run} for both). */
    public DebugSession(Executor worker, Executor ui, Listener listener) {
        this(worker, null, worker, null, ui, listener);
    }

    /** A session whose files load on {@code loader} (tests: to hold a load while the current session is used). */
    public DebugSession(Executor worker, Executor loader, Executor ui, Listener listener) {
        this(worker, null, loader, null, ui, listener);
    }

    private DebugSession(Executor worker, ExecutorService owned, Executor loader, ExecutorService ownedLoader, Executor ui,
                         Listener listener) {
        this.worker = worker;
        this.ownedWorker = owned;
        this.loader = loader;
        this.ownedLoader = ownedLoader;
        this.ui = ui;
        this.listener = listener;
        this.repeated = new Coalescing(ui, listener);
    }

    // ---- files ----

    /** Opens a launch file, a trace, or a PTX with the command line's default launch, replacing the current run. */
    public void open(Path path) { open(path, null); }

    /** Opens a file; a bare PTX is launched with {@code ptxSettings} (null: the defaults). */
    public void open(Path path, LaunchSettings ptxSettings) {
        pauseRequested.set(true);
        long ticket = openTicket.incrementAndGet();
        long[] shown = {-1, 0}; // the percent last told, and the phase's hash (loader thread only)
        io.barrierscope.ptx.Cancellation cancel = new io.barrierscope.ptx.Cancellation((phase, done, total) -> {
            long percent = total <= 0 ? 0 : done * 100 / total;
            if (percent == shown[0] && phase.hashCode() == shown[1]) return;
            shown[0] = percent;
            shown[1] = phase.hashCode();
            if (openTicket.get() == ticket) ui.execute(() -> listener.openProgress(path, phase, done, total));
        });
        io.barrierscope.ptx.Cancellation before = opening.getAndSet(cancel);
        if (before != null) before.cancel(); // superseded: its parse or replay stops at its next check
        // Parsing, compiling and the first steps run on the loader: the worker keeps serving the
        // current session (steps, seeks) until the new one is ready, and Cancel stops the engine and drops it.
        loader.execute(() -> guarded(() -> {
            Loader.Loaded l;
            try {
                l = Loader.load(path, ptxSettings, cancel); // nothing of the current session changes before this succeeds
            } catch (io.barrierscope.ptx.Cancellation.Cancelled e) {
                return; // the window already says it was cancelled
            } catch (BadInputException | PtxException e) {
                String msg = e.getMessage();
                if (openTicket.get() == ticket) ui.execute(() -> listener.openFailed(path, msg));
                return;
            }
            opening.compareAndSet(cancel, null); // loaded: nothing left to stop
            if (openTicket.get() != ticket) return; // cancelled or superseded while it loaded
            pauseRequested.set(true); // a Continue begun on the old session meanwhile yields to the new one
            worker.execute(() -> guarded(() -> {
                if (openTicket.get() == ticket) installOpened(path, l);
            }));
        }));
    }

    /**
     * Drops the open in progress (its result, if one still comes, is thrown away); the current
     * session is as it was. The engine stops at its next check: the PTX parse every few thousand
     * tokens, a trace's replay every 4096 warp steps.
     */
    public void cancelOpen() {
        openTicket.incrementAndGet();
        io.barrierscope.ptx.Cancellation c = opening.getAndSet(null);
        if (c != null) c.cancel();
    }

    /** The open in progress, to stop it on Cancel (null: none, or it was cancelled). */
    private final java.util.concurrent.atomic.AtomicReference<io.barrierscope.ptx.Cancellation> opening =
            new java.util.concurrent.atomic.AtomicReference<>();

    private void installOpened(Path path, Loader.Loaded l) {
        inspectSlot.set(-1); // a thread of the old run means nothing in the new one
        selectedBarrier.set(null); // nor a barrier
        file = Loader.resolve(path); // a bundle folder: the file in it that opened
        breakpoints.clear(l.travel().breakpoints());
        install(l);
    }

    /** Runs the same launch again under another policy and seed, keeping the breakpoints. */
    public void rerun(String policy, long seed) {
        pauseRequested.set(true);
        worker.execute(() -> guarded(() -> {
            if (nav == null) return;
            Loader.Loaded l = Loader.rerun(nav.tt, policy, seed);
            breakpoints.carryOver(l.travel().breakpoints());
            install(l);
        }));
    }

    /**
     * Opens {@code launch} again scheduled by {@code policy} (a fresh policy object: a schedule
     * replay from Explore), keeping the breakpoints, and goes to the state after {@code step} warp
     * steps, recording on the way so every earlier step can be revisited.
     */
    public void openWithPolicy(LaunchSpec launch, Policy policy, long step, String note, boolean toEnd) {
        pauseRequested.set(true);
        worker.execute(() -> guarded(() -> {
            LaunchedRun r = LaunchValidation.validate(launch).start(policy);
            if (file == null) file = launch.file(); // else the same launch: the file it was opened from
            TimeTravel tt = new TimeTravel(r);
            if (nav != null) breakpoints.carryOver(tt.breakpoints());
            else breakpoints.clear(tt.breakpoints());
            install(new Loader.Loaded(tt, note, false));
            // A deadlock is found by trying the step after the last one: settle it now, so the
            // window lands on the verdict (status, Deadlock tab, timeline end) without a Continue.
            if (toEnd) tt.replayTo(step, true);
            afterMove(nav.seek(step), toEnd && tt.atEnd() ? Snapshot.Cause.RUN_END : Snapshot.Cause.STEPPED, false);
        }));
    }

    private void install(Loader.Loaded l) {
        nav = new Navigator(l.travel());
        OpenedFile info = SourceFiles.opened(file, nav.tt.run(), l.note(), l.trace());
        lastHit = null;
        // The window shows the file (title, sources) while this thread captures the first moment and
        // builds the timeline: on a launch of tens of thousands of threads the two overlap instead of
        // adding up before the first paint (docs/performance.md, "Opening and Continue, bounded").
        ui.execute(() -> listener.opened(info));
        Snapshot first = capture(Snapshot.Cause.OPENED, "", -1);
        TimelineModel model = TimelineModel.of(nav.tt);
        model.update(); // a trace arrives recorded to its end
        timeline = model;
        ui.execute(() -> listener.timeline(model));
        printedPosted = 0;
        postPrinted();
        post(first);
        postBreakpoints();
    }

    /** Hands the printf lines recorded since the last call to the listener (before the snapshot that shows them). */
    private void postPrinted() {
        List<ConsoleLine> fresh = ConsoleCapture.since(nav.tt, printedPosted);
        if (fresh.isEmpty()) return;
        printedPosted += fresh.size();
        ui.execute(() -> listener.printed(fresh));
    }

    /** Brings the timeline up to the recording's frontier (moves forward may have extended it). */
    private void growTimeline() {
        if (timeline != null && timeline.update()) repeated.timelineGrew();
    }

    /** Writes the recording (up to the frontier) as a trace file. */
    public void saveTrace(Path out) { worker.execute(() -> guarded(() -> saved(RecordingWriter.trace(nav, out)))); }

    /** Writes the recording as Chrome trace JSON for Perfetto and chrome://tracing. */
    public void exportChrome(Path out) { worker.execute(() -> guarded(() -> saved(RecordingWriter.chrome(nav, out)))); }

    private void saved(String msg) { ui.execute(() -> listener.saved(msg)); }

    // ---- moves ----

    /** Executes one warp step. */
    public void step() { move(Move.STEP); }

    /** Runs to the next breakpoint or the end of the run (completion, deadlock, step limit), or a pause. */
    public void run() { move(Move.CONTINUE); }

    /** Moves through the run; a move that cannot go further (the end, the start) posts where it stands. */
    public void move(Move move) {
        if (move == Move.CONTINUE) pauseRequested.set(false);
        worker.execute(() -> guarded(() -> {
            if (nav == null) {
                if (move == Move.CONTINUE) ui.execute(() -> listener.failed("Nothing to run: no file is open."));
                return;
            }
            int warp = nav.focus(inspectSlot.get() >= 0 ? inspectSlot.get() >> 5 : -1);
            TimeTravel.Stop s;
            if (move == Move.CONTINUE) {
                running = true;
                try {
                    s = nav.move(move, warp, progress());
                } finally {
                    running = false;
                }
            } else {
                s = nav.move(move, warp, () -> false);
            }
            if (s.hit() != null) inspectSlot.set(-1); // a hit focuses its warp (or the followed one)
            afterMove(s, move == Move.CONTINUE ? Snapshot.Cause.RUN_END : Snapshot.Cause.STEPPED, move.forward);
        }));
    }

    /** Goes to the state after {@code step} warp steps (clamped to the recording once it is complete). */
    public void seek(long step) {
        worker.execute(() -> guarded(() -> {
            if (nav == null) return;
            afterMove(nav.seek(step), Snapshot.Cause.STEPPED, false);
        }));
    }

    /** Back to the start of the recorded run (step 0); the recording and breakpoints stay. */
    public void reset() {
        pauseRequested.set(true);
        seek(0);
    }

    /** Asks a run in progress to stop at the next check (every few thousand warp steps); it then posts a snapshot. */
    public void pause() {
        pauseRequested.set(true);
    }

    /** Off only to measure what the yield in {@link #progress()} does ({@code -Dbarrierscope.noYield=true}). */
    private static final boolean YIELD = !Boolean.getBoolean("barrierscope.noYield");

    /** Polled by a run between chunks: posts throttled progress snapshots and says whether to stop. */
    private java.util.function.BooleanSupplier progress() {
        long[] lastPost = {System.nanoTime()};
        return () -> {
            if (System.nanoTime() - lastPost[0] >= refreshNanos) {
                nav.followLive();
                postPrinted();
                post(capture(Snapshot.Cause.RUN_PROGRESS, "", -1));
                growTimeline();
                lastPost[0] = System.nanoTime();
            }
            // Offers the core to the FX thread at each check (every 512 warp steps): on a busy machine
            // the window's Pause key and frames otherwise wait for this thread's time slice to end.
            // The run's results do not depend on timing, so this changes none of them.
            if (YIELD) Thread.yield();
            return pauseRequested.get();
        };
    }

    private void afterMove(TimeTravel.Stop s, Snapshot.Cause cause, boolean forward) {
        BreakpointSet.Hit hit = s.hit();
        lastHit = hit;
        int hitId = hit == null ? -1 : breakpoints.idOf(hit.breakpoint());
        postPrinted();
        post(capture(cause, StateCapture.stopText(nav, s, forward), hitId));
        postBreakpoints();
        growTimeline();
    }

    // ---- breakpoints ----

    /** Adds a breakpoint written as the engine reads them ({@code KIND[:ARG][,KEY=VALUE]...}). */
    public void addBreakpoint(String spec) { breakpointCommand(() -> breakpoints.add(spec)); }

    public void removeBreakpoint(int id) { breakpointCommand(() -> breakpoints.remove(id)); }

    public void enableBreakpoint(int id, boolean on) { breakpointCommand(() -> breakpoints.setEnabled(id, on)); }

    /** A click in the PTX gutter: removes the breakpoints on that line, or sets {@code line:N}. */
    public void toggleLineBreakpoint(int line) { breakpointCommand(() -> breakpoints.toggleLine(line)); }

    /** A click in the CUDA gutter: the same with {@code line:FILE:N}. */
    public void toggleCudaBreakpoint(String cudaFile, int line) {
        breakpointCommand(() -> breakpoints.toggleCudaLine(cudaFile, line));
    }

    private void breakpointCommand(Runnable change) {
        worker.execute(() -> guarded(() -> {
            if (nav == null) {
                ui.execute(() -> listener.breakpointRefused("Open a file first: breakpoints belong to a kernel."));
                return;
            }
            try {
                change.run();
            } catch (IllegalArgumentException e) { // the engine's words for a bad spec
                String msg = e.getMessage();
                ui.execute(() -> listener.breakpointRefused(msg));
                return;
            }
            postBreakpoints();
        }));
    }

    /**
     * Checks breakpoint specs against the open kernel without setting them (a lesson's moments):
     * {@code result} gets, on the UI executor, each refused spec with the engine's message.
     */
    public void checkBreakpoints(List<String> specs, java.util.function.Consumer<java.util.Map<String, String>> result) {
        List<String> copy = List.copyOf(specs);
        worker.execute(() -> guarded(() -> {
            if (nav == null) return;
            java.util.Map<String, String> refused = BreakpointRegistry.refused(nav.tt.interpreter().machine(), copy);
            ui.execute(() -> result.accept(refused));
        }));
    }

    /**
     * "Show me this moment" (a lesson's moment link): sets the breakpoint unless it is set (and
     * enables it), then runs to its first hit in the run, from the start, with the other
     * breakpoints held off meanwhile; when already stopped at a hit of it, runs on to its next
     * hit. Posts a run's end like {@link #run()}; a moment that does not happen goes back to
     * where it started and says so.
     */
    public void showBreakpoint(String spec) {
        pauseRequested.set(false);
        worker.execute(() -> guarded(() -> {
            if (nav == null) {
                ui.execute(() -> listener.failed("Nothing to run: no file is open."));
                return;
            }
            Breakpoint target;
            try {
                target = breakpoints.moment(spec);
            } catch (IllegalArgumentException e) {
                String msg = e.getMessage();
                ui.execute(() -> listener.breakpointRefused(msg));
                post(capture(Snapshot.Cause.RUN_END, msg, -1));
                return;
            }
            long from = nav.tt.now();
            boolean atIt = lastHit != null && lastHit.breakpoint() == target && lastHit.stopStep() == from;
            if (!atIt) {
                nav.seek(0);
                target.hits = 0; // its hit count (and hits=N) counts from the start again
            }
            List<Breakpoint> heldOff = breakpoints.holdOffAllBut(target);
            TimeTravel.Stop s;
            running = true;
            try {
                s = nav.move(Move.CONTINUE, nav.focus(-1), progress());
            } finally {
                running = false;
                BreakpointRegistry.restore(heldOff);
            }
            if (s.hit() != null || s.reason() == TimeTravel.Reason.CANCELLED || s.reason() == TimeTravel.Reason.BRKPT) {
                if (s.hit() != null) inspectSlot.set(-1);
                afterMove(s, Snapshot.Cause.RUN_END, true);
                return;
            }
            long end = s.step();
            nav.seek(from);
            lastHit = null;
            String text = "The moment " + spec + (atIt ? " does not happen again" : " does not happen") + " in this run (it ended at step "
                    + end + "); back at step " + from;
            postPrinted();
            post(capture(Snapshot.Cause.RUN_END, text, -1));
            postBreakpoints();
            growTimeline();
        }));
    }

    private void postBreakpoints() {
        List<BreakpointRow> rows = breakpoints.rows();
        ui.execute(() -> listener.breakpoints(rows));
    }

    // ---- inspection ----

    /**
     * Chooses the thread whose registers (and whose CTA's shared memory) every snapshot carries,
     * and whose warp the warp moves act on; -1 follows the focused warp. A run in progress picks
     * it up at its next refresh; otherwise an inspection is posted at once.
     */
    public void inspect(int slot) {
        inspectSlot.set(slot);
        worker.execute(() -> guarded(() -> {
            if (nav == null || running) return;
            Inspection i = StateCapture.inspection(nav.tt.run(), slot, nav.follow());
            if (i != null) ui.execute(() -> listener.inspected(i));
        }));
    }

    /** One operand of a tensor-core instruction as its matrix, for the inspected thread's warp (or warpgroup); told on the UI executor. */
    public void inspectTensor(int pc, String operand, java.util.function.Consumer<TensorTile> told) {
        worker.execute(() -> guarded(() -> {
            if (nav == null || running) return;
            Inspection i = StateCapture.inspection(nav.tt.run(), inspectSlot.get(), nav.follow());
            TensorTile t = TensorCapture.capture(nav.tt, i == null ? -1 : i.slot(), pc, operand);
            ui.execute(() -> told.accept(t));
        }));
    }

    /**
     * Finds the step that last wrote {@code buffer[index]} before the state shown (searching back at most
     * {@link LastWriter#BOUND} steps) and goes there; {@code told} hears what was found, on the UI executor.
     */
    public void goToLastWrite(String buffer, long index, java.util.function.Consumer<String> told) {
        worker.execute(() -> guarded(() -> {
            if (nav == null || running) return;
            LastWriter.Result r = LastWriter.find(nav.tt, buffer, index, LastWriter.BOUND);
            ui.execute(() -> told.accept(r.text()));
            if (r.found()) afterMove(nav.seek(r.step()), Snapshot.Cause.STEPPED, false);
        }));
    }

    @Override
    public void close() {
        pauseRequested.set(true);
        if (ownedWorker != null) ownedWorker.shutdownNow();
        if (ownedLoader != null) ownedLoader.shutdownNow();
    }

    /** For tests: waits until the worker has finished what was queued before. */
    boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
        if (ownedWorker == null) return true;
        if (ownedLoader != null) { // a load in progress first: it hands its result to the worker
            var loaded = new CountDownLatch(1);
            ownedLoader.execute(loaded::countDown);
            if (!loaded.await(timeout, unit)) return false;
        }
        var done = new CountDownLatch(1);
        ownedWorker.execute(done::countDown);
        return done.await(timeout, unit);
    }

    /** Selects a barrier (null: none): its detail is posted now and after every move. */
    public void selectBarrier(BarrierKey key) {
        selectedBarrier.set(key);
        worker.execute(() -> guarded(this::postBarrierDetail));
    }

    private void postBarrierDetail() {
        BarrierKey key = selectedBarrier.get();
        BarrierDetail d = key == null || nav == null ? null : BarrierDetailCapture.capture(nav, key);
        ui.execute(() -> listener.barrierDetail(d));
    }

    private Snapshot capture(Snapshot.Cause cause, String stop, int hitId) {
        return StateCapture.capture(nav, cause, inspectSlot.get(), stop, hitId);
    }

    private void post(Snapshot s) {
        if (s.cause() == Snapshot.Cause.RUN_PROGRESS) { repeated.progress(s); return; }
        repeated.stopped(); // a stop's snapshot supersedes any progress not yet shown
        ui.execute(() -> listener.updated(s));
        // The detail scans the recording and the buffers are copied: not for a run's every refresh (above).
        if (selectedBarrier.get() != null) postBarrierDetail();
        GlobalBuffers g = GlobalMemoryCapture.capture(nav.tt.run(), nav.tt.now());
        ui.execute(() -> listener.globalMemory(g));
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
