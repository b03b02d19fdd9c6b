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
    public static Path compile(Path cu, Path nvcc) {
        Path src = cu.toAbsolutePath().normalize();
        String name = src.getFileName().toString();
        String base = name.endsWith(".cu") ? name.substring(0, name.length() - 3) : name;
        if (nvcc == null) {
            throw new BadInputException(src + ": nvcc is not installed (not on PATH), so a CUDA source cannot be compiled here. "
                    + "Compile it to PTX with\n  nvcc -arch=sm_90a -ptx -lineinfo " + name + "\nand open the .ptx (or a launch file naming it).");
        }
        if (!Files.isRegularFile(src)) throw new BadInputException(src + ": error: no such file");
        try {
            Path out = Files.createTempDirectory("barrierscope-nvcc").resolve(base + ".ptx");
            List<String> cmd = List.of(nvcc.toString(), "-arch=sm_90a", "-ptx", "-lineinfo", src.toString(), "-o", out.toString());
            Process p = new ProcessBuilder(cmd).directory(src.getParent().toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String text = readBounded(p.getInputStream());
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new BadInputException(src + ": nvcc did not finish within " + TIMEOUT_SECONDS + " s");
            }
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

    /** Reads a process's output to the end, keeping the first MAX_OUTPUT bytes (so it never blocks on a full pipe). */
    private static String readBounded(InputStream in) throws IOException {
        byte[] keep = new byte[MAX_OUTPUT];
        int kept = 0;
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            int k = Math.min(n, MAX_OUTPUT - kept);
            System.arraycopy(buf, 0, keep, kept, k);
            kept += k;
        }
        return new String(keep, 0, kept, StandardCharsets.UTF_8);
    }
}
