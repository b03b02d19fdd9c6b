package io.barrierscope.samples;

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
 * Traces come from other people (interfaces.md, "Untrusted input"): a header that lies, correctly
 * checksummed, must be refused as bad input before it costs memory or replay time.
 */
class TraceFileUntrustedTest {
    @TempDir
    Path dir;

    private Path good() throws Exception {
        TimeTravel tt = new TimeTravel(LaunchedRun.open(SampleRuns.launch("block-reduce"), "random", 1L));
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
    void replayingToTheEndNeverRunsPastTheRecordedSteps() {
        // A trace claiming its run ended at step 10 of a kernel that goes on: the replay stops one step later.
        TimeTravel tt = new TimeTravel(LaunchedRun.open(SampleRuns.launch("block-reduce"), "round-robin", 0L));
        tt.replayTo(10, true);
        assertEquals(11, tt.now());
        assertFalse(tt.atEnd());
    }

    private static byte[] deflate(byte[] raw) {
        Deflater d = new Deflater();
        d.setInput(raw);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[256];
        while (!d.finished()) out.write(buf, 0, d.deflate(buf));
        d.end();
        return out.toByteArray();
    }
}
