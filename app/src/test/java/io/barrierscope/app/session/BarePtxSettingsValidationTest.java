package io.barrierscope.app.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.exec.Dim3;
import io.barrierscope.launch.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bare .ptx opened with the window's launch settings meets every check a launch file meets, located in that launch as JSON. */
class BarePtxSettingsValidationTest {
    @TempDir Path dir;

    @Test
    void settingsTheLaunchChecksRefuseAreRefusedLocatedInTheLaunchWrittenAsJson() throws Exception {
        Path ptx = dir.resolve("printf_debug.ptx");
        Files.copy(TestFiles.printfPtx(), ptx);
        // Each dimension within the settings' own range, the grid beyond a launch file's (at most 2^20 per dimension).
        LaunchSettings s = new LaunchSettings(new Dim3(1, 1, 2_000_000), new Dim3(1, 1, 1), null, "round-robin", 0);
        BadInputException e = assertThrows(BadInputException.class, () -> Loader.load(ptx, s));
        String m = e.getMessage();
        assertTrue(m.startsWith(ptx + " (its launch as JSON):"), m);
        assertTrue(m.contains("2000000"), m);
        assertTrue(m.lines().count() >= 3, "the JSON line and a caret are shown: " + m);
    }

    @Test
    void goodSettingsStillRunWithTheirNotes() throws Exception {
        Path ptx = dir.resolve("printf_debug.ptx");
        Files.copy(TestFiles.printfPtx(), ptx);
        LaunchSettings s = new LaunchSettings(new Dim3(2, 1, 1), new Dim3(64, 1, 1), null, "random", 7);
        Loader.Loaded l = Loader.load(ptx, s);
        assertEquals(new Dim3(2, 1, 1), l.travel().run().launch().spec().grid());
        assertTrue(l.travel().run().launch().spec().notes().get(0).contains("no launch file"), l.travel().run().launch().spec().notes().toString());
    }
}
