package io.barrierscope.app.compare;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A bug sample's fixed twin: the sample in the sibling folder named like it with "-fixed", whose
 * launch file has the same name (samples/X/launch.json and samples/X-fixed/launch.json).
 */
public final class FixedTwin {
    public static final String SUFFIX = "-fixed";

    private FixedTwin() {}

    /** The twin's launch file, if {@code launchFile} is a bug sample that has one. */
    public static Optional<Path> of(Path launchFile) {
        if (launchFile == null) return Optional.empty();
        Path abs = launchFile.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        if (dir == null || dir.getFileName() == null) return Optional.empty();
        String name = dir.getFileName().toString();
        if (name.endsWith(SUFFIX)) return Optional.empty();
        Path twin = dir.resolveSibling(name + SUFFIX).resolve(abs.getFileName());
        return Files.isRegularFile(twin) ? Optional.of(twin) : Optional.empty();
    }

    /** "cluster-barrier-one-partition": the folder's name, how the samples are known. */
    public static String name(Path launchFile) {
        Path dir = launchFile.toAbsolutePath().normalize().getParent();
        return dir == null || dir.getFileName() == null ? launchFile.toString() : dir.getFileName().toString();
    }
}
