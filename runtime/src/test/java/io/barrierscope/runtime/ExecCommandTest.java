package io.barrierscope.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.barrierscope.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The exec command itself, on programs that need no nvcc: what it says and what it returns. */
class ExecCommandTest {
    record Out(int code, String text) {}

    static Out cli(String... args) {
        StringWriter w = new StringWriter();
        int code;
        try (PrintWriter p = new PrintWriter(w)) {
            code = Main.execute(args, p, p);
        }
        return new Out(code, w.toString());
    }

    @Test
    void aMissingProgramIsBadInputWithItsName() {
        Out o = cli("exec", "--", "./no-such-program-here");
        assertEquals(Main.BAD_INPUT, o.code());
        assertTrue(o.text().contains("./no-such-program-here: no such program"), o.text());
    }

    @Test
    void aProgramThatIsAFolderADeviceOrNotExecutableOrUnnamedIsSaidToBeThatNotMissing(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws java.io.IOException {
        // all were "no such program", and a file without x permission the JDK's "error=13, Permission denied"
        Out folder = cli("exec", tmp.toString());
        assertEquals(Main.BAD_INPUT, folder.code());
        assertTrue(folder.text().contains(tmp + ": it is a folder, not a program"), folder.text());
        Out device = cli("exec", "/dev/null");
        assertEquals(Main.BAD_INPUT, device.code());
        assertTrue(device.text().contains("/dev/null: it is a device or pipe, not a program"), device.text());
        Out empty = cli("exec", "");
        assertEquals(Main.BAD_INPUT, empty.code());
        assertTrue(empty.text().contains("error: the program's name is empty"), empty.text());
        java.nio.file.Path text = java.nio.file.Files.writeString(tmp.resolve("notes.txt"), "not a program\n");
        Out plain = cli("exec", text.toString());
        assertEquals(Main.BAD_INPUT, plain.code());
        assertTrue(plain.text().contains(text + ": not executable (no x permission"), plain.text());
        assertTrue(!plain.text().contains("error=13"), plain.text());
    }

    @Test
    void anEmptyBundleFolderNameIsRefusedNotTakenAsTheCurrentFolder() {
        Out o = cli("exec", "--bundle-dir", "", "sh", "-c", "exit 0");
        assertEquals(Main.BAD_INPUT, o.code(), o.text());
        assertTrue(o.text().contains("error: --bundle-dir: the folder's name is empty"), o.text());
    }

    @Test
    void aProgramWithoutCudaRunsAndItsExitCodeIsPassedOnAndItsOptionsAreItsOwn() {
        assumeTrue(ExecCommand.libraryDir() != null, "libcudart.so.13 was not built (no gcc)");
        // Found on the PATH; "-c" and what follows belong to the program, not to exec.
        Out o = cli("exec", "sh", "-c", "exit 7");
        assertEquals(7, o.code(), o.text());
    }

    @Test
    void unknownOnFailureAndBadKernelFiltersAreRefused() {
        assertEquals(Main.BAD_INPUT, cli("exec", "--on-failure", "later", "--", "sh").code());
        Out o = cli("exec", "--kernel", "(", "--", "sh");
        assertEquals(Main.BAD_INPUT, o.code());
        assertTrue(o.text().contains("--kernel"), o.text());
    }

    @Test
    void contradictoryBundleOptionsAreRefusedNotOneSilentlyIgnored() {
        Out o = cli("exec", "--no-bundles", "--bundle-all", "b", "--", "sh");
        assertEquals(Main.BAD_INPUT, o.code(), o.text());
        assertTrue(o.text().contains("--no-bundles contradicts --bundle-all"), o.text());
        o = cli("exec", "--bundle-all", "a", "--bundle-dir", "b", "--", "sh");
        assertEquals(Main.BAD_INPUT, o.code(), o.text());
        assertTrue(o.text().contains("both name where bundles go"), o.text());
    }

    @Test
    void aBundleFolderThatIsAFileIsRefusedBeforeTheProgramRuns(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(tmp.resolve("notes.txt"), "mine");
        for (String opt : new String[] {"--bundle-all", "--bundle-dir"}) {
            Out o = cli("exec", opt, file.toString(), "--", "sh", "-c", "exit 0");
            assertEquals(Main.BAD_INPUT, o.code(), o.text());
            assertTrue(o.text().contains("launch bundles go into a folder, and this is a file"), o.text());
            o = cli("exec", opt, file.resolve("sub").toString(), "--", "sh", "-c", "exit 0");
            assertEquals(Main.BAD_INPUT, o.code(), o.text());
            assertTrue(o.text().contains("is a file"), o.text());
        }
        assertEquals("mine", java.nio.file.Files.readString(file));
    }
}
