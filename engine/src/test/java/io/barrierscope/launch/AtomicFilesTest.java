package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path tmp;

    @Test
    void aWrittenFileHasThePermissionsAnyNewFileGetsNotOwnerOnly() throws Exception {
        // Written through a temporary file, reports and traces once kept its owner-only mode (rw-------).
        Assumptions.assumeTrue(tmp.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path plain = Files.createFile(tmp.resolve("plain"));
        Path written = tmp.resolve("r.json");
        AtomicFiles.write(written, "{}".getBytes());
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(written));
        assertEquals("{}", Files.readString(written));
        try (var s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left behind");
        }
    }
}
