package io.barrierscope.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run KERNEL.cu} (README, "Command line": a .cu may be opened without a launch file): compiled with
 * the nvcc on PATH, then run with the defaults, saying so. A stand-in nvcc keeps the test free of CUDA.
 */
class CliCudaSourceTest {
    @TempDir
    Path tmp;

    private record Result(int code, String out) {}

    /** The real entry point in a subprocess whose PATH starts with {@code bin}. */
    private Result cliWithPath(Path bin, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(java.util.List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PATH", bin.toString()); // nothing else: a real nvcc must not be found
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        return new Result(p.waitFor(), out);
    }

    private Path source() throws Exception {
        Path cu = tmp.resolve("k.cu");
        Files.writeString(cu, "__global__ void k() { __syncthreads(); }\n");
        return cu;
    }

    @Test
    void aCudaSourceIsCompiledWithNvccAndRunWithTheDefaults() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path nvcc = bin.resolve("nvcc");
        // Writes a small kernel where -o says, as nvcc would write the .cu's PTX.
        Files.writeString(nvcc, "#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then shift; printf '"
                + ".version 9.0\\n.target sm_90a\\n.address_size 64\\n.visible .entry k()\\n{\\nbar.sync 0;\\nret;\\n}\\n' > \"$1\"; fi; shift; done\n");
        Files.setPosixFilePermissions(nvcc, PosixFilePermissions.fromString("rwxr-xr-x"));
        Result r = cliWithPath(bin, "run", source().toString());
        assertEquals(Main.OK, r.code(), r.out());
        assertTrue(r.out().contains("note: compiled k.cu with nvcc"), r.out());
        assertTrue(r.out().contains("k: completed"), r.out());
        assertEquals(java.util.List.of("bin", "k.cu"), Files.list(tmp).map(p -> p.getFileName().toString()).sorted().toList(),
                "nothing is written next to the source");
    }

    @Test
    void withoutNvccACudaSourceIsBadInputSayingHowToCompileIt() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Result r = cliWithPath(empty, "run", source().toString());
        assertEquals(Main.BAD_INPUT, r.code(), r.out());
        assertTrue(r.out().contains("nvcc is not installed") && r.out().contains("nvcc -arch=sm_90a -ptx -lineinfo k.cu"), r.out());
    }
}
