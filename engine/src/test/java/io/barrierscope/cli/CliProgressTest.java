package io.barrierscope.cli;

import static io.barrierscope.cli.CliTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a long trace shows its progress on stderr when asked ({@code --progress}) or on a
 * terminal; otherwise the output is exactly what it was (README, "Command line").
 */
class CliProgressTest {
    @TempDir
    Path tmp;

    /** A trace of one warp counting to 6000: about 18,000 warp steps, so the replay reports progress four times. */
    private Path longTrace() throws Exception {
        Path ptx = tmp.resolve("count.ptx");
        Files.writeString(ptx, ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry count()\n{\n"
                + ".reg .pred %p<2>;\n.reg .b32 %r<3>;\nmov.u32 %r1, 0;\nLOOP:\nadd.u32 %r1, %r1, 1;\n"
                + "setp.lt.u32 %p1, %r1, 6000;\n@%p1 bra LOOP;\nret;\n}\n");
        Path trace = tmp.resolve("count.bstrace");
        CliTest.Result r = cli("run", ptx.toString(), "--trace", trace.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        return trace;
    }

    @Test
    void exportShowsTheReplaysProgressOnlyWhenAsked() throws Exception {
        Path trace = longTrace();
        CliTest.Result quiet = cli("export", trace.toString(), "--format", "chrome", "-o", tmp.resolve("a.json").toString());
        assertEquals(0, quiet.code(), quiet.err());
        assertEquals("", quiet.err(), "no progress unless asked or on a terminal");
        CliTest.Result shown = cli("export", trace.toString(), "--format", "chrome", "-o", tmp.resolve("a.json").toString(), "--progress");
        assertEquals(0, shown.code(), shown.err());
        assertEquals(quiet.out(), shown.out(), "stdout is the same either way");
        assertTrue(shown.err().contains("opening " + trace + ": read\n"), shown.err());
        assertTrue(shown.err().contains("replaying warp step 4096 of "), shown.err());
        assertFalse(shown.err().contains("\r"), "a log gets whole lines");
    }

    @Test
    void diffShowsTheProgressOfOpeningEachTraceWhenAsked() throws Exception {
        Path trace = longTrace();
        CliTest.Result quiet = cli("diff", trace.toString(), trace.toString());
        assertEquals(0, quiet.code(), quiet.out() + quiet.err());
        assertEquals("", quiet.err());
        CliTest.Result shown = cli("diff", trace.toString(), trace.toString(), "--progress");
        assertEquals(quiet.out(), shown.out());
        assertEquals(2, shown.err().split("opening " + trace + ": read\n", -1).length - 1, shown.err());
    }

    @Test
    void onATerminalTheLineIsRewrittenInPlaceAndClearedAtTheEnd() throws Exception {
        Path trace = longTrace();
        boolean was = ProgressLine.stderrIsTerminal;
        ProgressLine.stderrIsTerminal = true;
        try {
            CliTest.Result r = cli("export", trace.toString(), "--format", "chrome", "-o", tmp.resolve("a.json").toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.err().startsWith("\ropening " + trace + ": read"), r.err());
            assertTrue(r.err().contains("\ropening " + trace + ": replaying warp step 4096 of "), r.err());
            assertFalse(r.err().contains("\n"), "one line, rewritten");
            assertTrue(r.err().endsWith("\r") && r.err().substring(r.err().lastIndexOf('\r', r.err().length() - 2) + 1,
                    r.err().length() - 1).isBlank(), "cleared at the end: " + r.err());
        } finally {
            ProgressLine.stderrIsTerminal = was;
        }
    }

    @Test
    void theProgressWordsAreTheWindows() {
        assertEquals("replaying warp step 8192 of 50000 (16%)", ProgressLine.describe("replay", 8192, 50000));
        assertEquals("parsing the PTX, character 16384 of 32768 (50%)", ProgressLine.describe("parse", 16384, 32768));
    }
}
