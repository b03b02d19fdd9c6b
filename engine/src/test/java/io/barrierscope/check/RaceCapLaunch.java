package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Files;
import java.nio.file.Path;

/** The launch the race detector's cap tests share: {@code ctas} CTAs of 1024 threads over one u32 buffer, run to its end. */
final class RaceCapLaunch {
    private RaceCapLaunch() {}

    /** Writes {@code ptx} as k.ptx and its launch.json into {@code dir}, and runs it to completion. */
    static LaunchedRun run(Path dir, String ptx, int ctas, int bufferWords) throws Exception {
        Files.writeString(dir.resolve("k.ptx"), ptx);
        Path l = dir.resolve("launch.json");
        Files.writeString(l, "{\"ptx\": \"k.ptx\", \"grid\": [" + ctas + ", 1, 1], \"block\": [1024, 1, 1],"
                + " \"args\": [{\"buffer\": \"b\", \"type\": \"u32\", \"count\": " + bufferWords + "}]}");
        LaunchedRun run = LaunchValidation.validate(l).start();
        assertEquals(Outcome.COMPLETED, run.runToEnd(1_000_000));
        return run;
    }
}
