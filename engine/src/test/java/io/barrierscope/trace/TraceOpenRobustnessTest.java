package io.barrierscope.trace;

import io.barrierscope.launch.LaunchValidation;

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
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(launch).start());
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
    void aTraceFileTooLargeToReadIntoTheHeapIsRefusedWithTheNumbersBeforeReading() {
        // A 150 MB file (right magic, junk after) once ran a 256 MB heap out of memory before its checksum was checked.
        String e = assertThrows(BadInputException.class,
                () -> TraceFile.checkReadFits(Path.of("big.bstrace"), 150L << 20, 200L << 20, 256L << 20)).getMessage();
        assertTrue(e.contains("big.bstrace: error: the trace file is 150 MiB; reading it takes about 301 MiB but this Java has about 200 MiB free of 256 MiB"), e);
        TraceFile.checkReadFits(Path.of("small.bstrace"), 10L << 20, 200L << 20, 256L << 20);
    }

    @Test
    void aReplayThatCannotFitTheHeapIsRefusedUpFrontWithTheNumbers() {
        String e = assertThrows(BadInputException.class,
                () -> TraceFile.replayBudget(Path.of("big.bstrace"), 300L << 20, 100L << 20, 40_000_000L, 400L << 20, 1L << 30)).getMessage();
        // A trace shorter than one checkpoint interval needs only the checkpoint at step 0.
        assertEquals(256L << 20, TraceFile.replayBudget(Path.of("short.bstrace"), 1 << 20, 256L << 20, 1291, 431L << 20, 700L << 20));
        assertTrue(e.contains("40000000 warp steps") && e.contains("about 500 MiB") && e.contains("400 MiB free"), e);
        // What fits gets a checkpoint budget that leaves room for the re-recorded events and two checkpoints.
        long budget = TraceFile.replayBudget(Path.of("ok.bstrace"), 10L << 20, 1L << 20, 1000, 400L << 20, 1L << 30);
        assertEquals(195L << 20, budget);
    }

    @Test
    void theCheckpointAtStepZeroHoldsNoShadowSoATraceReopensInTheHeapItsRunFitIn() {
        // Counted with the race shadow at its worst in the step-0 checkpoint too, a trace `run --trace` wrote at
        // -Xmx128m (96 MiB of read sets at their cap) was refused there: "about 192 MiB, but this Java has 120 MiB free".
        long mib = 1L << 20;
        TraceFile.replayBudget(Path.of("short.bstrace"), mib, mib, 96 * mib, 1097, 99 * mib, 128 * mib);
        String e = assertThrows(BadInputException.class,
                () -> TraceFile.replayBudget(Path.of("short.bstrace"), mib, mib, 96 * mib, 1097, 97 * mib, 128 * mib)).getMessage();
        assertTrue(e.contains("shadow of up to 96 MiB live and in each checkpoint after the first: about 98 MiB"), e);
        // Past the first interval a second checkpoint holds a shadow of its own.
        long steps = 10_000_000;
        assertThrows(BadInputException.class,
                () -> TraceFile.replayBudget(Path.of("long.bstrace"), mib, mib, 96 * mib, steps, 194 * mib, 256 * mib));
        TraceFile.replayBudget(Path.of("long.bstrace"), mib, mib, 96 * mib, steps, 195 * mib, 256 * mib);
        // And the step-0 checkpoint of a run with the detector on holds none of it.
        LaunchedRun run = LaunchValidation.validate(Path.of("..", "samples", "block-reduce", "launch.json").toAbsolutePath()).start();
        long cp = io.barrierscope.trace.Checkpoint.take(run.interpreter()).bytes();
        assertTrue(cp < run.stateBytes() + (1L << 20) && run.memoryEstimate(0).readSetBytes() > 64 * mib, cp + " bytes at step 0");
    }

    @Test
    void reExecutedEventsAreComparedWithoutASecondCopyAndTheFirstDifferenceIsFound() throws Exception {
        Path spin = tmp.resolve("spin.ptx");
        Files.writeString(spin, ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry spin()\n{\n.reg .b32 %r<3>;\n"
                + "mov.u32 %r1, 0;\n$L1:\nadd.u32 %r1, %r1, 1;\nbra $L1;\n}\n");
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(spin).start(), 100_000);
        tt.runForward(() -> false);
        byte[] e = tt.recording().encoded();
        assertTrue(e.length > 1 << 16, "long enough to cross the comparison window: " + e.length);
        assertEquals(-1, tt.recording().mismatch(e));
        for (int at : new int[] {0, 7, (1 << 16) + 3, e.length - 1}) {
            byte[] d = e.clone();
            d[at] ^= 1;
            assertEquals(at, tt.recording().mismatch(d));
        }
        assertEquals(e.length - 5, tt.recording().mismatch(java.util.Arrays.copyOf(e, e.length - 5)));
        assertEquals(e.length, tt.recording().mismatch(java.util.Arrays.copyOf(e, e.length + 5)));
    }
}
