package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces come from other people (README, "Untrusted input"): a header that lies, correctly
 * checksummed, must be refused as bad input before it costs memory or replay time.
 */
class TraceFileUntrustedTest {
    @TempDir
    Path dir;

    private Path good() throws Exception {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SampleRuns.launch("block-reduce")).start("random", 1L));
        tt.runForward(() -> false);
        Path f = dir.resolve("t.bstrace");
        TraceFile.write(tt, f);
        return f;
    }

    /** The trace with its header edited and the file re-checksummed. */
    private static void editHeader(Path f, Consumer<ObjectNode> edit) throws Exception {
        ObjectNode h = ((ObjectNode) TraceFile.read(f).header()).deepCopy();
        edit.accept(h);
        Files.write(f, TraceFileSamplesTest.rebuilt(Files.readAllBytes(f), TraceFile.FORMAT, 1, h.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static void refused(Path f, String words) throws Exception {
        byte[] before = Files.readAllBytes(f);
        BadInputException e = assertThrows(BadInputException.class, () -> TraceFile.open(f));
        assertTrue(e.getMessage().startsWith(f.toString()) && e.getMessage().contains(words), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(f));
    }

    @Test
    void anEventLengthTheCompressedBytesCannotHoldIsRefusedBeforeAllocating() throws Exception {
        Path f = good();
        editHeader(f, h -> h.put("eventBytes", 2_000_000_000L));
        refused(f, "more than");
    }

    @Test
    void moreWarpStepsThanTheEventsHoldIsRefusedBeforeReplaying() throws Exception {
        Path f = good();
        editHeader(f, h -> h.put("steps", 1L << 50));
        refused(f, "warp steps but the event stream holds");
    }

    @Test
    void aMalformedEventStreamIsRefusedByOffset() throws Exception {
        Path f = good();
        byte[] raw = {0x00, 0x05, 0x07, 0x0E}; // a whole-warp step, then a record of no known type
        editHeader(f, h -> h.put("eventBytes", raw.length));
        Files.write(f, TraceFileSamplesTest.rebuilt(Files.readAllBytes(f), TraceFile.FORMAT, 4, deflate(raw)));
        refused(f, "malformed at byte 3");
    }

    @Test
    void anUnknownPolicyIsBadInputNotACrash() throws Exception {
        Path f = good();
        editHeader(f, h -> h.put("policy", "fastest"));
        refused(f, "policy 'fastest'");
    }

    @Test
    void aMalformedStateHashIsBadInputNotACrash() throws Exception {
        Path f = good();
        editHeader(f, h -> h.putArray("stateHashes").addArray().add(0).add("not-hex"));
        refused(f, "malformed entry");
    }

    @Test
    void aStateHashAtAStepThatIsNoCheckpointIsRefusedBeforeAnythingRuns() throws Exception {
        // Each listed step costs a seek and a hash of the whole state when opening: only checkpoint steps and the end may be listed.
        Path f = good();
        editHeader(f, h -> h.putArray("stateHashes").addArray().add(7).add("abc"));
        refused(f, "step 7, which is no checkpoint step nor the end");
    }

    @Test
    void aLaunchFileNameThatIsNoPlainNameIsRefused() throws Exception {
        Path f = good();
        editHeader(f, h -> h.put("launchFile", "../../etc/passwd"));
        refused(f, "not a plain file name");
        editHeader(f, h -> h.put("launchFile", "a\u0000b"));
        refused(f, "not a plain file name");
    }

    @Test
    void aMistakeInTheEmbeddedLaunchIsShownInItNotInAFileBesideTheTrace() throws Exception {
        Path f = good();
        Files.writeString(f.resolveSibling("launch.json"), "{\"secret\": \"do not show me\"}\n");
        String launch = TraceFile.read(f).launchJson().replaceFirst("\"args\" : \\[", "\"args\" : [ {\"value\": 1, \"type\": \"u8\"},");
        Files.write(f, TraceFileSamplesTest.rebuilt(Files.readAllBytes(f), TraceFile.FORMAT, 2, launch.getBytes(StandardCharsets.UTF_8)));
        BadInputException e = assertThrows(BadInputException.class, () -> TraceFile.open(f));
        assertTrue(e.getMessage().contains("its launch is invalid") || e.getMessage().contains("parameters"), e.getMessage());
        assertTrue(!e.getMessage().contains("do not show me"), e.getMessage());
    }

    @Test
    void aTraceOfARunEndedByTheStepLimitReopens() throws Exception {
        LaunchedRun run = LaunchValidation.validate(SampleRuns.launch("block-reduce")).start("random", 1L);
        TimeTravel tt = new TimeTravel(run, 500);
        tt.runForward(() -> false);
        assertEquals(io.barrierscope.exec.Outcome.STEP_LIMIT, run.interpreter().outcome());
        Path f = dir.resolve("limit.bstrace");
        TraceFile.write(tt, f);
        TimeTravel back = TraceFile.open(f);
        assertEquals(500, back.now());
        assertEquals(io.barrierscope.exec.Outcome.STEP_LIMIT, back.interpreter().outcome());
    }

    @Test
    void eventsLargerThanTheHeapCanHoldAreBadInputNotAnOutOfMemoryError() throws Exception {
        // 40 MB of events that deflate to a few kilobytes, opened by a Java of 64 MiB.
        Path f = good();
        byte[] raw = new byte[40_000_000];
        editHeader(f, h -> h.put("eventBytes", raw.length));
        Files.write(f, TraceFileSamplesTest.rebuilt(Files.readAllBytes(f), TraceFile.FORMAT, 4, deflate(raw)));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-cp",
                System.getProperty("java.class.path"), io.barrierscope.cli.Main.class.getName(), "export", f.toString(), "--format",
                "chrome", "-o", dir.resolve("out.json").toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(2, p.waitFor(), out);
        assertTrue(out.contains("need more memory than this Java allows"), out);
        assertTrue(!Files.exists(dir.resolve("out.json")));
    }

    @Test
    void replayingToTheEndNeverRunsPastTheRecordedSteps() {
        // A trace claiming its run ended at step 10 of a kernel that goes on: the replay stops one step later.
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SampleRuns.launch("block-reduce")).start("round-robin", 0L));
        tt.replayTo(10, true);
        assertEquals(11, tt.now());
        assertFalse(tt.atEnd());
    }

    private static byte[] deflate(byte[] raw) {
        Deflater d = new Deflater();
        d.setInput(raw);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        while (!d.finished()) out.write(buf, 0, d.deflate(buf));
        d.end();
        return out.toByteArray();
    }
}
