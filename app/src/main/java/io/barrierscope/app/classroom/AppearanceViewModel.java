package io.barrierscope.app.classroom;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * How the window looks in a classroom: light or dark theme, presentation mode (larger fonts,
 * higher contrast, fewer panels), and whether the help overlay is up.
 */
public final class AppearanceViewModel {
    private final BooleanProperty dark = new SimpleBooleanProperty(false);
    private final BooleanProperty presentation = new SimpleBooleanProperty(false);
    private final BooleanProperty helpVisible = new SimpleBooleanProperty(false);

    public void toggleDark() { dark.set(!dark.get()); }

    public void togglePresentation() { presentation.set(!presentation.get()); }

    public void toggleHelp() { helpVisible.set(!helpVisible.get()); }

    public BooleanProperty darkProperty() { return dark; }
    public BooleanProperty presentationProperty() { return presentation; }
    public BooleanProperty helpVisibleProperty() { return helpVisible; }
}
