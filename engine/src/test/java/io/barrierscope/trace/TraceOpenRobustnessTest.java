package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a trace: untrusted contents refused by name, memory counted before replaying, every written trace reopens. */
class TraceOpenRobustnessTest {
    static final Path SAMPLES = Path.of("..", "samples").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    private Path written(Path launch) throws Exception {
        TimeTravel tt = new TimeTravel(LaunchedRun.open(launch));
        tt.runForward(() -> false);
        Path t = tmp.resolve("t.bstrace");
        TraceFile.write(tt, t);
        return t;
    }

    @Test
    void aNulInATracesEmbeddedLaunchIsBadInputNotAnInternalFailure() throws Exception {
        Path t = written(SAMPLES.resolve("block-reduce/launch.json"));
        byte[] damaged = TraceSurgery.replaceSection(Files.readAllBytes(t), TraceFile.TAG_LAUNCH,
                l -> new String(l, StandardCharsets.UTF_8).replace("\"kernel.ptx\"", "\"kernel\\u0000.ptx\"").getBytes(StandardCharsets.UTF_8));
        Path d = tmp.resolve("nul.bstrace");
        Files.write(d, damaged);
        String e = assertThrows(BadInputException.class, () -> TraceFile.open(d)).getMessage();
        assertTrue(e.contains("its launch is invalid") && e.contains("control character U+0000"), e);
        assertArrayEquals(damaged, Files.readAllBytes(d), "the file on disk is untouched");
        java.io.StringWriter err = new java.io.StringWriter();
        int code = io.barrierscope.cli.Main.execute(new String[] {"export", d.toString(), "--format", "chrome", "-o", tmp.resolve("o.json").toString()},
                new java.io.PrintWriter(new java.io.StringWriter(), true), new java.io.PrintWriter(err, true));
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("control character U+0000"), err.toString());
    }

    @Test
    void aTraceClaimingMoreStepsThanItsLaunchAllowsIsRefusedBeforeReplaying() throws Exception {
        Path t = written(SAMPLES.resolve("block-reduce/launch.json"));
        byte[] damaged = TraceSurgery.replaceSection(Files.readAllBytes(t), TraceFile.TAG_LAUNCH,
                l -> new String(l, StandardCharsets.UTF_8).replaceFirst("\"maxSteps\"\\s*:\\s*\\d+", "\"maxSteps\": 3")
                        .getBytes(StandardCharsets.UTF_8));
        Path d = tmp.resolve("short.bstrace");
        Files.write(d, damaged);
        String e = assertThrows(BadInputException.class, () -> TraceFile.open(d)).getMessage();
        assertTrue(e.contains("its launch stops after 3"), e);
    }

    @Test
    void aTraceOfALaunchFileWithABackslashInItsNameReopens() throws Exception {
        Path l = tmp.resolve("odd\\name.json");
        Files.writeString(l, Files.readString(SAMPLES.resolve("block-reduce/launch.json"))
                .replace("\"kernel.ptx\"", "\"" + SAMPLES.resolve("block-reduce/kernel.ptx").toString().replace("\\", "\\\\") + "\""));
        Path t = written(l);
        assertEquals(TraceFile.open(t).recording().steps(), TraceFile.read(t).steps());
    }

    @Test
    void aReplayThatCannotFitTheHeapIsRefusedUpFrontWithTheNumbers() {
        String e = assertThrows(BadInputException.class,
                () -> TraceFile.replayBudget(Path.of("big.bstrace"), 300L << 20, 100L << 20, 40_000_000L, 400L << 20, 1L << 30)).getMessage();
        assertTrue(e.contains("40000000 warp steps") && e.contains("about 500 MiB") && e.contains("400 MiB free"), e);
        // What fits gets a checkpoint budget that leaves room for the re-recorded events and two checkpoints.
        long budget = TraceFile.replayBudget(Path.of("ok.bstrace"), 10L << 20, 1L << 20, 1000, 400L << 20, 1L << 30);
        assertEquals(195L << 20, budget);
    }
}
