package io.barrierscope.launch;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Compiles a CUDA file to PTX with nvcc, when it is installed, the way the samples are built
 * (sm_90a, line info). nvcc runs with an argument list, never through a shell, and writes into a
 * fresh temporary directory, so nothing next to the source is created or overwritten.
 */
public final class NvccCompiler {
    /** Longest a compilation may take. */
    static final long TIMEOUT_SECONDS = 180;
    /** How much of nvcc's output a message quotes. */
    static final int MAX_OUTPUT = 4096;

    private NvccCompiler() {}

    /** nvcc from PATH (or null). */
    public static Path findNvcc() {
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, "nvcc");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p;
        }
        return null;
    }

    /** Compiles {@code cu} with the nvcc on PATH; a missing nvcc or a failed compile is bad input with the reason. */
    public static Path compile(Path cu) { return compile(cu, findNvcc()); }

    /** Compiles {@code cu} with {@code nvcc}; returns the PTX, written in a new temporary directory. */
    public static Path compile(Path cu, Path nvcc) { return compile(cu, nvcc, TIMEOUT_SECONDS); }

    /**
     * As {@link #compile(Path, Path)}, nvcc stopped after {@code timeoutSeconds}. Its output goes
     * to a file beside the PTX, so the wait is bounded by the timeout alone: an nvcc that hangs
     * with its output open cannot hold the caller past it (reading a pipe to its end would).
     */
    static Path compile(Path cu, Path nvcc, long timeoutSeconds) {
        Path src = cu.toAbsolutePath().normalize();
        String name = src.getFileName().toString();
        String base = name.endsWith(".cu") ? name.substring(0, name.length() - 3) : name;
        if (nvcc == null) {
            throw new BadInputException(src + ": nvcc is not installed (not on PATH), so a CUDA source cannot be compiled here. "
                    + "Compile it to PTX with\n  nvcc -arch=sm_90a -ptx -lineinfo " + name + "\nand open the .ptx (or a launch file naming it).");
        }
        if (!Files.isRegularFile(src)) throw new BadInputException(src + ": error: no such file");
        try {
            Path dir = Files.createTempDirectory("barrierscope-nvcc");
            Path out = dir.resolve(base + ".ptx");
            Path log = dir.resolve("nvcc.log");
            List<String> cmd = List.of(nvcc.toString(), "-arch=sm_90a", "-ptx", "-lineinfo", src.toString(), "-o", out.toString());
            Process p = new ProcessBuilder(cmd).directory(src.getParent().toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new BadInputException(src + ": error: nvcc did not finish within " + timeoutSeconds + " s");
            }
            String text = readBounded(log);
            Files.deleteIfExists(log);
            if (p.exitValue() != 0 || !Files.isRegularFile(out)) {
                throw new BadInputException(src + ": nvcc failed (exit " + p.exitValue() + "):\n" + text.strip());
            }
            return out;
        } catch (IOException e) {
            throw new BadInputException(src + ": cannot run nvcc: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BadInputException(src + ": compilation interrupted");
        }
    }

    /** The first MAX_OUTPUT bytes of nvcc's output. */
    private static String readBounded(Path log) throws IOException {
        try (InputStream in = Files.newInputStream(log)) {
            return new String(in.readNBytes(MAX_OUTPUT), StandardCharsets.UTF_8);
        }
    }
}
