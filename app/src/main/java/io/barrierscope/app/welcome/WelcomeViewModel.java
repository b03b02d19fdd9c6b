package io.barrierscope.app.welcome;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

/**
 * The welcome screen: the bundled samples with their descriptions, filterable, and whether the
 * screen is showing. Opening a sample hides it.
 */
public final class WelcomeViewModel {
    private final ObservableList<SampleInfo> samples = FXCollections.observableArrayList();
    private final FilteredList<SampleInfo> shown = new FilteredList<>(samples);
    private final StringProperty filter = new SimpleStringProperty("");
    private final BooleanProperty visible = new SimpleBooleanProperty(false);
    private Consumer<Path> onOpen = p -> {};

    public WelcomeViewModel() {
        filter.addListener((o, a, f) -> {
            String q = f == null ? "" : f.strip().toLowerCase(Locale.ROOT);
            shown.setPredicate(q.isEmpty() ? null
                    : s -> (s.name() + " " + s.description()).toLowerCase(Locale.ROOT).contains(q));
        });
    }

    public void setSamples(List<SampleInfo> list) { samples.setAll(list); }

    public void open(SampleInfo s) {
        if (s == null) return;
        visible.set(false);
        onOpen.accept(s.launchFile());
    }

    public void show() { visible.set(true); }

    public void hide() { visible.set(false); }

    public void setOnOpen(Consumer<Path> action) { onOpen = action == null ? p -> {} : action; }

    /** The samples matching the filter, by name. */
    public ObservableList<SampleInfo> samples() { return shown; }
    public StringProperty filterProperty() { return filter; }
    public BooleanProperty visibleProperty() { return visible; }
}
