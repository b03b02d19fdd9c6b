package io.barrierscope.app.files;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The files opened lately, newest first, for File > Open Recent; kept in a small text file (one
 * path a line) so they survive a restart. Failing to read or write it only loses the list.
 */
public final class RecentFiles {
    public static final int MAX = 10;

    private final ObservableList<Path> files = FXCollections.observableArrayList();
    private final ObservableList<Path> readOnly = FXCollections.unmodifiableObservableList(files);
    private final Path store;

    private RecentFiles(Path store) {
        this.store = store;
        if (store != null) load();
    }

    /** A list that lives as long as the window (tests). */
    public static RecentFiles inMemory() { return new RecentFiles(null); }

    /** A list kept in {@code store}. */
    public static RecentFiles storedIn(Path store) { return new RecentFiles(store); }

    /** {@code $XDG_CONFIG_HOME/barrierscope/recent-files}, else {@code ~/.config/barrierscope/recent-files}. */
    public static Path defaultStore() {
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("barrierscope").resolve("recent-files");
    }

    /** Puts a file first (moving it up if it was there). */
    public void add(Path file) {
        Path p = file.toAbsolutePath().normalize();
        files.remove(p);
        files.add(0, p);
        if (files.size() > MAX) files.remove(MAX, files.size());
        save();
    }

    /** Forgets a file (it could not be opened any more). */
    public void remove(Path file) {
        if (files.remove(file.toAbsolutePath().normalize())) save();
    }

    public ObservableList<Path> files() { return readOnly; }

    private void load() {
        if (!Files.isRegularFile(store)) return;
        try {
            List<Path> read = new ArrayList<>();
            for (String line : Files.readAllLines(store, StandardCharsets.UTF_8)) {
                if (line.isBlank() || read.size() >= MAX) continue;
                try {
                    read.add(Path.of(line.strip()));
                } catch (InvalidPathException e) {
                    // a line another system wrote: skip it
                }
            }
            files.setAll(read);
        } catch (IOException e) {
            // an unreadable list is an empty list
        }
    }

    private void save() {
        if (store == null) return;
        try {
            Files.createDirectories(store.getParent());
            Files.write(store, files.stream().map(Path::toString).toList(), StandardCharsets.UTF_8);
        } catch (IOException | UnsupportedOperationException e) {
            // the list is a convenience: not saving it must not disturb the window
        }
    }
}
