package io.barrierscope.app;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where things are on disk: the file to open at start-up and the bundled samples. Pure
 * functions of the arguments, the current directory and the code location, so they are tested
 * without a window.
 */
public final class Locations {
    /** The sample opened when the window starts without a file. */
    public static final String DEFAULT_SAMPLE = "samples/block-reduce/launch.json";

    private Locations() {}

    /**
     * The file to open: the first argument that is not the word {@code gui} (resolved against
     * {@code cwd}), else the default sample; empty when neither exists.
     */
    public static Optional<Path> startupFile(List<String> args, Path cwd, Path codeLocation) {
        for (String a : args) {
            if (a.equals("gui") || a.startsWith("-")) continue;
            return Optional.of(cwd.resolve(a).toAbsolutePath().normalize());
        }
        return repoRoot(cwd, codeLocation).map(r -> r.resolve(DEFAULT_SAMPLE));
    }

    /** Whether the arguments name a file (anything but the word {@code gui} and options). */
    public static boolean hasFileArgument(List<String> args) {
        return args.stream().anyMatch(a -> !a.equals("gui") && !a.startsWith("-"));
    }

    /**
     * The repository root: the current directory if it holds the samples, else the first
     * ancestor of the code location (a jar or classes directory inside the checkout) that does.
     */
    public static Optional<Path> repoRoot(Path cwd, Path codeLocation) {
        Path here = cwd.toAbsolutePath().normalize();
        if (Files.isRegularFile(here.resolve(DEFAULT_SAMPLE))) return Optional.of(here);
        for (Path p = codeLocation == null ? null : codeLocation.toAbsolutePath().normalize();
                p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(DEFAULT_SAMPLE))) return Optional.of(p);
        }
        return Optional.empty();
    }

    /** The launch files of the bundled samples ({@code samples/NAME/launch.json}), sorted by name. */
    public static List<Path> samples(Path repoRoot) {
        List<Path> out = new ArrayList<>();
        Path dir = repoRoot.resolve("samples");
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            s.map(d -> d.resolve("launch.json")).filter(Files::isRegularFile).sorted().forEach(out::add);
        } catch (java.io.IOException e) {
            // An unreadable samples folder just means an empty Samples menu.
        }
        return out;
    }

    /**
     * The bundled samples in the course order of {@code docs/lessons.md}: each sample where that
     * page first names it (a bug's {@code -fixed} twin follows it there), then any sample the page
     * does not name, by name, each bug before its fix. Without the page, by name.
     */
    public static List<Path> samplesInCourseOrder(Path repoRoot) {
        List<Path> byName = samples(repoRoot);
        // By folder name ("x" before "x-fixed"; as paths "x-fixed/launch.json" would sort first).
        java.util.Map<String, Path> left = new java.util.TreeMap<>();
        for (Path p : byName) left.put(p.getParent().getFileName().toString(), p);
        List<Path> out = new ArrayList<>();
        Path lessons = repoRoot.resolve("docs/lessons.md");
        if (Files.isRegularFile(lessons)) {
            try {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("samples/([A-Za-z0-9_.-]+)/")
                        .matcher(Files.readString(lessons));
                while (m.find()) {
                    Path p = left.remove(m.group(1));
                    if (p != null) out.add(p);
                }
            } catch (java.io.IOException e) {
                // An unreadable course page just means the samples by name.
            }
        }
        out.addAll(left.values());
        return out;
    }

    /** Where this class was loaded from (jar or classes directory), or null if unknown. */
    public static Path codeLocation() {
        try {
            var src = Locations.class.getProtectionDomain().getCodeSource();
            return src == null ? null : Path.of(src.getLocation().toURI());
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return null;
        }
    }

    /** A short name for a file: its folder and name, e.g. {@code block-reduce/launch.json}. */
    public static String shortName(Path file) {
        Path name = file.getFileName();
        Path parent = file.getParent();
        if (name == null) return file.toString();
        if (parent == null || parent.getFileName() == null) return name.toString();
        return parent.getFileName() + "/" + name;
    }
}
