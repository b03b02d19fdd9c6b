package io.barrierscope.app.debugger;

import io.barrierscope.app.Locations;
import io.barrierscope.app.barriers.BarriersViewModel;
import io.barrierscope.app.classroom.AppearanceViewModel;
import io.barrierscope.app.deadlock.DeadlockViewModel;
import io.barrierscope.app.diagnostics.DiagnosticsViewModel;
import io.barrierscope.app.lesson.LessonViewModel;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.Inspection;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.app.source.CudaSourceViewModel;
import io.barrierscope.app.source.SourceViewModel;
import io.barrierscope.app.threads.RegistersViewModel;
import io.barrierscope.app.threads.SharedMemoryViewModel;
import io.barrierscope.app.threads.ThreadNode;
import io.barrierscope.app.threads.ThreadsViewModel;
import io.barrierscope.app.welcome.WelcomeViewModel;
import io.barrierscope.exec.Outcome;
import java.nio.file.Path;
import java.util.function.Function;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The debugger window's state and commands. It owns the {@link DebugSession}, turns its
 * results into display text, feeds the child view models and links them: whatever points at a
 * place in the program (a click in either source pane, a thread, a diagnostic, a deadlock node)
 * shows that place in both source panes. Results arrive on the UI executor's thread; commands
 * are called from the same thread.
 */
public final class DebuggerViewModel implements DebugSession.Listener, AutoCloseable {
    static final String APP_NAME = "BarrierScope";

    private final DebugSession session;
    private final SourceViewModel source = new SourceViewModel();
    private final CudaSourceViewModel cuda = new CudaSourceViewModel();
    private final BarriersViewModel barriers = new BarriersViewModel();
    private final ThreadsViewModel threads = new ThreadsViewModel();
    private final RegistersViewModel registers = new RegistersViewModel();
    private final SharedMemoryViewModel shared = new SharedMemoryViewModel();
    private final DiagnosticsViewModel diagnosticsList = new DiagnosticsViewModel();
    private final DeadlockViewModel deadlock = new DeadlockViewModel();
    private final LessonViewModel lesson = new LessonViewModel();
    private final WelcomeViewModel welcome = new WelcomeViewModel();
    private final AppearanceViewModel appearance = new AppearanceViewModel();

    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(APP_NAME);
    private final ReadOnlyBooleanWrapper loaded = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyStringWrapper outcome = new ReadOnlyStringWrapper("no file");
    private final ReadOnlyStringWrapper steps = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper position = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper diagnostics = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Open a launch file or a .ptx file.");
    private final ReadOnlyStringWrapper report = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper reportVisible = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyObjectWrapper<Panel.Request> panel = new ReadOnlyObjectWrapper<>(Panel.Request.NONE);

    private final BooleanBinding canStep = loaded.and(running.not()).and(finished.not());
    private final BooleanBinding canPause = running.getReadOnlyProperty().and(loaded);

    private Path openFile;

    /**
     * @param sessionFactory makes the session this view model listens to; the app passes one
     *                       with a worker thread, tests one with inline executors
     */
    public DebuggerViewModel(Function<DebugSession.Listener, DebugSession> sessionFactory) {
        this.session = sessionFactory.apply(this);
        source.setOnLineClicked(cuda::showPtxLine);
        cuda.setOnLineClicked(source::showLinked);
        threads.setOnSelect(this::threadSelected);
        diagnosticsList.setOnActivate(r -> showPlace(r.ptxLine()));
        deadlock.setOnReveal(this::showPlace);
        lesson.setOnOpen(this::open);
        welcome.setOnOpen(this::open);
    }

    // Commands -----------------------------------------------------------------------------

    public void open(Path file) {
        welcome.hide();
        message.set("Opening " + file + " ...");
        session.open(file);
    }

    public void step() {
        if (canStep.get()) session.step();
    }

    public void run() {
        if (!canStep.get()) return;
        running.set(true);
        outcome.set("running");
        session.run();
    }

    public void pause() {
        if (running.get()) session.pause();
    }

    public void reset() {
        if (loaded.get()) session.reset();
    }

    /** Brings a panel to the front (keyboard: Ctrl+1..5). */
    public void showPanel(Panel p) { panel.set(panel.get().next(p)); }

    @Override
    public void close() {
        session.close();
    }

    /** A row of the threads tree was picked: inspect its thread and show its line. */
    private void threadSelected(ThreadNode n) {
        if (n.slot() >= 0) session.inspect(n.slot());
        if (n.ptxLine() > 0) showPlace(n.ptxLine());
    }

    /** Shows a PTX line, and the CUDA line it came from, in the source panes. */
    private void showPlace(int ptxLine) {
        if (ptxLine <= 0) return;
        source.reveal(ptxLine);
        cuda.showPtxLine(ptxLine);
    }

    // Session results ------------------------------------------------------------------------

    @Override
    public void opened(OpenedFile file) {
        boolean newFile = !file.file().equals(openFile); // a reset keeps the panel the user is on
        openFile = file.file();
        title.set(Locations.shortName(file.file()) + " — " + APP_NAME);
        source.load(file);
        cuda.load(file);
        lesson.load(file.lessonFile(), file.lesson());
        barriers.clear();
        if (newFile) {
            // A reset keeps the chosen thread (the session does too); a new file starts afresh.
            threads.clear();
            registers.clear();
            shared.clear();
        }
        diagnosticsList.clear();
        deadlock.clear();
        report.set("");
        reportVisible.set(false);
        running.set(false);
        loaded.set(true);
        message.set("Opened " + file.file() + " (" + file.ptxLines().size() + " PTX lines)");
        if (newFile) showPanel(file.lesson() != null ? Panel.LESSON : Panel.THREADS);
    }

    @Override
    public void updated(Snapshot s) {
        boolean wasFinished = finished.get();
        source.update(s);
        cuda.update(s.focusLoc(), s.focusLine());
        barriers.update(s);
        threads.update(s.threads());
        inspected(s.inspection());
        diagnosticsList.update(s.diagnostics());
        deadlock.update(s.deadlock());
        finished.set(s.finished());
        // Only a run's end (or a fresh open) ends "running": a step queued before Run may
        // report after Run was pressed.
        if (s.cause() == Snapshot.Cause.RUN_END || s.cause() == Snapshot.Cause.OPENED) running.set(false);
        outcome.set(outcomeText(s, running.get()));
        steps.set("step " + s.steps() + " · " + s.cycles() + " cycles");
        position.set(s.focusName().isEmpty() ? "" : s.focusName()
                + (s.focusLine() > 0 ? " · line " + s.focusLine() : ""));
        int n = s.diagnostics().size();
        diagnostics.set(n == 1 ? "1 diagnostic" : n + " diagnostics");
        if (!s.lastAction().isEmpty()) message.set(s.lastAction());
        if (s.report() != null) {
            report.set(s.report());
            reportVisible.set(true);
        }
        if (s.finished() && !wasFinished) showPanel(panelForEnd(s.outcome()));
    }

    @Override
    public void inspected(Inspection i) {
        registers.update(i);
        shared.update(i);
    }

    @Override
    public void failed(String text) {
        running.set(false);
        String firstLine = text == null ? "failed" : text.lines().findFirst().orElse(text);
        message.set(firstLine);
        report.set(text == null ? "" : text);
        reportVisible.set(true);
        showPanel(Panel.REPORT);
        if (!loaded.get()) outcome.set("no file");
    }

    /** The panel that explains how a run ended. */
    static Panel panelForEnd(Outcome o) {
        return switch (o) {
            case DEADLOCK -> Panel.DEADLOCK;
            case DIAGNOSED -> Panel.DIAGNOSTICS;
            default -> Panel.REPORT;
        };
    }

    static String outcomeText(Snapshot s, boolean running) {
        if (s.outcome() != Outcome.RUNNING) return s.outcome().jsonName();
        if (running) return "running";
        return s.steps() == 0 ? "ready" : "paused";
    }

    // Properties -----------------------------------------------------------------------------

    public SourceViewModel source() { return source; }
    public CudaSourceViewModel cuda() { return cuda; }
    public BarriersViewModel barriers() { return barriers; }
    public ThreadsViewModel threads() { return threads; }
    public RegistersViewModel registers() { return registers; }
    public SharedMemoryViewModel shared() { return shared; }
    public DiagnosticsViewModel diagnosticsList() { return diagnosticsList; }
    public DeadlockViewModel deadlock() { return deadlock; }
    public LessonViewModel lesson() { return lesson; }
    public WelcomeViewModel welcome() { return welcome; }
    public AppearanceViewModel appearance() { return appearance; }
    /** The file last opened successfully, or null. */
    public Path openFile() { return openFile; }

    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty loadedProperty() { return loaded.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty runningProperty() { return running.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty finishedProperty() { return finished.getReadOnlyProperty(); }
    public ReadOnlyStringProperty outcomeProperty() { return outcome.getReadOnlyProperty(); }
    public ReadOnlyStringProperty stepsProperty() { return steps.getReadOnlyProperty(); }
    public ReadOnlyStringProperty positionProperty() { return position.getReadOnlyProperty(); }
    public ReadOnlyStringProperty diagnosticsProperty() { return diagnostics.getReadOnlyProperty(); }
    public ReadOnlyStringProperty messageProperty() { return message.getReadOnlyProperty(); }
    public ReadOnlyStringProperty reportProperty() { return report.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty reportVisibleProperty() { return reportVisible.getReadOnlyProperty(); }
    /** The latest request to bring a panel to the front. */
    public ReadOnlyObjectProperty<Panel.Request> panelProperty() { return panel.getReadOnlyProperty(); }
    /** Step and Run are possible: a file is open, no run is going on, and it has not ended. */
    public BooleanBinding canStepProperty() { return canStep; }
    public BooleanBinding canPauseProperty() { return canPause; }
}
