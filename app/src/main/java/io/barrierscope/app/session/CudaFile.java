package io.barrierscope.app.session;

import java.nio.file.Path;
import java.util.List;

/**
 * A source file a PTX {@code .file} directive names, read next to the PTX when it is there.
 *
 * @param name    the name as the PTX writes it (what {@code CudaLoc.file()} holds)
 * @param path    where it was looked for
 * @param lines   its text, or null when it could not be read
 * @param problem why not, e.g. "not found", or null
 * @param uses    how many instructions map to it (the most used file is the kernel's own)
 */
public record CudaFile(String name, Path path, List<String> lines, String problem, int uses) {
    public boolean available() { return lines != null; }
}
