package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Finds the bundled samples and runs them. */
final class SampleRuns {
    private SampleRuns() {}

    /** The samples folder, from the samples module's working directory. */
    static Path root() {
        Path p = Path.of("").toAbsolutePath();
        return Files.isDirectory(p.resolve("block-reduce")) ? p : p.resolve("samples");
    }

    static Path launch(String sample) { return root().resolve(sample).resolve("launch.json"); }

    static List<Path> all() throws java.io.IOException {
        try (Stream<Path> s = Files.list(root())) {
            return s.filter(d -> Files.isRegularFile(d.resolve("launch.json"))).map(d -> d.resolve("launch.json")).sorted().toList();
        }
    }

    static LaunchedRun run(String sample, String policy, long seed) {
        LaunchedRun r = LaunchValidation.validate(launch(sample)).start(policy, seed);
        r.runToEnd();
        return r;
    }

    static List<Long> longs(LaunchedRun r, String buffer) {
        return r.buffers().get(buffer).stream().map(Number::longValue).toList();
    }
}
