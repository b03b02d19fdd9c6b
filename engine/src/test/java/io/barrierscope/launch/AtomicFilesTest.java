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

    @Test
    void anOutputPathThatIsALinkReplacesTheFileItPointsToAndKeepsTheLink() throws Exception {
        // Moved onto the link, the new file replaced the link (`--report /dev/stdout` became a plain file in /dev).
        Path real = Files.writeString(Files.createDirectories(tmp.resolve("real")).resolve("r.json"), "old");
        Path link = Files.createSymbolicLink(tmp.resolve("link.json"), Path.of("real/r.json"));
        Path linkToLink = Files.createSymbolicLink(tmp.resolve("link2.json"), link);
        AtomicFiles.write(linkToLink, "new".getBytes());
        assertTrue(Files.isSymbolicLink(link) && Files.isSymbolicLink(linkToLink), "both links kept");
        assertEquals("new", Files.readString(real));
        Path dangling = Files.createSymbolicLink(tmp.resolve("later.json"), Path.of("real/later.json"));
        AtomicFiles.write(dangling, "made".getBytes());
        assertTrue(Files.isSymbolicLink(dangling));
        assertEquals("made", Files.readString(tmp.resolve("real/later.json")), "a link to a file not made yet names where it goes");
    }

    @Test
    void aLinkLoopIsBadInputNamingThePathNotAnInternalFailure() throws Exception {
        Path a = tmp.resolve("a.json");
        Files.createSymbolicLink(a, Path.of("b.json"));
        Files.createSymbolicLink(tmp.resolve("b.json"), Path.of("a.json"));
        BadInputException e = org.junit.jupiter.api.Assertions.assertThrows(BadInputException.class, () -> AtomicFiles.write(a, "x".getBytes()));
        assertTrue(e.getMessage().startsWith(a + ": error: cannot write: "), e.getMessage());
    }

    @Test
    void aLinkToOneOfThisProcesssOwnStreamsIsRefusedAndTheLinkKept() throws Exception {
        // `--report /dev/stdout` with stdout sent to a file: the file was replaced, or (moved onto the link) /dev/stdout itself.
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")));
        Path link = Files.createSymbolicLink(tmp.resolve("out.json"), Path.of("/proc/self/fd/1"));
        BadInputException e = org.junit.jupiter.api.Assertions.assertThrows(BadInputException.class,
                () -> AtomicFiles.write(link, "x".getBytes()));
        assertTrue(e.getMessage().contains("it is a stream of this process (/proc/self/fd/1), not a file"), e.getMessage());
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void aNameOfUpTo255BytesIsWrittenThoughItsTemporaryFilesNameWouldBeLonger() throws Exception {
        // The temporary file was "." + the name + ".<random>.tmp": a writable name of 238-255 bytes was refused.
        Path written = tmp.resolve("\u00e9".repeat(127) + "x"); // 255 bytes of UTF-8
        AtomicFiles.write(written, "{}".getBytes());
        assertEquals("{}", Files.readString(written));
        try (var s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left behind");
        }
    }

    @Test
    void aNameTooLongForTheFileSystemIsRefusedWithItsReasonNotATemporaryFilesName() {
        // It was "cannot write: FileSystemException: /dir/.ΩΩ….1nj9a9dix29au.tmp: File name too long".
        Path written = tmp.resolve("\u03a9".repeat(300)); // 600 bytes
        BadInputException e = org.junit.jupiter.api.Assertions.assertThrows(BadInputException.class,
                () -> AtomicFiles.write(written, "{}".getBytes()));
        assertTrue(e.getMessage().startsWith(written + ": error: cannot write: "), e.getMessage());
        assertTrue(!e.getMessage().contains(".tmp") && !e.getMessage().contains("Exception"), e.getMessage());
        assertTrue(!Files.exists(written));
    }
}
