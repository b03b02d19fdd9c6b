package io.barrierscope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An output path may not name a file the same command reads: `run launch.json --trace launch.json`
 * or `export t.bstrace -o t.bstrace` replaced the input with the output (a file on disk changed by
 * reading it). Checked before anything runs, through links and other spellings of the same file.
 */
final class OutputPaths {
    private OutputPaths() {}

    /**
     * The files a launch reads: its own file, its PTX and every buffer's or struct's {@code "file"}
     * (found in its text, beside the launch file as the reader resolves them).
     */
    static Path[] inputsOf(LaunchSpec spec) {
        List<Path> in = new ArrayList<>(List.of(spec.file(), spec.ptx()));
        Path dir = spec.file().toAbsolutePath().getParent();
        if (spec.sourceText() != null && dir != null) {
            try {
                for (JsonNode f : new ObjectMapper().readTree(spec.sourceText()).findValues("file")) {
                    if (f.isTextual()) in.add(dir.resolve(f.asText()).normalize());
                }
            } catch (IOException | RuntimeException e) {
                // read already; a text that does not parse again names no more files
            }
        }
        return in.toArray(Path[]::new);
    }

    /** Two outputs of one command may not be one file (the second written would replace the first). */
    static void distinct(String optionA, Path a, String optionB, Path b) {
        if (a == null || b == null) return;
        Path na = a.toAbsolutePath().normalize();
        Path nb = b.toAbsolutePath().normalize();
        boolean same = na.equals(nb);
        try {
            same |= Files.exists(na) && Files.exists(nb) && Files.isSameFile(na, nb);
        } catch (IOException e) {
            // not comparable: taken as different, as above
        }
        if (same) throw new BadInputException(b + ": error: " + optionA + " and " + optionB + " name the same file; name two files");
    }

    /** Paths and arrays of paths as one array. */
    static Path[] all(Object... parts) {
        List<Path> out = new ArrayList<>();
        for (Object o : parts) {
            if (o instanceof Path p) out.add(p);
            else if (o instanceof Path[] ps) out.addAll(List.of(ps));
        }
        return out.toArray(Path[]::new);
    }

    static void notAnInput(String option, Path given, Path... inputs) {
        // As the writer resolves it (AtomicFiles): "a/../x" is x even where a does not exist.
        Path out = given == null ? null : given.toAbsolutePath().normalize();
        if (out == null || !Files.exists(out)) return; // a new file cannot be an input
        for (Path in : inputs) {
            if (in == null || !Files.exists(in)) continue;
            try {
                if (Files.isSameFile(out, in)) {
                    throw new BadInputException(given + ": error: " + option + " names " + in + ", which this command reads; name another file");
                }
            } catch (IOException e) {
                // not comparable: not the same file as far as the system can say; the writer reports a real problem
            }
        }
    }
}
