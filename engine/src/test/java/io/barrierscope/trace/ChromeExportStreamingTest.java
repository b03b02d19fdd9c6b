package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Chrome export is streamed to its file, never held in memory whole: built in memory first, the
 * export of a 4M-step trace (543 MB of JSON) ran a 256 MB heap out of memory.
 */
class ChromeExportStreamingTest {
    @TempDir
    Path tmp;

    private static TimeTravel recorded() {
        LaunchedRun run = PtxRun.kernel("""
                bar.sync 0;
                bar.sync 0;
                ret;
                """).threads(64).launch();
        TimeTravel tt = new TimeTravel(run);
        tt.replayTo(run.maxSteps(), true);
        return tt;
    }

    @Test
    void theFileWrittenByStreamingHoldsExactlyTheBytesOfTheExport() throws Exception {
        TimeTravel tt = recorded();
        Path out = tmp.resolve("t.json");
        ChromeExport.write(tt, out);
        assertArrayEquals(ChromeExport.toJson(tt), Files.readAllBytes(out));
    }

    @Test
    void anExportPastItsLimitIsBadInputAndTheOldFileIsKept() throws Exception {
        TimeTravel tt = recorded();
        Path out = Files.writeString(tmp.resolve("t.json"), "old");
        BadInputException e = assertThrows(BadInputException.class, () -> ChromeExport.write(tt, out, 100));
        assertTrue(e.getMessage().contains("the Chrome trace would exceed"), e.getMessage());
        assertEquals("old", Files.readString(out));
        try (var s = Files.list(tmp)) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
    }
}
