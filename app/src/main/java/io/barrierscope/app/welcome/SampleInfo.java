package io.barrierscope.app.welcome;

import java.nio.file.Path;

/** A bundled sample: its launch file, folder name and one-line description (from its lesson). */
public record SampleInfo(Path launchFile, String name, String description) {}
