package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the test programs of src/test/cuda the way a user does ({@code nvcc -arch=sm_90a
 * -cudart shared}), into target/cuda-programs, once per source change. Where nvcc, gcc or our
 * libcudart.so.13 is missing the calling test is skipped, saying which.
 */
final class CudaPrograms {
    static final Path SOURCES = Path.of("src/test/cuda");
    static final Path OUT = Path.of("target/cuda-programs");

    private CudaPrograms() {}

    static String nvcc() {
        for (String c : new String[] {"nvcc", "/usr/local/cuda/bin/nvcc"}) {
            if (runs(c, "--version")) return c;
        }
        return null;
    }

    private static boolean runs(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Skips the test unless nvcc, gcc and our library are all there. */
    static void assumeToolchain() {
        assumeTrue(runs("gcc", "--version"), "gcc is not installed: BarrierScope's libcudart.so.13 is not built, exec tests skipped");
        assumeTrue(ExecCommand.libraryDir() != null, "libcudart.so.13 was not built (see the build's [barrierscope] line)");
        assumeTrue(nvcc() != null, "nvcc is not installed: the exec tests build their CUDA programs with it, skipped");
    }

    /** The program built from src/test/cuda/NAME.cu with the given extra nvcc flags (the default: -cudart shared). */
    static Path build(String name, String... flags) throws IOException, InterruptedException {
        assumeToolchain();
        Path src = SOURCES.resolve(name + ".cu");
        Files.createDirectories(OUT);
        String suffix = flags.length == 0 ? "" : "-" + String.join("", flags).replaceAll("[^A-Za-z0-9]", "");
        Path exe = OUT.resolve(name + suffix);
        if (Files.exists(exe) && Files.getLastModifiedTime(exe).compareTo(Files.getLastModifiedTime(src)) > 0) return exe;
        List<String> cmd = new ArrayList<>(List.of(nvcc(), "-arch=sm_90a", "-lineinfo", "-o", exe.toString(), src.toString()));
        if (flags.length == 0) cmd.addAll(List.of("-cudart", "shared"));
        else cmd.addAll(List.of(flags));
        Path log = OUT.resolve(name + suffix + ".nvcc.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        // Thrust and CUB programs take nvcc minutes (nearly seven on a loaded two-core machine).
        if (!p.waitFor(900, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("nvcc failed on " + src + ":\n" + Files.readString(log));
        }
        return exe;
    }

    /**
     * A program of several files of src/test/cuda built with relocatable device code, as a user
     * builds one: {@code nvcc -arch=sm_90a -lineinfo -rdc=true -cudart shared A.cu B.cu ...}, named
     * {@code exe}; {@code gencode} (null: -arch=sm_90a) replaces the architecture flag.
     */
    static Path buildLinked(String exe, String gencode, String... names) throws IOException, InterruptedException {
        assumeToolchain();
        Files.createDirectories(OUT);
        Path out = OUT.resolve(exe);
        boolean fresh = Files.exists(out);
        List<String> cmd = new ArrayList<>(List.of(nvcc(), gencode == null ? "-arch=sm_90a" : gencode, "-lineinfo",
                "-rdc=true", "-cudart", "shared", "-o", out.toString()));
        for (String n : names) {
            Path src = SOURCES.resolve(n + ".cu");
            cmd.add(src.toString());
            if (fresh && Files.getLastModifiedTime(out).compareTo(Files.getLastModifiedTime(src)) <= 0) fresh = false;
        }
        if (fresh) return out;
        Path log = OUT.resolve(exe + ".nvcc.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(900, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("nvcc failed on " + String.join(" ", names) + ":\n" + Files.readString(log));
        }
        return out;
    }

    /**
     * A program linked with a device-code library, as a user builds one: {@code nvcc -arch=sm_90a
     * -lineinfo -rdc=true -lib -o libEXE.a LIB.cu}, then {@code nvcc -arch=sm_90a -lineinfo -rdc=true
     * -cudart shared -o exe MAIN.cu libEXE.a}; {@code libArch} (null: -arch=sm_90a) replaces the
     * library's architecture flag.
     */
    static Path buildWithArchive(String exe, String main, String lib, String libArch) throws IOException, InterruptedException {
        assumeToolchain();
        Files.createDirectories(OUT);
        Path out = OUT.resolve(exe), archive = OUT.resolve("lib" + exe + ".a");
        Path mainSrc = SOURCES.resolve(main + ".cu"), libSrc = SOURCES.resolve(lib + ".cu");
        if (Files.exists(out) && Files.getLastModifiedTime(out).compareTo(Files.getLastModifiedTime(mainSrc)) > 0
                && Files.getLastModifiedTime(out).compareTo(Files.getLastModifiedTime(libSrc)) > 0) {
            return out;
        }
        nvcc(OUT.resolve(exe + ".lib.nvcc.log"), nvcc(), libArch == null ? "-arch=sm_90a" : libArch, "-lineinfo", "-rdc=true", "-lib", "-o", archive.toString(),
                libSrc.toString());
        nvcc(OUT.resolve(exe + ".nvcc.log"), nvcc(), "-arch=sm_90a", "-lineinfo", "-rdc=true", "-cudart", "shared", "-o",
                out.toString(), mainSrc.toString(), archive.toString());
        return out;
    }

    private static void nvcc(Path log, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(900, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("nvcc failed: " + String.join(" ", cmd) + "\n" + Files.readString(log));
        }
    }
}
