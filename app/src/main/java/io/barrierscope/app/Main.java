package io.barrierscope.app;

import javafx.application.Application;

/**
 * The app's main class. It is a plain class, not the {@link Application} itself, because the
 * JavaFX launcher refuses an Application subclass as main class when JavaFX is not loaded as
 * named modules (plain classpath, {@code mvn javafx:run}).
 *
 * <p>Usage: {@code Main [gui] [FILE]} where FILE is a launch file, a trace or a {@code .ptx};
 * with none, the bundled sample opens.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        Application.launch(BarrierScopeApp.class, args);
    }
}
