package io.barrierscope.trace;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Cancellation;
import io.barrierscope.ptx.PtxParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a trace is bounded by what its file can hold, reports its progress and stops when cancelled. */
class TraceOpenCancelTest {
    @TempDir
    Path tmp;

    private static final String SPIN = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry spin()\n{\n.reg .b32 %r<3>;\n"
            + "mov.u32 %r1, 0;\n$L1:\nadd.u32 %r1, %r1, 1;\nbra $L1;\n}\n";

    /** A trace of a kernel that never ends, stopped at its step limit of {@code steps}. */
    private Path spinTrace(long steps) throws Exception {
        Path spin = tmp.resolve("spin.ptx");
        Files.writeString(spin, SPIN);
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(spin).start(), steps);
        tt.runForward(() -> false);
        Path t = tmp.resolve("spin.bstrace");
        TraceFile.write(tt, t);
        return t;
    }

    @Test
    void aSmallTraceClaimingTensOfMillionsOfStepsIsRefusedBeforeReplaying() throws Exception {
        Path t = spinTrace(20_000);
        byte[] lie = TraceSurgery.replaceSection(Files.readAllBytes(t), TraceFile.TAG_HEADER,
                h -> new String(h, StandardCharsets.UTF_8).replaceFirst("\"steps\"\\s*:\\s*\\d+", "\"steps\" : 40000000")
                        .getBytes(StandardCharsets.UTF_8));
        byte[] lieLaunch = TraceSurgery.replaceSection(lie, TraceFile.TAG_LAUNCH,
                l -> new String(l, StandardCharsets.UTF_8).replaceFirst("\"maxSteps\"\\s*:\\s*\\d+", "\"maxSteps\": 50000000")
                        .getBytes(StandardCharsets.UTF_8));
        assertTrue(lieLaunch.length < 16 << 10, "a small file: " + lieLaunch.length);
        Path d = tmp.resolve("lie.bstrace");
        Files.write(d, lieLaunch);
        List<String> phases = new ArrayList<>();
        String e = assertThrows(BadInputException.class, () -> TraceFile.open(d, new Cancellation((p, done, total) -> phases.add(p))))
                .getMessage();
        // The events are counted before anything runs: nothing was parsed or replayed.
        assertTrue(e.contains("declares 40000000 warp steps but the event stream holds 20000"), e);
        assertEquals(List.of(), phases);
    }

    @Test
    void openingReportsReplayProgressAndACancelStopsItMidReplay() throws Exception {
        Path t = spinTrace(100_000);
        List<Long> seen = new ArrayList<>();
        Cancellation[] self = new Cancellation[1];
        self[0] = new Cancellation((phase, done, total) -> {
            if (!phase.equals("replay")) return;
            assertEquals(100_000, total);
            seen.add(done);
            if (done >= 20_000) self[0].cancel();
        });
        Cancellation.Cancelled c = assertThrows(Cancellation.Cancelled.class, () -> TraceFile.open(t, self[0]));
        assertTrue(c.getMessage().startsWith("replay cancelled after"), c.getMessage());
        long last = seen.get(seen.size() - 1);
        // Stopped at the first check after the cancel, far from the end.
        assertTrue(last >= 20_000 && last < 30_000, "stopped at " + last);
        for (int i = 1; i < seen.size(); i++) assertTrue(seen.get(i) > seen.get(i - 1));
        // Uncancelled, the same trace opens.
        assertEquals(100_000, TraceFile.open(t, new Cancellation(null)).now());
    }

    @Test
    void aCancelStopsThePtxParserMidway() {
        StringBuilder sb = new StringBuilder(".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %r<3>;\n");
        for (int i = 0; i < 20_000; i++) sb.append("add.u32 %r1, %r1, 1;\n");
        sb.append("ret;\n}\n");
        List<String> phases = new ArrayList<>();
        Cancellation cancel = new Cancellation((phase, done, total) -> phases.add(phase));
        assertEquals(1, PtxParser.parse("k.ptx", sb.toString(), cancel).entries().size());
        assertTrue(phases.contains("parse"), phases.toString());
        cancel.cancel();
        Cancellation.Cancelled c = assertThrows(Cancellation.Cancelled.class, () -> PtxParser.parse("k.ptx", sb.toString(), cancel));
        assertTrue(c.getMessage().startsWith("parse cancelled"), c.getMessage());
    }
}
