package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launch file's latency model (README "run": latency settings) on a real cp.async kernel. */
class AsyncLatencySamplesTest {
    @TempDir
    Path dir;

    /** samples/cp-async-mbarrier's launch with {@code run.latency} set to {@code latency} (JSON). */
    private Path withLatency(String policy, String latency) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Path sample = SampleRuns.launch("cp-async-mbarrier");
        ObjectNode root = (ObjectNode) json.readTree(sample.toFile());
        root.put("ptx", sample.resolveSibling("kernel.ptx").toString());
        ObjectNode run = root.putObject("run");
        run.put("policy", policy);
        run.put("seed", 3);
        run.set("latency", json.readTree(latency));
        Path f = dir.resolve("launch.json");
        Files.writeString(f, json.writeValueAsString(root));
        return f;
    }

    private static LaunchedRun ran(Path launch) {
        LaunchedRun r = LaunchValidation.validate(launch).start();
        assertEquals(Outcome.COMPLETED, r.runToEnd());
        assertEquals(List.of(), r.expectDifferences(), "the kernel's result does not depend on copy latency");
        return r;
    }

    @Test
    void aLongerCopyLatencyDelaysTheRunInVirtualTime() throws Exception {
        long normal = ran(SampleRuns.launch("cp-async-mbarrier")).machine().cycles;
        long slow = ran(withLatency("round-robin", "5000")).machine().cycles;
        assertTrue(normal < 5000, "the default latency is 100 cycles: " + normal);
        assertTrue(slow >= 5000, "every copy takes 5000 cycles: " + slow);
    }

    @Test
    void roundRobinTakesTheMiddleOfARange() throws Exception {
        long fixed = ran(withLatency("round-robin", "3000")).machine().cycles;
        long range = ran(withLatency("round-robin", "{\"min\": 1000, \"max\": 5000}")).machine().cycles;
        assertEquals(fixed, range);
    }

    @Test
    void seededPoliciesDrawWithinTheRange() throws Exception {
        long low = ran(withLatency("random", "{\"min\": 4000, \"max\": 4000}")).machine().cycles;
        long range = ran(withLatency("random", "{\"min\": 4000, \"max\": 6000}")).machine().cycles;
        long high = ran(withLatency("random", "{\"min\": 6000, \"max\": 6000}")).machine().cycles;
        assertTrue(low <= range && range <= high, low + " <= " + range + " <= " + high);
    }

    @Test
    void theExplorersDefaultLatencyIsTheLaunchsToo() throws Exception {
        // A schedule that says nothing about latency replays with the launch's, as `run` would.
        LaunchedRun r = LaunchValidation.validate(withLatency("round-robin", "5000")).start(new io.barrierscope.explore.SchedulePolicy());
        assertEquals(Outcome.COMPLETED, r.runToEnd());
        assertEquals(List.of(), r.expectDifferences());
        assertTrue(r.machine().cycles >= 5000, "copies took the launch's 5000 cycles: " + r.machine().cycles);
    }

    @Test
    void aTraceCarriesItsLatencyModel() throws Exception {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(withLatency("adversarial", "{\"min\": 700, \"max\": 2500}")).start());
        tt.runForward(() -> false);
        Path f = dir.resolve("t.bstrace");
        TraceFile.write(tt, f);
        assertTrue(TraceFile.read(f).launchJson().contains("\"latency\""));
        TimeTravel back = TraceFile.open(f); // replays only if the same latencies were drawn
        assertEquals(tt.now(), back.now());
        assertEquals(tt.interpreter().machine().cycles, back.interpreter().machine().cycles);
    }
}
