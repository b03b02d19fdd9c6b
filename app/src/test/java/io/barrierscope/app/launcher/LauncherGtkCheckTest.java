package io.barrierscope.app.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.Locations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;

/**
 * The launcher's window prerequisite check ({@code gtk_present} and {@code gui_prerequisites} in
 * the {@code barrierscope} script), run by sourcing the script in bash with stand-ins for
 * {@code ldconfig}, {@code apt-get} and {@code id} on the PATH.
 */
class LauncherGtkCheckTest {
    @TempDir Path dir;

    private static Path script() {
        Path root = Locations.repoRoot(Path.of(""), Locations.codeLocation()).orElseThrow();
        return root.resolve("barrierscope");
    }

    /** A fake command in {@code dir/bin} that runs {@code body}. */
    private void fake(String name, String body) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A listing like {@code ldconfig -p} with GTK first among many lines (the case that broke `grep -q`). */
    private void ldconfigListingGtkFirst() throws IOException {
        fake("ldconfig", "echo '1234 libs found in cache'\n"
                + "echo '\tlibgtk-3.so.0 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libgtk-3.so.0'\n"
                + "for i in $(seq 1 20000); do echo \"\tlibfiller$i.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libfiller$i.so.1\"; done");
    }

    private record Result(int code, String out) {}

    /** Sources the script under its own shell options, empties the fallback library dirs, runs {@code commands}. */
    private Result bash(String commands) throws Exception {
        String program = "set -euo pipefail\nsource '" + script() + "'\ngtk_lib_dirs=()\n" + commands + "\n";
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", "-c", program)).redirectErrorStream(true);
        pb.environment().put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("DISPLAY", ":99");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }

    @Test
    void gtkListedFirstInALongLdconfigListingIsFoundEveryTime() throws Exception {
        ldconfigListingGtkFirst();
        for (int i = 0; i < 5; i++) {
            Result r = bash("gtk_present && echo PRESENT || echo MISSING");
            assertEquals("PRESENT", r.out().strip(), r.out());
        }
    }

    @Test
    void gtkAbsentFromTheListingAndTheLibraryDirsIsReportedMissing() throws Exception {
        fake("ldconfig", "echo '2 libs found in cache'; echo '\tlibc.so.6 (libc6,x86-64) => /lib/libc.so.6'");
        Result r = bash("gtk_present && echo PRESENT || echo MISSING");
        assertEquals("MISSING", r.out().strip(), r.out());
    }

    @Test
    void gtkFileInALibraryDirCountsWhenLdconfigIsMissingOrStale() throws Exception {
        fake("ldconfig", "exit 1");
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("libgtk-3.so.0"), "");
        Result r = bash("gtk_lib_dirs=('" + lib + "')\ngtk_present && echo PRESENT || echo MISSING");
        assertEquals("PRESENT", r.out().strip(), r.out());
    }

    @Test
    void asRootWithGtkPresentThePrerequisiteCheckNeverInstalls() throws Exception {
        ldconfigListingGtkFirst();
        Path marker = dir.resolve("apt-get-called");
        fake("apt-get", "touch '" + marker + "'");
        fake("id", "echo 0");
        Result r = bash("gui_prerequisites && echo OK");
        assertEquals("OK", r.out().strip(), r.out());
        assertFalse(Files.exists(marker), "apt-get ran although GTK is present");
    }

    @Test
    void asRootWithGtkMissingThePrerequisiteCheckInstallsIt() throws Exception {
        fake("ldconfig", "echo '0 libs found in cache'");
        Path marker = dir.resolve("apt-get-called");
        fake("apt-get", "echo \"$*\" >> '" + marker + "'");
        fake("id", "echo 0");
        Result r = bash("root=" + dir + "\ngui_prerequisites && echo OK");
        assertTrue(r.out().contains("OK"), r.out());
        assertTrue(Files.readString(marker).contains("install -y -q libgtk-3-0"), Files.readString(marker));
    }
}
