package io.barrierscope.cli;

import io.barrierscope.launch.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An output path may not name a file the same command reads: `run launch.json --trace launch.json`
 * or `export t.bstrace -o t.bstrace` replaced the input with the output (a file on disk changed by
 * reading it). Checked before anything runs, through links and other spellings of the same file.
 */
final class OutputPaths {
    private OutputPaths() {}

    static void notAnInput(String option, Path out, Path... inputs) {
        if (out == null || !Files.exists(out)) return; // a new file cannot be an input
        for (Path in : inputs) {
            if (in == null || !Files.exists(in)) continue;
            try {
                if (Files.isSameFile(out, in)) {
                    throw new BadInputException(out + ": error: " + option + " names " + in + ", which this command reads; name another file");
                }
            } catch (IOException e) {
                // not comparable: not the same file as far as the system can say; the writer reports a real problem
            }
        }
    }
}
