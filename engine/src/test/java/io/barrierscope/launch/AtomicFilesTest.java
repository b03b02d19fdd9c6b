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

    @Test
    void replacingAFileKeepsThePermissionsItHad() throws Exception {
        // A report or trace the user made private (rw-------) stays private when written again, not widened to the umask's.
        Assumptions.assumeTrue(tmp.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path written = tmp.resolve("t.bstrace");
        Files.writeString(written, "old");
        var mine = java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");
        Files.setPosixFilePermissions(written, mine);
        AtomicFiles.write(written, "new".getBytes());
        assertEquals(mine, Files.getPosixFilePermissions(written));
        assertEquals("new", Files.readString(written));
    }
}
