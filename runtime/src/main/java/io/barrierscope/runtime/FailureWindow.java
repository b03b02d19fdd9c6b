package io.barrierscope.runtime;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code exec --on-failure gui}: opens the debugger window on a failed launch's bundle (its
 * trace, at the failing step) while the program waits at that launch, and lets the program go
 * on when the window is closed. The window is started as {@code LAUNCHER gui BUNDLE} through
 * the {@code barrierscope} launcher, which knows the window's classpath (it passes its own path
 * as the system property {@code barrierscope.gui}); without a display it says so and the
 * program goes on at once.
 */
final class FailureWindow {
    /** The system property naming the launcher that opens the window. */
    static final String LAUNCHER = "barrierscope.gui";

    private final String launcher;
    private final Map<String, String> env;

    /** The window through {@code launcher} (null: unknown), a display looked for in {@code env}. */
    FailureWindow(String launcher, Map<String, String> env) {
        this.launcher = launcher;
        this.env = env;
    }

    /** As set up for this JVM: the launcher from {@value #LAUNCHER}, the display from the environment. */
    static FailureWindow fromSystem() {
        return new FailureWindow(System.getProperty(LAUNCHER), System.getenv());
    }

    /** Opens the window on {@code bundle} and waits until it is closed; says why not when it cannot. */
    void open(Path bundle, PrintWriter err) {
        String why = bundle == null ? "no launch bundle was written for this launch (--no-bundles, --kernel, or it could not be written)"
                : !hasDisplay() ? "no display to open the window on (DISPLAY is not set; on a headless machine: xvfb-run -a barrierscope exec ...)"
                : launcher == null ? "the window is opened through the barrierscope launcher (./barrierscope exec ...), which this run did not come from"
                : null;
        if (why != null) {
            err.println("barrierscope: --on-failure gui: " + why + "; the program goes on"
                    + (bundle == null ? "" : " (later: barrierscope gui " + bundle + ")"));
            err.flush();
            return;
        }
        List<String> cmd = new ArrayList<>(List.of(launcher, "gui", bundle.toAbsolutePath().toString()));
        err.println("barrierscope: --on-failure gui: opening the window on " + bundle + "; the program waits at this launch until it is closed");
        err.flush();
        try {
            int code = new ProcessBuilder(cmd).inheritIO().start().waitFor();
            if (code != 0) err.println("barrierscope: --on-failure gui: the window exited with code " + code + "; the program goes on");
        } catch (IOException e) {
            err.println("barrierscope: --on-failure gui: cannot start " + launcher + ": " + e.getMessage() + "; the program goes on");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        err.flush();
    }

    private boolean hasDisplay() {
        return !env.getOrDefault("DISPLAY", "").isEmpty() || !env.getOrDefault("WAYLAND_DISPLAY", "").isEmpty();
    }
}
