package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.StateHash;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Trace files: round trip, determinism, and refusing damaged, foreign and unreproducible files untouched. */
class TraceFileSamplesTest {
    @TempDir
    Path dir;

    private static TimeTravel recorded(String sample, String policy, long seed) {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SampleRuns.launch(sample)).start(policy, seed));
        tt.runForward(() -> false);
        return tt;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tma-pipeline", "mbarrier-init-count-too-high", "double-bar-arrive", "cluster-dsmem-exchange"})
    void aWrittenTraceReopensToTheSameRun(String sample) throws IOException {
        TimeTravel tt = recorded(sample, "random", 7);
        Path f = dir.resolve(sample + ".bstrace");
        TraceFile.write(tt, f);
        TimeTravel back = TraceFile.open(f);
        assertTrue(back.recording().sameEvents(tt.recording()));
        assertEquals(tt.now(), back.now());
        assertEquals(tt.interpreter().outcome(), back.interpreter().outcome());
        assertEquals(StateHash.of(tt.interpreter()), StateHash.of(back.interpreter()));
        // The reopened session travels like the original.
        back.seek(tt.now() / 3);
        tt.seek(tt.now() / 3);
        assertEquals(StateHash.of(tt.interpreter()), StateHash.of(back.interpreter()));
    }

    /**
     * Traces in the format written before warp steps got their own in-memory log (commit 34ef32f,
     * `random` policy, seed 7; re-recorded, same bytes but the state hash, when state tokens and
     * policy state changed by design, and again when the race detector's state gained memory scopes and
     * stopped joining clocks at warp collectives other than bar.warp.sync, and when fence.mbarrier_init
     * came to release only the thread's inits) still open: the events of the re-executed run, written in the
     * trace format, are byte for byte the ones stored, and the state hashes agree.
     */
    @ParameterizedTest
    @ValueSource(strings = {"cuda-barrier-loop:2689:4407", "tma-pipeline:955:1697", "double-bar-arrive:83:104"})
    void aTraceWrittenByTheEarlierRecorderStillOpens(String spec) throws IOException {
        String[] f = spec.split(":");
        Path p = Path.of("").toAbsolutePath();
        Path base = Files.isDirectory(p.resolve("src/test/resources/traces")) ? p : p.resolve("samples");
        Path trace = base.resolve("src/test/resources/traces").resolve(f[0] + ".bstrace");
        byte[] before = Files.readAllBytes(trace);
        TimeTravel back = TraceFile.open(trace);
        assertEquals(Long.parseLong(f[1]), back.frontier());
        assertEquals(Long.parseLong(f[2]), back.recording().events());
        assertTrue(back.atEnd());
        assertArrayEquals(before, Files.readAllBytes(trace), "opening changes nothing on disk");
    }

    @Test
    void theSameSeedWritesTheSameBytes() throws IOException {
        Path a = dir.resolve("a.bstrace"), b = dir.resolve("b.bstrace");
        TraceFile.write(recorded("bulk-copy-pipeline", "adversarial", 3), a);
        TraceFile.write(recorded("bulk-copy-pipeline", "adversarial", 3), b);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        Path c = dir.resolve("c.bstrace");
        TraceFile.write(recorded("bulk-copy-pipeline", "adversarial", 4), c);
        assertFalse(Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(c)));
    }

    @Test
    void aTraceCarriesItsCudaSourceToWhereverItIsOpened() throws IOException {
        Path f = dir.resolve("elsewhere").resolve("carried.bstrace");
        TraceFile.write(recorded("block-reduce", "round-robin", 0), f);
        TimeTravel back = TraceFile.open(f);
        assertFalse(Files.exists(f.resolveSibling("kernel.cu")));
        assertEquals(Files.readString(SampleRuns.root().resolve("block-reduce/kernel.cu")), back.run().carriedSource("kernel.cu"));
        assertEquals(back.run().carriedSource("kernel.cu"), back.run().cudaSources().get("kernel.cu"));
    }

    @Test
    void aTraceOfAPausedSessionOpensAtItsLastStep() throws IOException {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SampleRuns.launch("mbarrier-parity-pipeline")).start("random", 2L));
        for (int i = 0; i < 300; i++) tt.step();
        Path f = dir.resolve("paused.bstrace");
        TraceFile.write(tt, f);
        TimeTravel back = TraceFile.open(f);
        assertEquals(300, back.now());
        assertFalse(back.atEnd());
        assertEquals(StateHash.of(tt.interpreter()), StateHash.of(back.interpreter()));
        back.runForward(() -> false);
        assertTrue(back.atEnd());
    }

    private Path good() throws IOException {
        Path f = dir.resolve("good.bstrace");
        TraceFile.write(recorded("block-reduce", "random", 1), f);
        return f;
    }

    /** Opening must fail with a message containing {@code words} and leave the directory exactly as it was. */
    private void refused(Path f, String words) throws IOException {
        List<String> before = listing();
        byte[] bytes = Files.exists(f) ? Files.readAllBytes(f) : null;
        BadInputException e = assertThrows(BadInputException.class, () -> TraceFile.open(f));
        assertTrue(e.getMessage().contains(words), e.getMessage());
        assertTrue(e.getMessage().startsWith(f.toString()), "names the file: " + e.getMessage());
        assertEquals(before, listing());
        if (bytes != null) assertArrayEquals(bytes, Files.readAllBytes(f));
    }

    private List<String> listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aDamagedTraceIsRefusedUntouched() throws IOException {
        Path f = good();
        byte[] b = Files.readAllBytes(f);
        b[b.length / 2] ^= 0x40;
        Files.write(f, b);
        refused(f, "damaged or truncated");
    }

    @Test
    void aTruncatedTraceIsRefused() throws IOException {
        Path f = good();
        byte[] b = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(b, b.length - 100));
        refused(f, "damaged or truncated");
        Files.write(f, Arrays.copyOf(b, 10));
        refused(f, "not a BarrierScope trace");
    }

    @Test
    void foreignFilesAreRefused() throws IOException {
        Path ptx = dir.resolve("kernel.ptx");
        Files.copy(SampleRuns.root().resolve("block-reduce/kernel.ptx"), ptx);
        refused(ptx, "not a BarrierScope trace");
        Path empty = Files.createFile(dir.resolve("empty.bstrace"));
        refused(empty, "not a BarrierScope trace");
        refused(dir.resolve("missing.bstrace"), "no such trace file");
    }

    /** Rebuilds a trace with one section replaced (or the version changed), correctly checksummed. */
    static byte[] rebuilt(byte[] trace, int version, int tag, byte[] replacement) throws Exception {
        ByteBuffer in = ByteBuffer.wrap(trace, 0, trace.length - 32);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] magic = new byte[8];
        in.get(magic);
        out.write(magic);
        in.getInt();
        out.write(ByteBuffer.allocate(4).putInt(version).array());
        while (true) {
            int t = in.get();
            out.write(t);
            if (t == 0) break;
            byte[] data = new byte[in.getInt()];
            in.get(data);
            if (t == tag) data = replacement;
            out.write(ByteBuffer.allocate(4).putInt(data.length).array());
            out.write(data);
        }
        byte[] body = out.toByteArray();
        byte[] sha = MessageDigest.getInstance("SHA-256").digest(body);
        byte[] all = Arrays.copyOf(body, body.length + 32);
        System.arraycopy(sha, 0, all, body.length, 32);
        return all;
    }

    @Test
    void aTraceOfAnotherFormatVersionIsRefusedByName() throws Exception {
        Path f = good();
        Files.write(f, rebuilt(Files.readAllBytes(f), 99, -1, null));
        refused(f, "trace format version 99");
    }

    @Test
    void aTraceThisEngineCannotReproduceSaysSo() throws Exception {
        Path f = good();
        TraceFile.Contents c = TraceFile.read(f);
        // Same kernel, another seed: a different schedule than the recorded events and hashes.
        String launch = c.launchJson().replaceAll("\"seed\" : 1\\b", "\"seed\" : 2");
        assertTrue(!launch.equals(c.launchJson()));
        String header = c.header().toString().replace("\"seed\":1,", "\"seed\":2,");
        byte[] b = rebuilt(Files.readAllBytes(f), TraceFile.FORMAT, 2, launch.getBytes(StandardCharsets.UTF_8));
        b = rebuilt(b, TraceFile.FORMAT, 1, header.getBytes(StandardCharsets.UTF_8));
        Files.write(f, b);
        refused(f, "cannot reproduce the trace");
    }

    @Test
    void aTraceWithAnInvalidLaunchNamesTheProblem() throws Exception {
        Path f = good();
        byte[] b = rebuilt(Files.readAllBytes(f), TraceFile.FORMAT, 2, "{\"ptx\": \"kernel.ptx\", \"grid\": -3}".getBytes(StandardCharsets.UTF_8));
        Files.write(f, b);
        refused(f, "its launch is invalid");
    }
}
