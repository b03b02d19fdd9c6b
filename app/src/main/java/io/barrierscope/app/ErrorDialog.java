package io.barrierscope.app;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Platform;
import javafx.scene.control.Alert;
import javafx.scene.control.TextArea;
import javafx.stage.Window;

/**
 * Shows an uncaught exception in a dialog instead of letting a thread die silently. Installed
 * as the default handler and on the FX thread; exceptions on other threads are shown on the FX
 * thread. One dialog at a time: a failure that repeats every frame must not flood the screen.
 */
final class ErrorDialog implements Thread.UncaughtExceptionHandler {
    private final Window owner;
    private final AtomicBoolean showing = new AtomicBoolean();

    private ErrorDialog(Window owner) {
        this.owner = owner;
    }

    /** Installs the handler for every thread, including the FX thread (call on the FX thread). */
    static void install(Window owner) {
        ErrorDialog handler = new ErrorDialog(owner);
        Thread.setDefaultUncaughtExceptionHandler(handler);
        Thread.currentThread().setUncaughtExceptionHandler(handler);
    }

    @Override
    public void uncaughtException(Thread thread, Throwable error) {
        error.printStackTrace(); // also on the console, for bug reports
        if (Platform.isFxApplicationThread()) show(thread, error);
        else Platform.runLater(() -> show(thread, error));
    }

    private void show(Thread thread, Throwable error) {
        if (!showing.compareAndSet(false, true)) return;
        try {
            StringWriter trace = new StringWriter();
            error.printStackTrace(new PrintWriter(trace));
            TextArea details = new TextArea(trace.toString());
            details.setEditable(false);
            details.setPrefRowCount(16);
            Alert alert = new Alert(Alert.AlertType.ERROR);
            alert.setTitle("BarrierScope: unexpected error");
            alert.setHeaderText("Something went wrong on thread \"" + thread.getName() + "\"");
            alert.setContentText(String.valueOf(error.getMessage() == null ? error : error.getMessage()));
            alert.getDialogPane().setExpandableContent(details);
            if (owner != null && owner.isShowing()) alert.initOwner(owner);
            alert.showAndWait();
        } catch (RuntimeException e) {
            e.printStackTrace(); // the dialog itself failed: the console is all that is left
        } finally {
            showing.set(false);
        }
    }
}
