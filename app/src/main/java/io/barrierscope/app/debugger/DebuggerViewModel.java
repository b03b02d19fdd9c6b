package io.barrierscope.app.debugger;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.app.Locations;
import io.barrierscope.app.barriers.BarriersViewModel;
import io.barrierscope.app.breakpoints.BreakpointsViewModel;
import io.barrierscope.app.classroom.AppearanceViewModel;
import io.barrierscope.app.console.ConsoleViewModel;
import io.barrierscope.app.deadlock.DeadlockViewModel;
import io.barrierscope.app.diagnostics.DiagnosticsViewModel;
import io.barrierscope.app.compare.CompareViewModel;
import io.barrierscope.app.compare.FixedTwin;
import io.barrierscope.app.explore.ExploreRunner;
import io.barrierscope.app.explore.ExploreViewModel;
import io.barrierscope.app.files.RecentFiles;
import io.barrierscope.app.lesson.LessonViewModel;
import io.barrierscope.app.session.BarrierDetail;
import io.barrierscope.app.session.BarrierKey;
import io.barrierscope.app.session.BreakpointRow;
import io.barrierscope.app.session.ConsoleLine;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Inspection;
import io.barrierscope.app.session.LaunchSettings;
import io.barrierscope.app.session.Move;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.app.source.CudaSourceViewModel;
import io.barrierscope.app.source.SourceViewModel;
import io.barrierscope.app.threads.RegistersViewModel;
import io.barrierscope.app.threads.SharedMemoryViewModel;
import io.barrierscope.app.threads.ThreadsViewModel;
import io.barrierscope.app.timeline.TimelineModel;
import io.barrierscope.app.timeline.TimelineViewModel;
import io.barrierscope.app.welcome.WelcomeViewModel;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The debugger window's state and commands. It owns the {@link DebugSession}, turns its
 * results into display text, feeds the child view models and links them: a click in either
 * source pane shows the other's line, and whatever points at a place in the program (a thread,
 * a diagnostic, a timeline event, a console line, a deadlock box, a barrier) goes through the
 * one {@link Selection}. Results arrive on the UI executor's thread; commands are called from
 * the same thread.
 */
public final class DebuggerViewModel implements DebugSession.Listener, AutoCloseable {
    static final String APP_NAME = "BarrierScope";

    private final DebugSession session;
    private final RecentFiles recent;
    private final SourceViewModel source = new SourceViewModel();
    private final CudaSourceViewModel cuda = new CudaSourceViewModel();
    private final BarriersViewModel barriers = new BarriersViewModel();
    private final ThreadsViewModel threads = new ThreadsViewModel();
    private final RegistersViewModel registers = new RegistersViewModel();
    private final SharedMemoryViewModel shared = new SharedMemoryViewModel();
    private final io.barrierscope.app.threads.GlobalMemoryViewModel global = new io.barrierscope.app.threads.GlobalMemoryViewModel();
    private final DiagnosticsViewModel diagnosticsList = new DiagnosticsViewModel();
    private final ConsoleViewModel console = new ConsoleViewModel();
    private final DeadlockViewModel deadlock = new DeadlockViewModel();
    private final LessonViewModel lesson = new LessonViewModel();
    private final WelcomeViewModel welcome = new WelcomeViewModel();
    private final AppearanceViewModel appearance = new AppearanceViewModel();
    private final FocusViewModel focus = new FocusViewModel();
    private final FrozenPanesViewModel frozen = new FrozenPanesViewModel();
    /** The step the heavy panes show (they skip a run's progress snapshots). */
    private long panesStep;
    private final io.barrierscope.app.tensor.TensorViewModel tensor = new io.barrierscope.app.tensor.TensorViewModel();
    private final BreakpointsViewModel breakpoints;
    private final ExploreViewModel explore;
    private final Selection selection;

    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(APP_NAME);
    private final ReadOnlyStringWrapper notification = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loaded = new ReadOnlyBooleanWrapper(false);
    /** A file is loading (parse, compile, first steps) beside the current session; Cancel drops it. */
    private final ReadOnlyBooleanWrapper opening = new ReadOnlyBooleanWrapper(false);
    /** The file being opened, for the cancel message. */
    private Path openingFile;
    /** The status bar's run state: running or not, position, progress, outcome. */
    private final RunStatus status = new RunStatus();
    private final ReadOnlyBooleanWrapper running = status.running;
    private final ReadOnlyLongWrapper now = status.now;
    private final ReadOnlyStringWrapper runPolicy = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Open a launch file, a .ptx or a trace.");
    private final ReadOnlyStringWrapper report = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper reportVisible = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyObjectWrapper<Panel.Request> panel = new ReadOnlyObjectWrapper<>(Panel.Request.NONE);
    private final ReadOnlyObjectWrapper<TimelineViewModel> timeline = new ReadOnlyObjectWrapper<>();
    private final ObjectProperty<String> policy = new SimpleObjectProperty<>("round-robin");
    private final StringProperty seed = new SimpleStringProperty("0");

    private final BooleanBinding canStep = loaded.and(running.not()).and(status.finished.not());
    private final BooleanBinding canStepBack = loaded.and(running.not()).and(status.atStart.not());
    private final BooleanBinding canPause = running.getReadOnlyProperty().and(loaded);
    private final BooleanBinding idle = loaded.and(running.not());

    private Path openFile;
    /** The open bug sample's fixed twin, null when it has none ("Compare with the fix"). */
    private final ReadOnlyObjectWrapper<Path> fixedTwin = new ReadOnlyObjectWrapper<>();
    /** The launch's clusters, CTAs and warps at the last snapshot (to find a deadlock box's warp). */
    private io.barrierscope.app.session.ThreadsState shape = io.barrierscope.app.session.ThreadsState.EMPTY;

    /** A window whose recent files last as long as it does (tests). */
    public DebuggerViewModel(Function<DebugSession.Listener, DebugSession> sessionFactory) {
        this(sessionFactory, RecentFiles.inMemory());
    }

    /**
     * @param sessionFactory makes the session this view model listens to; the app passes one
     *                       with a worker thread, tests one with inline executors
     * @param recent         the files opened lately
     */
    public DebuggerViewModel(Function<DebugSession.Listener, DebugSession> sessionFactory, RecentFiles recent) {
        this(sessionFactory, recent, ExploreRunner.inline());
    }

    /**
     * @param exploreRunner runs Explore's searches: the app's on a thread of their own
     *                      ({@code new ExploreRunner(Platform::runLater)}), tests' inline
     */
    public DebuggerViewModel(Function<DebugSession.Listener, DebugSession> sessionFactory, RecentFiles recent,
                             ExploreViewModel.Runner exploreRunner) {
        this.session = sessionFactory.apply(this);
        tensor.setSource(session::inspectTensor);
        this.recent = recent;
        explore = new ExploreViewModel(exploreRunner, (launch, p, step, note, toEnd) -> {
            message.set("Opening the finding's schedule at step " + step + " ...");
            session.openWithPolicy(launch, p, step, note, toEnd);
        });
        breakpoints = new BreakpointsViewModel(new BreakpointsViewModel.Actions() {
            @Override public void add(String spec) { session.addBreakpoint(spec); }
            @Override public void remove(int id) { session.removeBreakpoint(id); }
            @Override public void enable(int id, boolean on) { session.enableBreakpoint(id, on); }
        });
        source.setOnLineClicked(cuda::showPtxLine);
        selection = new Selection(threads, barriers, source, cuda, timeline::get, now::get, idle::get, new Selection.Session() {
            @Override public void inspect(int slot) { session.inspect(slot); }
            @Override public void selectBarrier(BarrierKey key) { session.selectBarrier(key); }
            @Override public void seek(long step) { DebuggerViewModel.this.seek(step); }
        });
        // The selected barrier: its roster from the session, its history a place to seek to,
        // its waiters highlighted in the PTX source and the timeline.
        barriers.setOnSelect(selection::selectBarrier);
        barriers.setOnSeek(this::seek);
        barriers.waiterLinesProperty().addListener((o, a, lines) -> source.setWaiterLines(lines));
        barriers.waiterWarpsProperty().addListener((o, a, warps) -> {
            if (timeline.get() != null) timeline.get().highlightedLanesProperty().set(warps);
        });
        source.setOnToggleBreakpoint(session::toggleLineBreakpoint);
        global.setWriterFinder((b, i) -> session.goToLastWrite(b, i, global::told));
        cuda.setOnLineClicked(source::showLinked);
        cuda.setOnToggleBreakpoint(session::toggleCudaBreakpoint);
        // Whatever points at a place selects it everywhere.
        threads.setOnSelect(n -> selection.select(Place.of(n)));
        diagnosticsList.setOnActivate(r -> selection.select(Place.of(r)));
        console.setOnActivate(l -> selection.select(Place.of(l)));
        deadlock.setOnPick(n -> selection.select(Place.of(n, shape)));
        barriers.setOnPick(who -> selection.select(Place.of(who, barriers.selectedProperty().get())));
        // The focus chooser picks a warp as a lane click does; a warp selected anywhere is focused.
        focus.setOnPick(w -> selection.select(Place.warpAt(w, -1)));
        selection.placeProperty().addListener((o, a, p) -> {
            if (p != null) focus.follow(p.warp() >= 0 ? p.warp() : p.slot() >> 5);
        });
        lesson.setOnOpen(this::open);
        lesson.setOnMoment(this::showMoment);
        welcome.setOnOpen(this::open);
    }

    // Commands -----------------------------------------------------------------------------

    /** Opens a launch file, a trace, or a bare PTX with the command line's default launch. */
    public void open(Path file) { open(file, null); }

    /** Opens a file; a bare PTX or CUDA file is launched with {@code ptxSettings} (null: the defaults). */
    public void open(Path file, LaunchSettings ptxSettings) {
        welcome.hide();
        message.set("Opening " + file + " ...");
        opensRequested++;
        openingFile = file;
        opening.set(true);
        session.open(file, ptxSettings);
    }

    /** Drops the open in progress: the session shown stays as it was (or the welcome screen comes back). */
    public void cancelOpen() {
        if (!opening.get()) return;
        session.cancelOpen();
        opening.set(false);
        if (opensRequested > 0) opensRequested--;
        if (!loaded.get()) {
            message.set("Cancelled opening " + openingFile);
            welcome.show();
        } else {
            message.set("Cancelled opening " + openingFile + " (still showing " + title.get().replace(" — " + APP_NAME, "") + ")");
        }
    }

    /** Whether a file is loading (the status bar shows a busy indicator and Cancel). */
    public javafx.beans.property.ReadOnlyBooleanProperty openingProperty() { return opening.getReadOnlyProperty(); }

    /**
     * Opens asked for and not yet answered: an open (even of the file already open) starts afresh,
     * as the session does; only a re-run keeps the chosen thread.
     */
    private int opensRequested;

    /** Whether opening this file should first ask for launch settings (a bare PTX or CUDA file: no launch file). */
    public static boolean asksForLaunch(Path file) {
        Path name = file.getFileName();
        String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".ptx") || n.endsWith(".cu");
    }

    public void step() { move(Move.STEP); }

    /** Continues to the next breakpoint or the end. */
    public void run() { move(Move.CONTINUE); }

    /** Any move; ignored when it cannot go that way now (the menus and keys are disabled then too). */
    public void move(Move m) {
        if (!(m.forward ? canStep : canStepBack).get()) return;
        if (m == Move.CONTINUE) runStarted();
        session.move(m);
    }

    /** A run begins: the status says so and the heavy panes keep their moment under their markers. */
    private void runStarted() {
        status.started();
        frozen.running(panesStep);
    }

    /** No run goes on: the status says so and every pane shows the present moment. */
    private void runStopped() {
        status.stopped();
        frozen.allCurrent();
    }

    /** A lesson's moment: sets its breakpoint and runs to its hit (see {@link DebugSession#showBreakpoint}). */
    public void showMoment(String spec) {
        if (!idle.get()) return;
        runStarted();
        message.set("Showing the moment " + spec + " ...");
        session.showBreakpoint(spec);
    }

    /** Pause asks the engine to stop at its next check; the status says "pausing" at once, in this pulse. */
    public void pause() {
        if (status.pause()) session.pause();
    }

    /** Goes to the state after {@code step} warp steps. */
    public void seek(long step) {
        if (idle.get()) session.seek(Math.max(0, step));
    }

    /** Back to step 0 of the recorded run. */
    public void reset() {
        if (loaded.get()) session.reset();
    }

    /** Runs the launch again under the chosen policy and seed (a new recording; breakpoints stay). */
    public void rerun() {
        if (!loaded.get()) return;
        long s;
        try {
            s = Long.parseLong(seed.get().strip());
        } catch (NumberFormatException e) {
            message.set("The seed must be a whole number, not '" + seed.get().strip() + "'");
            return;
        }
        message.set("Re-running with policy " + policy.get() + ", seed " + s + " ...");
        session.rerun(policy.get(), s);
    }

    /** F9: sets or removes a breakpoint on the line last clicked in the PTX pane, else the followed warp's. */
    public void toggleBreakpointHere() {
        if (!loaded.get()) return;
        int line = source.linkedLinesProperty().get().stream().min(Integer::compare).orElse(source.getCurrentLine());
        if (line > 0) session.toggleLineBreakpoint(line);
    }

    public void saveTrace(Path file) {
        if (loaded.get()) session.saveTrace(file);
    }

    public void exportChrome(Path file) {
        if (loaded.get()) session.exportChrome(file);
    }

    /** Brings a panel to the front (keyboard: Ctrl+1..8, in the order of the tabs). */
    public void showPanel(Panel p) { panel.set(panel.get().next(p)); }

    @Override
    public void close() {
        explore.close();
        session.close();
    }

    // Session results ------------------------------------------------------------------------

    @Override
    public void opened(OpenedFile file) {
        opening.set(false);
        global.clear(); // a new run: nothing to compare its buffers with
        // A re-run keeps the panel and thread the user is on; an open starts afresh, even of the same file.
        boolean newFile = opensRequested > 0 || !file.file().equals(openFile);
        if (opensRequested > 0) opensRequested--;
        openFile = file.file();
        fixedTwin.set(FixedTwin.of(openFile).orElse(null));
        title.set(Locations.shortName(file.file()) + " — " + APP_NAME);
        source.load(file);
        cuda.load(file);
        lesson.load(file.lessonFile(), file.lesson());
        if (!lesson.momentSpecs().isEmpty()) session.checkBreakpoints(lesson.momentSpecs(), lesson::setRefused);
        barriers.clear();
        if (newFile) {
            // A re-run keeps the chosen thread (the session does too); a new file starts afresh.
            selection.clear();
            threads.clear();
            registers.clear();
            shared.clear();
            recent.add(file.file());
        }
        breakpoints.stoppedAt(-1);
        diagnosticsList.clear();
        console.clear();
        deadlock.clear();
        report.set("");
        reportVisible.set(false);
        runStopped();
        loaded.set(true);
        // A replayed schedule is no policy Re-run knows: keep the one chosen before.
        if (LaunchSettings.POLICIES.contains(file.policy())) policy.set(file.policy());
        seed.set(Long.toString(file.seed()));
        runPolicy.set(StatusTexts.policyText(file.policy(), file.seed()));
        explore.setLaunch(file);
        message.set(!file.note().isEmpty() ? file.note()
                : "Opened " + file.file() + " (" + file.ptxLines().size() + " PTX lines)");
        if (newFile) showPanel(file.lesson() != null ? Panel.LESSON : Panel.THREADS);
    }

    /**
     * A snapshot from the session. While a run goes on (a progress snapshot) only what must move
     * is updated: the status line (outcome, step counter, progress, followed warp) and the
     * timeline's position; the heavy panes (sources, threads, barriers, inspector, diagnostics,
     * console, deadlock) keep the moment they showed and take the stop's snapshot when the run
     * pauses or ends. Each frame of a run then repaints a few labels and the timeline instead of
     * most of the window, and every pane still shows one whole snapshot, never two mixed.
     */
    @Override
    public void updated(Snapshot s) {
        boolean progressOnly = s.cause() == Snapshot.Cause.RUN_PROGRESS;
        if (!progressOnly) {
            updatePanes(s);
            panesStep = s.steps();
        }
        Snapshot.Travel t = s.travel();
        boolean endedNow = status.update(s);
        if (timeline.get() != null) timeline.get().positionProperty().set(s.steps());
        if (running.get()) frozen.running(panesStep); else frozen.allCurrent();
        if (!t.stop().isEmpty()) message.set(t.stop());
        else if (!s.lastAction().isEmpty() && s.cause() != Snapshot.Cause.OPENED) message.set(s.lastAction());
        if (progressOnly) return;
        breakpoints.stoppedAt(t.hitBreakpoint());
        // The report describes the end of the run: shown there, put away elsewhere.
        report.set(s.report() != null ? s.report() : "");
        reportVisible.set(s.report() != null);
        if (endedNow) showPanel(StatusTexts.panelForEnd(s.outcome()));
        selection.updated(); // last: a place that went to this step reads its thread's rows
    }

    /** The panes that show the machine at one moment: all from the same snapshot, in one go. */
    private void updatePanes(Snapshot s) {
        Snapshot.Travel t = s.travel();
        source.update(s);
        cuda.update(s.focusLoc(), s.focusLine());
        barriers.update(s);
        if (t.hitBreakpoint() >= 0) selection.dropThread(); // the session now follows the hit's warp
        threads.update(s.threads());
        shape = s.threads();
        Inspection seen = s.inspection();
        focus.update(s.threads(), seen != null && seen.slot() >= 0 ? seen.slot() >> 5 : s.focusWarp());
        inspected(s.inspection());
        // At the run's end every recorded diagnostic has fired, the deadlock found there included.
        diagnosticsList.update(t.recorded(), s.finished() ? Long.MAX_VALUE : s.steps(), s.threads().grid());
        console.update(s.steps());
        deadlock.update(s.deadlock());
    }

    @Override
    public void inspected(Inspection i) {
        registers.update(i);
        shared.update(i);
        tensor.refresh();
        if (i != null && i.slot() >= 0) focus.follow(i.slot() >> 5);
    }

    @Override
    public void breakpoints(List<BreakpointRow> rows) {
        breakpoints.update(rows);
        source.setBreakpoints(rows);
        cuda.setBreakpoints(rows);
    }

    @Override
    public void breakpointRefused(String text) {
        breakpoints.refused(text);
        message.set(text);
    }

    @Override
    public void saved(String text) { message.set(text); }

    @Override
    public void printed(List<ConsoleLine> lines) { console.append(lines); }

    @Override
    public void timeline(TimelineModel model) {
        TimelineViewModel t = new TimelineViewModel(model);
        t.onSeekProperty().set(this::seek); // the scrubber
        t.onPickProperty().set(h -> selection.select(Place.warpAt(model.warpOfLane(h.lane()), h.seekStep())));
        selection.timelineChanged(t);
        t.positionProperty().set(now.get());
        t.highlightedLanesProperty().set(barriers.waiterWarpsProperty().get());
        timeline.set(t);
    }

    @Override
    public void barrierDetail(BarrierDetail d) { barriers.showDetail(d); }

    @Override
    public void timelineGrew() {
        if (timeline.get() != null) timeline.get().refresh();
    }

    /** How far the open in progress has come, in the status line (a trace's replay can take a while). */
    @Override
    public void openProgress(Path path, String phase, long done, long total) {
        if (!opening.get()) return;
        String what = phase.equals("replay") ? "replaying warp step " + done + " of " + total
                : "reading the PTX (" + (total <= 0 ? 0 : done * 100 / total) + "%)";
        message.set("Opening " + path + ": " + what + " ...");
    }

    /**
     * A file could not be opened: the session shown before stays as it was (title, sources,
     * status); the status bar and a notification say what failed, where.
     */
    @Override
    public void openFailed(Path path, String text) {
        opening.set(false);
        if (opensRequested > 0) opensRequested--;
        if (!loaded.get()) {
            failed(text);
            return;
        }
        String firstLine = text == null ? "failed" : text.lines().findFirst().orElse(text);
        String shown = title.get().replace(" — " + APP_NAME, "");
        message.set("Could not open: " + firstLine + " (still showing " + shown + ")");
        notification.set("Could not open " + path + "\n" + (text == null ? "" : text)
                + "\nThe session of " + shown + " is unchanged.");
    }

    /** The latest notification to show above the panes ("" for none). */
    public ReadOnlyStringProperty notificationProperty() { return notification.getReadOnlyProperty(); }

    /** The user closed the notification. */
    public void dismissNotification() { notification.set(""); }

    @Override
    public void failed(String text) {
        opening.set(false);
        runStopped(); // the panes keep their moment, and the run no longer goes on
        String firstLine = text == null ? "failed" : text.lines().findFirst().orElse(text);
        message.set(firstLine);
        report.set(text == null ? "" : text);
        reportVisible.set(true);
        showPanel(Panel.REPORT);
        if (!loaded.get()) status.outcome.set("no file");
    }

    // Properties -----------------------------------------------------------------------------

    public SourceViewModel source() { return source; }
    public CudaSourceViewModel cuda() { return cuda; }
    public BarriersViewModel barriers() { return barriers; }
    public ThreadsViewModel threads() { return threads; }
    public RegistersViewModel registers() { return registers; }
    public SharedMemoryViewModel shared() { return shared; }
    public io.barrierscope.app.tensor.TensorViewModel tensor() { return tensor; }
    public io.barrierscope.app.threads.GlobalMemoryViewModel global() { return global; }

    @Override
    public void globalMemory(io.barrierscope.app.session.GlobalBuffers g) { global.update(g); }
    public DiagnosticsViewModel diagnosticsList() { return diagnosticsList; }
    public ConsoleViewModel console() { return console; }
    /** The window's one selection (thread, lane, barrier, line, step). */
    public Selection selection() { return selection; }
    public DeadlockViewModel deadlock() { return deadlock; }
    public LessonViewModel lesson() { return lesson; }
    public WelcomeViewModel welcome() { return welcome; }
    public AppearanceViewModel appearance() { return appearance; }
    /** The toolbar's focus chooser: the warp F11 and F8 act on. */
    public FocusViewModel focus() { return focus; }
    /** The markers over the panes that show an older moment than the status line during a run. */
    public FrozenPanesViewModel frozen() { return frozen; }
    public BreakpointsViewModel breakpoints() { return breakpoints; }
    public RecentFiles recent() { return recent; }
    /** The open run's timeline (a new one per run), or null before any. */
    public ReadOnlyObjectProperty<TimelineViewModel> timelineProperty() { return timeline.getReadOnlyProperty(); }
    /** The file last opened successfully, or null. */
    public Path openFile() { return openFile; }

    /** The open bug sample's fixed twin, null when it has none. */
    public ReadOnlyObjectProperty<Path> fixedTwinProperty() { return fixedTwin.getReadOnlyProperty(); }

    /** Compares the bug sample {@code bug} with its fixed twin through {@link ExploreViewModel.Comparer} (the explore one's). */
    public void compareWithFix(Path bug, ExploreViewModel.Comparer comparer) {
        Path fix = bug == null ? null : FixedTwin.of(bug).orElse(null);
        if (fix == null || comparer == null) return;
        comparer.compare(new CompareViewModel.Side(FixedTwin.name(bug), () -> LaunchValidation.validate(bug).start()),
                new CompareViewModel.Side(FixedTwin.name(fix), () -> LaunchValidation.validate(fix).start()));
    }

    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty loadedProperty() { return loaded.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty runningProperty() { return running.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty finishedProperty() { return status.finished.getReadOnlyProperty(); }
    /** The current position (warp steps executed) and the furthest one recorded. */
    public ReadOnlyLongProperty nowProperty() { return now.getReadOnlyProperty(); }
    public ReadOnlyLongProperty frontierProperty() { return status.frontier.getReadOnlyProperty(); }
    public ReadOnlyStringProperty outcomeProperty() { return status.outcome.getReadOnlyProperty(); }
    /** A run's progress for the status bar: 0 when idle, -1 when the end is not known yet, else the share done. */
    public ReadOnlyDoubleProperty progressProperty() { return status.progress.getReadOnlyProperty(); }
    public ReadOnlyStringProperty stepsProperty() { return status.steps.getReadOnlyProperty(); }
    public ReadOnlyStringProperty positionProperty() { return status.position.getReadOnlyProperty(); }
    public ReadOnlyStringProperty diagnosticsProperty() { return status.diagnostics.getReadOnlyProperty(); }
    /** How the open run is scheduled, e.g. "policy random · seed 7" ("" before a file). */
    public ReadOnlyStringProperty runPolicyProperty() { return runPolicy.getReadOnlyProperty(); }
    public ReadOnlyStringProperty messageProperty() { return message.getReadOnlyProperty(); }
    public ReadOnlyStringProperty reportProperty() { return report.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty reportVisibleProperty() { return reportVisible.getReadOnlyProperty(); }
    /** The latest request to bring a panel to the front. */
    public ReadOnlyObjectProperty<Panel.Request> panelProperty() { return panel.getReadOnlyProperty(); }
    /** The policy for the next re-run; set from the open run. */
    public ObjectProperty<String> policyProperty() { return policy; }
    /** The seed for the next re-run, as typed. */
    public StringProperty seedProperty() { return seed; }
    /** Forward moves are possible: a file is open, no run is going on, and the position is not the end. */
    public BooleanBinding canStepProperty() { return canStep; }
    /** Backward moves are possible: a file is open, no run is going on, and the position is not the start. */
    public BooleanBinding canStepBackProperty() { return canStepBack; }
    public BooleanBinding canPauseProperty() { return canPause; }
    /** The Explore panel. */
    public ExploreViewModel explore() { return explore; }
    /** A file is open and no run is going on (seek, re-run, save). */
    public BooleanBinding idleProperty() { return idle; }
}
