package io.barrierscope.app;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the bundled samples from a test, whatever directory Maven runs it in. */
public final class TestFiles {
    private TestFiles() {}

    public static Path sample(String name) {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation())
                .orElseThrow(() -> new IllegalStateException("repository root with samples/ not found"));
        Path p = root.resolve("samples").resolve(name).resolve("launch.json");
        if (!Files.isRegularFile(p)) throw new IllegalStateException("no sample " + p);
        return p;
    }
}
