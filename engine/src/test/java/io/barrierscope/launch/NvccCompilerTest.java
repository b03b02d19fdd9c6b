package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiling a .cu with nvcc, tested with a stand-in nvcc (the real one is never needed). */
class NvccCompilerTest {
    @TempDir
    Path dir;

    private Path fakeNvcc(String body) throws Exception {
        Path f = dir.resolve("bin").resolve("nvcc");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        return f;
    }

    private Path source() throws Exception {
        Path src = dir.resolve("src").resolve("k.cu");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "__global__ void k() {}\n");
        return src;
    }

    private List<String> listing(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void nvccGetsTheSampleFlagsAndWritesIntoAFreshDirectory() throws Exception {
        // The stand-in records its arguments and writes the PTX where -o says.
        Path nvcc = fakeNvcc("echo \"$@\" > \"" + dir.resolve("args") + "\"\nwhile [ $# -gt 0 ]; do if [ \"$1\" = -o ]; then shift; "
                + "echo '.version 9.0' > \"$1\"; fi; shift; done");
        Path src = source();
        Path ptx = NvccCompiler.compile(src, nvcc);
        assertTrue(Files.isRegularFile(ptx));
        assertEquals("k.ptx", ptx.getFileName().toString());
        assertTrue(!ptx.getParent().equals(src.getParent()), "never next to the source");
        assertEquals(List.of("k.cu"), listing(src.getParent()));
        String args = Files.readString(dir.resolve("args")).strip();
        assertTrue(args.startsWith("-arch=sm_90a -ptx -lineinfo " + src), args);
    }

    @Test
    void aFailedCompileIsBadInputQuotingNvcc() throws Exception {
        Path nvcc = fakeNvcc("echo 'k.cu(1): error: expected a \";\"' >&2\nexit 1");
        BadInputException e = assertThrows(BadInputException.class, () -> NvccCompiler.compile(source(), nvcc));
        assertTrue(e.getMessage().contains("nvcc failed (exit 1)") && e.getMessage().contains("expected a"), e.getMessage());
    }

    @Test
    void withoutNvccTheMessageSaysHowToCompile() throws Exception {
        BadInputException e = assertThrows(BadInputException.class, () -> NvccCompiler.compile(source(), null));
        assertTrue(e.getMessage().contains("nvcc -arch=sm_90a -ptx -lineinfo k.cu"), e.getMessage());
    }

    @Test
    void anNvccThatHangsWithItsOutputOpenIsStoppedAtTheTimeout() throws Exception {
        // Prints, then never ends, its output still open: reading the output to its end would wait forever.
        Path nvcc = fakeNvcc("echo starting\nexec sleep 600");
        long t0 = System.nanoTime();
        BadInputException e = assertThrows(BadInputException.class, () -> NvccCompiler.compile(source(), nvcc, 2));
        assertTrue(e.getMessage().contains("nvcc did not finish within 2 s"), e.getMessage());
        assertTrue(System.nanoTime() - t0 < 60_000_000_000L, "stopped at the timeout, not at nvcc's end");
    }
}
