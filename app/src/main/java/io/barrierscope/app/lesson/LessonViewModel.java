package io.barrierscope.app.lesson;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The lesson of the open sample, parsed into blocks for the view to render. A link to another
 * sample's lesson ({@code ../other/lesson.md}) opens that sample.
 */
public final class LessonViewModel {
    private final ReadOnlyObjectWrapper<List<Markdown.Block>> blocks = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyBooleanWrapper available = new ReadOnlyBooleanWrapper(false);
    private Path lessonFile;
    private Consumer<Path> onOpen = p -> {};

    /** Shows a lesson (null: there is none). */
    public void load(Path file, String text) {
        lessonFile = file;
        blocks.set(text == null ? List.of() : Markdown.parse(text));
        available.set(text != null);
    }

    /**
     * Follows a link: a relative link to a lesson or launch file of another sample opens that
     * sample's launch file. Returns false for links it does not follow (web addresses).
     */
    public boolean follow(String url) {
        Path target = launchFileOf(lessonFile, url);
        if (target == null) return false;
        onOpen.accept(target);
        return true;
    }

    /** The launch file a relative link points at (its lesson's folder), or null. */
    static Path launchFileOf(Path lesson, String url) {
        if (lesson == null || url == null || url.contains("://") || url.startsWith("#") || lesson.getParent() == null) return null;
        String path = url.contains("#") ? url.substring(0, url.indexOf('#')) : url;
        if (path.isEmpty()) return null;
        Path target = lesson.getParent().resolve(path).normalize();
        Path dir = Files.isDirectory(target) ? target : target.getParent();
        Path launch = dir == null ? null : dir.resolve("launch.json");
        return launch != null && Files.isRegularFile(launch) ? launch : null;
    }

    public void setOnOpen(Consumer<Path> action) { onOpen = action == null ? p -> {} : action; }

    public ReadOnlyObjectProperty<List<Markdown.Block>> blocksProperty() { return blocks.getReadOnlyProperty(); }
    /** Whether the open file has a lesson. */
    public ReadOnlyBooleanProperty availableProperty() { return available.getReadOnlyProperty(); }
}
