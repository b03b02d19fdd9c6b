package io.barrierscope.app.debugger;

import io.barrierscope.app.Locations;
import io.barrierscope.app.barriers.BarriersViewModel;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.Snapshot;
import io.barrierscope.app.source.SourceViewModel;
import io.barrierscope.exec.Outcome;
import java.nio.file.Path;
import java.util.function.Function;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The debugger window's state and commands. It owns the {@link DebugSession}, turns its
 * results into display text, and feeds the child view models. Results arrive on the UI
 * executor's thread; commands are called from the same thread.
 */
public final class DebuggerViewModel implements DebugSession.Listener, AutoCloseable {
    static final String APP_NAME = "BarrierScope";

    private final DebugSession session;
    private final SourceViewModel source = new SourceViewModel();
    private final BarriersViewModel barriers = new BarriersViewModel();

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

    private final BooleanBinding canStep = loaded.and(running.not()).and(finished.not());
    private final BooleanBinding canPause = running.getReadOnlyProperty().and(loaded);

    private Path openFile;

    /**
     * @param sessionFactory makes the session this view model listens to; the app passes one
     *                       with a worker thread, tests one with inline executors
     */
    public DebuggerViewModel(Function<DebugSession.Listener, DebugSession> sessionFactory) {
        this.session = sessionFactory.apply(this);
    }

    // Commands -----------------------------------------------------------------------------

    public void open(Path file) {
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

    @Override
    public void close() {
        session.close();
    }

    // Session results ------------------------------------------------------------------------

    @Override
    public void opened(OpenedFile file) {
        openFile = file.file();
        title.set(Locations.shortName(file.file()) + " — " + APP_NAME);
        source.load(file);
        barriers.clear();
        report.set("");
        reportVisible.set(false);
        running.set(false);
        loaded.set(true);
        message.set("Opened " + file.file() + " (" + file.ptxLines().size() + " PTX lines)");
    }

    @Override
    public void updated(Snapshot s) {
        source.update(s);
        barriers.update(s);
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
    }

    @Override
    public void failed(String text) {
        running.set(false);
        String firstLine = text == null ? "failed" : text.lines().findFirst().orElse(text);
        message.set(firstLine);
        report.set(text == null ? "" : text);
        reportVisible.set(true);
        if (!loaded.get()) outcome.set("no file");
    }

    static String outcomeText(Snapshot s, boolean running) {
        if (s.outcome() != Outcome.RUNNING) return s.outcome().jsonName();
        if (running) return "running";
        return s.steps() == 0 ? "ready" : "paused";
    }

    // Properties -----------------------------------------------------------------------------

    public SourceViewModel source() { return source; }
    public BarriersViewModel barriers() { return barriers; }
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
    /** Step and Run are possible: a file is open, no run is going on, and it has not ended. */
    public BooleanBinding canStepProperty() { return canStep; }
    public BooleanBinding canPauseProperty() { return canPause; }
}
