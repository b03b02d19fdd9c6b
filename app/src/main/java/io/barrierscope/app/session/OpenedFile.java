package io.barrierscope.app.session;

import java.nio.file.Path;
import java.util.List;

/** A file the session opened: the file asked for, the PTX it runs and that PTX's text lines. */
public record OpenedFile(Path file, String ptxName, List<String> ptxLines) {}
