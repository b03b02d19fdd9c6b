package io.barrierscope.app.explore;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.PtxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Runs one exploration on a thread of its own, never the FX thread nor the debug session's
 * worker (the run being debugged stays usable meanwhile). Results go to the listener through the
 * UI executor; progress at most ten times a second. {@link Handle#cancel} stops it before its
 * next schedule, and the result then says {@code cancelled}.
 */
public final class ExploreRunner implements ExploreViewModel.Runner {
    /** Least time between progress reports. */
    static final long REFRESH_MILLIS = 100;

    private final Executor ui;
    private final LongSupplier clockMillis;
    private final boolean ownThread;
    /** Schedules run at once, each on its own copy of the launch, as {@code explore --jobs} (the result is the same for any). */
    private final int jobs;

    /** A runner with a thread per exploration, posting through {@code ui} ({@code Platform::runLater} in the app). */
    public ExploreRunner(Executor ui) { this(ui, () -> System.nanoTime() / 1_000_000, true, Runtime.getRuntime().availableProcessors()); }

    private ExploreRunner(Executor ui, LongSupplier clockMillis, boolean ownThread, int jobs) {
        this.ui = ui;
        this.clockMillis = clockMillis;
        this.ownThread = ownThread;
        this.jobs = Math.max(1, jobs);
    }

    /** Tests: explores on the caller's thread and reports inline, so start returns when it is done (all cores, as the app). */
    public static ExploreRunner inline() { return inline(Runtime.getRuntime().availableProcessors()); }

    /** Tests: as {@link #inline()} with {@code jobs} schedules at once. */
    public static ExploreRunner inline(int jobs) { return new ExploreRunner(Runnable::run, () -> System.nanoTime() / 1_000_000, false, jobs); }

    /** The schedules this runner runs at once (all cores in the app, as {@code explore}'s default). */
    public int jobs() { return jobs; }

    @Override
    public ExploreViewModel.Handle start(LaunchSpec launch, ExploreViewModel.Search search, ExploreViewModel.Listener listener) {
        Job job = new Job(launch, search.options(), search.boundedPartialOrder(), listener);
        if (!ownThread) {
            job.run();
            return job;
        }
        Thread t = new Thread(job, "barrierscope-explore");
        t.setDaemon(true); // closing the window must not wait for a search
        t.start();
        Thread ticker = new Thread(job::tick, "barrierscope-explore-ticker");
        ticker.setDaemon(true);
        ticker.start();
        return job;
    }

    private final class Job implements Runnable, ExploreViewModel.Handle {
        private final LaunchSpec launch;
        private final Explorer.Options options;
        private final boolean boundedPartialOrder;
        private final ExploreViewModel.Listener listener;
        private volatile boolean cancelled;
        private volatile Explorer explorer;
        private volatile boolean ended;
        private volatile long t0 = -1;
        private volatile long lastSchedules;
        private volatile int lastFindings;

        Job(LaunchSpec launch, Explorer.Options options, boolean boundedPartialOrder, ExploreViewModel.Listener listener) {
            this.launch = launch;
            this.options = options;
            this.boundedPartialOrder = boundedPartialOrder;
            this.listener = listener;
        }

        @Override
        public void cancel() {
            cancelled = true;
            Explorer ex = explorer;
            if (ex != null) ex.cancel();
        }

        @Override
        public void run() {
            try {
                long t0 = clockMillis.getAsLong();
                this.t0 = t0;
                // Its machine, race shadow and checkpoints counted against the heap before the search starts.
                var valid = LaunchValidation.validate(launch,
                        new LaunchValidation.Use(true, jobs, Math.max(0, options.maxSteps()), Math.max(0, options.maxDeviations())));
                LaunchedRun run = valid.start(new SchedulePolicy());
                Explorer ex = new Explorer(run, clockMillis);
                // As explore --jobs: copies of the launch already validated, the same result for any number.
                ex.jobs(jobs, () -> valid.start(new SchedulePolicy()));
                ex.boundedPartialOrder(boundedPartialOrder); // on: bounded sleep sets, as explore's default; off: source sets
                // As explore's default: after bound 1 of the bounded sleep sets, an unbounded source-set search that may
                // prove "all interleavings, up to equivalence" (docs/explore.md, "Exhausting small kernels"); with source sets
                // the engine ignores it, as explore does.
                ex.exhaustionPass(true);
                explorer = ex;
                if (cancelled) ex.cancel(); // asked before the explorer existed
                long[] last = {t0};
                ex.onProgress(new Explorer.Progress() {
                    @Override
                    public void explored(long n, int findings) {
                        lastSchedules = n;
                        lastFindings = findings;
                        long now = clockMillis.getAsLong();
                        // The last schedule of the budget always reports: minimising follows.
                        if (now - last[0] < REFRESH_MILLIS && n < options.schedules()) return;
                        last[0] = now;
                        long elapsed = now - t0;
                        ui.execute(() -> listener.progress(n, findings, elapsed));
                    }

                    @Override
                    public void minimizing(int finding, int findings, int replays, int budget) {
                        long now = clockMillis.getAsLong();
                        if (now - last[0] < REFRESH_MILLIS && replays > 1) return;
                        last[0] = now;
                        ui.execute(() -> listener.minimizing(finding, findings, replays, budget));
                    }
                });
                Explorer.Result r = ex.explore(options);
                Map<String, Long> minimalSteps = minimalSteps(ex, run, r.findings());
                long elapsed = clockMillis.getAsLong() - t0;
                ui.execute(() -> listener.done(r, minimalSteps, elapsed));
            } catch (BadInputException | PtxException e) {
                String msg = e.getMessage();
                ui.execute(() -> listener.failed(msg));
            } catch (RuntimeException | Error e) {
                String msg = "Internal error: " + e;
                ui.execute(() -> listener.failed(msg));
                throw e;
            } finally {
                ended = true;
            }
        }

        /**
         * Repeats the last progress with the time now, a few times a second until the job ends: a
         * long schedule, or the minimising after the search (which reports nothing of its own),
         * still moves the time shown, and the view model sees the time limit pass. Display only.
         */
        void tick() {
            while (!ended) {
                try {
                    Thread.sleep(3 * REFRESH_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
                long start = t0;
                if (ended || start < 0) continue;
                long n = lastSchedules;
                int f = lastFindings;
                long elapsed = clockMillis.getAsLong() - start;
                ui.execute(() -> {
                    if (!ended) listener.progress(n, f, elapsed);
                });
            }
        }

        /**
         * The step each minimised finding's minimal schedule fails at, as the minimiser found it
         * replaying that schedule ({@link Finding#minimalStep}: the found step when that replay was cut).
         */
        private Map<String, Long> minimalSteps(Explorer ex, LaunchedRun run, List<Finding> findings) {
            Map<String, Long> out = new LinkedHashMap<>();
            for (Finding f : findings) if (f.minimized() != null) out.put(f.cause(), f.minimalStep());
            return out;
        }
    }
}
