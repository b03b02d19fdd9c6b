package io.barrierscope.app.explore;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.app.compare.CompareViewModel;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.SourceMap;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.exec.Policy;
import io.barrierscope.explore.Coverage;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.Minimization;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Explore panel: searches the open launch's schedules (as {@code barrierscope explore}
 * does, with its defaults) on a thread of the {@link Runner}'s, shows progress and coverage,
 * lists each finding once with its replayable schedule, and opens a finding in the debugger:
 * the session replays that schedule and lands on the failing step, with time travel.
 *
 * <p>States: idle (nothing explored for this launch yet), running, cancelled, done, failed.
 * Results of an exploration that is no longer the current one (a new file was opened, or it
 * was replaced by another start) are ignored. Everything runs on the UI thread.
 */
public final class ExploreViewModel implements AutoCloseable {
    /** The CLI's defaults ({@code explore --schedules 1000 --time-limit 60 --seed 0 --max-deviations 3}). */
    public static final String DEFAULT_SCHEDULES = "1000";
    public static final String DEFAULT_TIME_LIMIT = "60";
    public static final String DEFAULT_SEED = "0";
    public static final String DEFAULT_DEVIATIONS = "3";

    public enum State { IDLE, RUNNING, CANCELLED, DONE, FAILED }

    /** Starts explorations; the app's runs each on a thread of its own. */
    public interface Runner {
        Handle start(LaunchSpec launch, Search search, Listener listener);
    }

    /**
     * What Start asks for: the budgets and bound ({@code options}) and the reduction, which the
     * engine sets on the explorer rather than in its options. {@code boundedPartialOrder}: the rule
     * sound within the deviation bound (bounded sleep sets, the command line's default; docs/explore.md
     * "Sleep sets within the bound"); off: source sets ({@code explore --source-sets}).
     */
    public record Search(Explorer.Options options, boolean boundedPartialOrder) {}

    public interface Handle {
        void cancel();
    }

    /** What a runner reports, on the UI thread. */
    public interface Listener {
        void progress(long schedules, int findings, long elapsedMillis);

        /** Without minimal schedules' failing steps (each finding then opens its minimal schedule at its end). */
        default void done(Explorer.Result result, long elapsedMillis) { done(result, Map.of(), elapsedMillis); }

        /**
         * {@code minimalSteps}: per finding's cause, the step its minimal schedule fails at (found by
         * replaying it; the found schedule's step need not be the minimal one's).
         */
        void done(Explorer.Result result, Map<String, Long> minimalSteps, long elapsedMillis);

        void failed(String message);

        /** Minimising: finding {@code finding} (from 0) of {@code findings}, {@code replays} of at most {@code budget} replays done. */
        default void minimizing(int finding, int findings, int replays, int budget) {}
    }

    /**
     * Opens the launch in the debugger under a policy object and goes to a step (the session's
     * {@code openWithPolicy}); {@code toEnd}: the run ends there (a deadlock or step limit, found
     * only by trying the next step), so the debugger settles that end at once.
     */
    public interface Opener {
        void open(LaunchSpec launch, Policy policy, long step, String note, boolean toEnd);
    }

    /**
     * One finding as the list shows it. {@code step} is where opening it lands: the state after
     * the failing warp step (for a diagnostic, the step after the one it fired in, as the
     * Diagnostics panel counts; for a deadlock or step limit, the run's last step).
     */
    public record Row(String kind, String code, String cause, String message, String location, long step,
                      String schedule, long foundAtSchedule, String outcome, Minimal minimal) {
        /** Not minimised. */
        public Row(String kind, String code, String cause, String message, String location, long step,
                   String schedule, long foundAtSchedule, String outcome) {
            this(kind, code, cause, message, location, step, schedule, foundAtSchedule, outcome, null);
        }

        /** The schedule "Open in debugger" replays: the minimal one when there is one. */
        public String replaySchedule() { return minimal != null ? minimal.schedule() : schedule; }

        /** Where opening the replayed schedule lands (as {@link #landing}, at the minimal schedule's failing step). */
        public long replayLanding() {
            if (minimal == null) return landing();
            return Finding.DIAGNOSTIC.equals(kind) ? minimal.step() + 1 : minimal.step();
        }

        /**
         * "Minimal schedule: 1 decision off the default (found: 4), 0 preemptions (found: 2)", or why
         * there is none.
         */
        public String minimalText() {
            if (minimal == null) return "Not minimised (the search was cancelled or its minimising time ran out first)";
            return "Minimal schedule: " + plural(minimal.size(), "decision") + " off the default (found: " + minimal.foundSize()
                    + "), " + plural(minimal.preemptions(), "preemption") + " (found: " + minimal.foundPreemptions() + ")"
                    + (minimal.complete() ? "" : "; cut by its time budget: smaller, maybe not minimal");
        }

        /** The decisive decisions in words, or what it means that there are none. */
        public List<String> decisiveText() {
            if (minimal == null) return List.of();
            if (minimal.decisive().isEmpty()) return List.of("The default schedule (s1:, not round-robin) alone ends in this cause");
            return minimal.decisive().stream().map(d -> "Decisive: " + d).toList();
        }

        /** "[dsmem-after-exit] PTX line 89 (kernel.cu:33) · step 95". */
        public String title() { return "[" + code + "] " + location + " · step " + replayStep(); }

        /** The step the replayed schedule fails at: the minimal one's when there is one. */
        public long replayStep() { return minimal != null ? minimal.step() : step; }

        /**
         * Where opening it lands: for a diagnostic the position right after the step it fired in
         * ({@code step + 1}); for a deadlock or step limit the run's last position ({@code step}).
         */
        public long landing() { return Finding.DIAGNOSTIC.equals(kind) ? step + 1 : step; }

        /** Whether the run ends where it lands without a further warp step (a deadlock or a step limit). */
        public boolean endsRun() { return !Finding.DIAGNOSTIC.equals(kind); }
    }

    /**
     * A finding's minimisation as the card shows it: the minimal schedule and the step it fails at
     * ({@code step}), its size and preemptions next to the found schedule's, whether the delta
     * debugging completed (then it is 1-minimal), and the decisive decisions in words.
     */
    public record Minimal(String schedule, long step, int size, int foundSize, int preemptions, int foundPreemptions,
                          boolean complete, List<String> decisive) {}

    /** Opens two runs side by side (the compare window); set by the view. */
    public interface Comparer {
        void compare(CompareViewModel.Side a, CompareViewModel.Side b);
    }

    private final Runner runner;
    private final Opener opener;
    private Comparer comparer;

    private final StringProperty schedules = new SimpleStringProperty(DEFAULT_SCHEDULES);
    private final StringProperty timeLimit = new SimpleStringProperty(DEFAULT_TIME_LIMIT);
    private final StringProperty seed = new SimpleStringProperty(DEFAULT_SEED);
    private final StringProperty maxDeviations = new SimpleStringProperty(DEFAULT_DEVIATIONS);
    /** Kept across launches, as the fields are. */
    private final BooleanProperty boundedPartialOrder = new SimpleBooleanProperty(true);
    private final ReadOnlyObjectWrapper<State> state = new ReadOnlyObjectWrapper<>(State.IDLE);
    private final ReadOnlyBooleanWrapper available = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("Open a launch file to explore its schedules.");
    private final ReadOnlyStringWrapper coverage = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper("Explore");
    private final ObservableList<Row> findings = FXCollections.observableArrayList();
    private final ObservableList<Row> readOnlyFindings = FXCollections.unmodifiableObservableList(findings);
    private final BooleanBinding running = Bindings.equal(State.RUNNING, state.getReadOnlyProperty());
    private final BooleanBinding canStart = available.getReadOnlyProperty().and(running.not());

    private LaunchSpec launch;
    private SourceMap sourceMap = SourceMap.EMPTY;
    private Path file;
    /** The exploration in progress, or null. */
    private Handle current;
    /** Identifies the latest exploration: reports of any other are stale. */
    private Object token;
    private Explorer.Options options;
    private boolean cancelRequested;

    public ExploreViewModel(Runner runner, Opener opener) {
        this.runner = runner;
        this.opener = opener;
    }

    /**
     * A file was opened (or re-run, or a finding replayed). The same launch keeps the findings:
     * they replay on it. Another launch cancels a search in progress and starts afresh.
     */
    public void setLaunch(OpenedFile f) {
        LaunchSpec next = f == null ? null : f.launch();
        if (next != null && next.equals(launch)) {
            sourceMap = f.sourceMap();
            return;
        }
        abandon();
        launch = next;
        file = f == null ? null : f.file();
        sourceMap = f == null ? SourceMap.EMPTY : f.sourceMap();
        findings.clear();
        title.set("Explore");
        coverage.set("");
        progress.set(0);
        state.set(State.IDLE);
        available.set(launch != null);
        status.set(launch != null ? "Search the schedules of " + name(file) + " for deadlocks, races, UB and hangs."
                : f != null && f.trace() ? "Explore needs a launch file or a PTX: a trace holds one recorded run."
                : "Open a launch file to explore its schedules.");
    }

    /** Starts exploring the open launch with the fields' settings; a bad field is reported instead. */
    public void start() {
        if (!canStart.get()) return;
        Search search;
        try {
            search = search();
        } catch (IllegalArgumentException e) {
            status.set(e.getMessage());
            return;
        }
        options = search.options();
        cancelRequested = false;
        minimizeProgress = "";
        findings.clear();
        title.set("Explore");
        coverage.set("");
        progress.set(0);
        state.set(State.RUNNING);
        status.set("Exploring " + name(file) + (search.boundedPartialOrder() ? " (reduction sound within the bound)" : "") + " ...");
        Object mine = new Object();
        token = mine;
        current = null;
        Handle h = runner.start(launch, search, new Listener() {
            @Override public void progress(long n, int found, long elapsed) {
                if (token == mine) progressed(n, found, elapsed);
            }
            @Override public void done(Explorer.Result r, Map<String, Long> minimalSteps, long elapsed) {
                if (token == mine) finished(r, minimalSteps, elapsed);
            }
            @Override public void failed(String message) {
                if (token == mine) failedWith(message);
            }
            @Override public void minimizing(int finding, int findings, int replays, int budget) {
                if (token == mine) minimizingAt(finding, findings, replays, budget);
            }
        });
        if (state.get() == State.RUNNING) current = h; // an inline runner (tests) may have finished already
    }

    /** Asks the running exploration to stop; it reports what it covered so far. */
    public void cancel() {
        if (state.get() != State.RUNNING || current == null) return;
        cancelRequested = true;
        status.set("Cancelling ...");
        current.cancel();
    }

    /** Opens a finding in the debugger: the same launch replaying its schedule, at its failing step. */
    public void openInDebugger(Row r) {
        if (r == null || launch == null) return;
        Policy p = new SchedulePolicy(Schedule.parse(r.replaySchedule()));
        long fails = r.replayStep();
        opener.open(launch, p, r.replayLanding(), "Replaying the " + (r.minimal() != null ? "minimal " : "") + "schedule Explore found for ["
                + r.code() + "] (" + r.replaySchedule() + "): it fails at step " + fails + "; step back to see how it got there", r.endsRun());
    }

    /** Where "Compare with the default schedule" opens the comparison; null: not offered. */
    public void setComparer(Comparer c) { comparer = c; }

    /** Whether findings can be compared with the default schedule (a comparer is set). */
    public boolean canCompare() { return comparer != null; }

    /** Compares the run under the finding's replayed schedule with the default schedule's run. */
    public void compareWithDefault(Row r) {
        if (r == null || launch == null || comparer == null) return;
        LaunchSpec l = launch;
        Schedule s = Schedule.parse(r.replaySchedule());
        comparer.compare(new CompareViewModel.Side("default schedule", () -> LaunchValidation.validate(l).start(new SchedulePolicy())),
                new CompareViewModel.Side("[" + r.code() + "] schedule " + r.replaySchedule(), () -> LaunchValidation.validate(l).start(new SchedulePolicy(s))));
    }

    /** What Copy puts on the clipboard: the command line that replays the finding. */
    public String copyText(Row r) {
        String launchArg = file == null ? "LAUNCH" : file.toString();
        return "./barrierscope run " + launchArg + " --schedule " + r.replaySchedule();
    }

    @Override
    public void close() { abandon(); }

    /** Cancels the exploration in progress, if any, and forgets it. */
    private void abandon() {
        if (current != null) current.cancel();
        current = null;
        token = null;
    }

    /** Where minimising is, for the progress text: " · finding 1 of 2, replay 14 of at most 2000", or empty. */
    private String minimizeProgress = "";
    private long lastSchedules;
    private int lastFound;
    private long lastElapsed;

    private void minimizingAt(int finding, int findings, int replays, int budget) {
        minimizeProgress = " · " + (findings > 1 ? "finding " + (finding + 1) + " of " + findings + ", " : "") + "replay " + replays
                + " of at most " + budget;
        progressed(lastSchedules, lastFound, lastElapsed);
    }

    private void progressed(long n, int found, long elapsedMillis) {
        lastSchedules = n;
        lastFound = found;
        lastElapsed = elapsedMillis;
        progress.set(fraction(n, elapsedMillis, options));
        if (cancelRequested) return;
        if (!minimizeProgress.isEmpty() || minimizing(n, found, elapsedMillis, options)) {
            // The search phase is over (its budget is spent); the findings are minimised before the result comes.
            status.set("Explored " + plural(n, "schedule") + " · " + plural(found, "finding") + " · minimising "
                    + (found == 1 ? "its schedule" : "their schedules") + " (at most " + seconds(options.minimizeMillis())
                    + "; Cancel keeps the schedules as found)" + minimizeProgress + " ...");
        } else {
            status.set("Explored " + n + " of " + options.schedules() + " schedules" + time(elapsedMillis, options)
                    + " · " + plural(found, "finding"));
        }
    }

    private void finished(Explorer.Result r, Map<String, Long> minimalSteps, long elapsedMillis) {
        current = null;
        token = null;
        List<Row> rows = new ArrayList<>();
        for (Finding f : r.findings()) rows.add(row(f, sourceMap, minimalSteps));
        findings.setAll(rows);
        Coverage c = r.coverage();
        coverage.set(coverageText(c, elapsedMillis));
        boolean cancelled = Coverage.CANCELLED.equals(c.stoppedBy()) || cancelRequested;
        state.set(cancelled ? State.CANCELLED : State.DONE);
        progress.set(cancelled ? fraction(c.schedules(), elapsedMillis, options) : 1);
        title.set(rows.isEmpty() ? "Explore" : "Explore (" + rows.size() + ")");
        status.set((cancelled ? "Cancelled after " : "Explored ") + plural(c.schedules(), "schedule") + ": "
                + (rows.isEmpty() ? "no findings" + covered(c, options == null || options.symmetry()) : plural(rows.size(), "finding") + "; open one to replay it in the debugger"));
    }

    /** What a finding-free search showed, as the console and report state it ({@link Coverage#proven}); empty before bound 1. */
    static String covered(Coverage c, boolean symmetry) {
        String p = c.proven(symmetry);
        return p.isEmpty() ? "" : "; covered: " + p;
    }

    private void failedWith(String message) {
        current = null;
        token = null;
        state.set(State.FAILED);
        progress.set(0);
        String first = message == null ? "failed" : message.lines().findFirst().orElse(message);
        status.set("Explore failed: " + first);
    }

    /** The fields and the reduction chosen, checked as the command line checks them. */
    Search search() { return new Search(options(), boundedPartialOrder.get()); }

    /** The fields as options, checked as the command line checks them. */
    Explorer.Options options() {
        long n = parseLong(schedules.get(), "The schedule budget");
        if (n < 1) throw new IllegalArgumentException("The schedule budget must be at least 1");
        double t;
        try {
            t = Double.parseDouble(timeLimit.get().strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The time limit must be a number of seconds, not '" + timeLimit.get().strip() + "'");
        }
        if (!io.barrierscope.explore.Explorer.Options.validSeconds(t)) throw new IllegalArgumentException("The time limit must be in 0..1e9 seconds (0: none)");
        long s = parseLong(seed.get(), "The seed");
        long k = parseLong(maxDeviations.get(), "The deviation bound");
        if (k < 0 || k > 8) throw new IllegalArgumentException("The deviation bound must be in 0..8");
        return new Explorer.Options(n, Explorer.Options.millis(t), s, (int) k, launch.maxSteps());
    }

    private static long parseLong(String text, String what) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a whole number, not '" + text.strip() + "'");
        }
    }

    /**
     * Whether a progress report means the search is minimising: its schedule budget or time limit
     * is spent, so no schedule is left to run, and there is something to minimise. (A search that
     * exhausts its bound early minimises too; the engine's progress does not say when.)
     */
    static boolean minimizing(long schedulesDone, int found, long elapsedMillis, Explorer.Options o) {
        boolean searchOver = schedulesDone >= o.schedules() || (o.timeLimitMillis() > 0 && elapsedMillis >= o.timeLimitMillis());
        return searchOver && found > 0 && o.minimize();
    }

    /** The share done: schedules of the budget or time of the limit, whichever is further (the first reached stops it). */
    static double fraction(long schedulesDone, long elapsedMillis, Explorer.Options o) {
        double f = (double) schedulesDone / o.schedules();
        if (o.timeLimitMillis() > 0) f = Math.max(f, (double) elapsedMillis / o.timeLimitMillis());
        return Math.min(1, Math.max(0, f));
    }

    static Row row(Finding f, SourceMap map) { return row(f, map, Map.of()); }

    static Row row(Finding f, SourceMap map, Map<String, Long> minimalSteps) {
        // The step as the command line and the Diagnostics panel number it (Row.landing() is where it opens).
        Minimization mn = f.minimized();
        Minimal m = null;
        if (mn != null) {
            // A runner that did not replay the minimal schedule: land at the found one's step.
            long step = minimalSteps.getOrDefault(f.cause(), f.minimalStep());
            m = new Minimal(mn.minimal().toString(), step, mn.minimalSize(), mn.foundSize(), mn.minimalPreemptions(),
                    mn.foundPreemptions(), mn.complete(), mn.decisive().stream().map(Minimization.Decision::text).toList());
        }
        return new Row(f.kind(), f.code(), f.cause(), f.message(), location(f.ptxLines(), map), f.step(),
                f.schedule().toString(), f.foundAtSchedule(), f.outcome(), m);
    }

    /** "PTX line 89 (kernel.cu:33)", "PTX lines 65, 80 (kernel.cu:22, kernel.cu:35)". */
    static String location(List<Integer> ptxLines, SourceMap map) {
        if (ptxLines.isEmpty()) return "no line";
        StringBuilder sb = new StringBuilder(ptxLines.size() == 1 ? "PTX line " : "PTX lines ");
        List<String> cuda = new ArrayList<>();
        for (int i = 0; i < ptxLines.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(ptxLines.get(i));
            CudaLoc c = map.cudaOf(ptxLines.get(i));
            if (c != null) cuda.add(shortFile(c.file()) + ":" + c.line());
        }
        if (!cuda.isEmpty()) sb.append(" (").append(String.join(", ", cuda)).append(')');
        return sb.toString();
    }

    static String coverageText(Coverage c, long elapsedMillis) {
        return plural(c.schedules(), "schedule") + " (" + c.systematic() + " systematic, " + c.random() + " random) · "
                + plural(c.distinctOutcomes(), "distinct outcome") + " · " + plural(c.decisionPoints(), "decision point")
                + " · " + c.boundText(false) + " · " + c.prunedByState()
                + " pruned as explored · " + c.skippedBySymmetry() + " skipped as symmetric · stopped: " + stopText(c) + " · " + seconds(elapsedMillis);
    }

    private static String stopText(Coverage c) {
        // Exhausted with nothing left at any bound (the exhaustion pass, or a bound with nothing new): not only within the bound.
        if (Coverage.EXHAUSTED.equals(c.stoppedBy()) && c.allSchedules()) {
            return c.skippedByPartialOrder() > 0 ? "all interleavings explored, up to equivalence" : "all schedules explored";
        }
        return switch (c.stoppedBy()) {
            case Coverage.EXHAUSTED -> "every schedule within the bound explored";
            case Coverage.SCHEDULE_BUDGET -> "schedule budget reached";
            case Coverage.TIME_LIMIT -> "time limit reached";
            case Coverage.CANCELLED -> "cancelled";
            default -> c.stoppedBy();
        };
    }

    private static String time(long elapsedMillis, Explorer.Options o) {
        return " · " + seconds(elapsedMillis) + (o.timeLimitMillis() > 0 ? " of " + seconds(o.timeLimitMillis()) : "");
    }

    private static String seconds(long millis) { return String.format(Locale.ROOT, "%.1f s", millis / 1000.0); }

    private static String plural(long n, String noun) { return n + " " + noun + (n == 1 ? "" : "s"); }

    private static String shortFile(String f) {
        int slash = Math.max(f.lastIndexOf('/'), f.lastIndexOf('\\'));
        return slash >= 0 ? f.substring(slash + 1) : f;
    }

    private static String name(Path p) {
        return p == null || p.getFileName() == null ? "the launch" : p.getFileName().toString();
    }

    // Properties -----------------------------------------------------------------------------

    /** The fields, as typed; checked on Start. */
    public StringProperty schedulesProperty() { return schedules; }
    public StringProperty timeLimitProperty() { return timeLimit; }
    public StringProperty seedProperty() { return seed; }
    public StringProperty maxDeviationsProperty() { return maxDeviations; }
    /** The reduction sound within the bound (explore's default) instead of source sets ({@code explore --source-sets}); on by default. */
    public BooleanProperty boundedPartialOrderProperty() { return boundedPartialOrder; }
    public ReadOnlyObjectProperty<State> stateProperty() { return state.getReadOnlyProperty(); }
    /** A launch is open that can be explored (not a trace). */
    public ReadOnlyBooleanProperty availableProperty() { return available.getReadOnlyProperty(); }
    public BooleanBinding runningProperty() { return running; }
    public BooleanBinding canStartProperty() { return canStart; }
    /** 0..1: schedules of the budget or time of the limit, whichever is further. */
    public ReadOnlyDoubleProperty progressProperty() { return progress.getReadOnlyProperty(); }
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
    /** What the last exploration covered, "" before one ends. */
    public ReadOnlyStringProperty coverageProperty() { return coverage.getReadOnlyProperty(); }
    /** The tab's title: "Explore (2)" with findings. */
    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    public ObservableList<Row> findings() { return readOnlyFindings; }
}
