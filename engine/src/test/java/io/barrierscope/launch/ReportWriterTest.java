package io.barrierscope.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.check.Deadlock;
import io.barrierscope.exec.Outcome;
import io.barrierscope.testing.PtxRun;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The JSON report of docs/report.md, version 2: the barrier a wait is on and a diagnostic
 * concerns, and what a wait needs, are objects of facts with the words kept as "description";
 * locations are objects with a column. Run on the nvcc-built samples where one shows the rule.
 */
class ReportWriterTest {
    static final Path SAMPLES = Path.of("..", "samples").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static LaunchedRun sample(String name) {
        LaunchedRun r = LaunchValidation.validate(SAMPLES.resolve(name).resolve("launch.json")).start("round-robin", 0L);
        r.runToEnd();
        return r;
    }

    /** The report as a reader of the written file sees it. */
    private static JsonNode report(LaunchedRun r) {
        return JSON.valueToTree(ReportWriter.report(r, 0));
    }

    private static List<Integer> ints(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asInt).toList();
    }

    @Test
    void everyReportSaysItIsVersionTwo() {
        assertEquals(2, report(sample("block-reduce")).path("reportVersion").asInt(-1));
        assertEquals(2, report(sample("named-barrier-too-many")).path("reportVersion").asInt(-1));
    }

    @Test
    void aWaitOnACtaBarrierNamesItsCtaIdAndGeneration() {
        JsonNode on = report(sample("named-barrier-too-many")).path("deadlock").path("waits").get(0).path("on");
        assertTrue(on.isObject(), on.toString());
        assertEquals("cta-barrier", on.path("kind").asText());
        assertEquals(List.of(0, 0, 0), ints(on.path("cta")));
        assertEquals(1, on.path("id").asInt(-1));
        assertEquals(0, on.path("generation").asInt(-1));
        assertFalse(on.has("phase"), "a CTA barrier has generations, not phases: " + on);
    }

    @Test
    void whatACountedCtaBarrierNeedsIsCountedInWarps() {
        // bar.sync 1, 128 in a CTA whose last two warps exited: 4 warps needed, 2 there.
        JsonNode needs = report(sample("named-barrier-too-many")).path("deadlock").path("waits").get(0).path("needs");
        assertEquals("warps", needs.path("unit").asText());
        assertEquals(4, needs.path("expected").asInt());
        assertEquals(2, needs.path("arrived").asInt());
        assertEquals(2, needs.path("remaining").asInt());
        assertEquals(128, needs.path("threadCount").asInt());
        assertEquals(4, needs.path("ctaWarps").asInt());
    }

    @Test
    void theWordsOfOnAndNeedsAreKeptAsTheirDescriptions() {
        LaunchedRun r = sample("mbarrier-init-count-too-high");
        JsonNode waits = report(r).path("deadlock").path("waits");
        List<Deadlock.Wait> words = r.deadlock().waits();
        assertEquals(words.size(), waits.size());
        for (int i = 0; i < words.size(); i++) {
            assertEquals(words.get(i).on(), waits.get(i).path("on").path("description").asText());
            assertEquals(words.get(i).needs(), waits.get(i).path("needs").path("description").asText());
        }
        assertTrue(report(r).path("deadlock").path("text").asText().contains(words.get(0).needs()));
    }

    @Test
    void aWaitOnAnMbarrierNamesItsVariableOffsetAndPhaseAndCountsArrivals() {
        // init count 129 for 128 arriving threads: one arrival short, forever.
        JsonNode w = report(sample("mbarrier-init-count-too-high")).path("deadlock").path("waits").get(0);
        JsonNode on = w.path("on");
        assertEquals("mbarrier", on.path("kind").asText());
        assertEquals("bar", on.path("variable").asText());
        assertEquals(0, on.path("offset").asInt(-1));
        assertEquals(0, on.path("phase").asInt(-1));
        assertEquals(0, on.path("parity").asInt(-1));
        JsonNode needs = w.path("needs");
        assertEquals("arrivals", needs.path("unit").asText());
        assertEquals(129, needs.path("expected").asInt());
        assertEquals(128, needs.path("arrived").asInt());
        assertEquals(1, needs.path("remaining").asInt());
        assertEquals(0, needs.path("txCount").asInt(-1));
    }

    @Test
    void anMbarrierHeldOpenByMissingBytesShowsTheTxCountAndTheParityWaitedFor() {
        JsonNode needs = report(sample("expect-tx-too-high")).path("deadlock").path("waits").get(0).path("needs");
        assertEquals(0, needs.path("remaining").asInt(-1), "every arrival is in: " + needs);
        assertEquals(128, needs.path("txCount").asLong());
        assertEquals(256, needs.path("txExpected").asLong());
        assertEquals(128, needs.path("txCompleted").asLong());
        assertEquals(0, needs.path("parity").asInt(-1));
        assertEquals(2, needs.path("phase").asInt(-1));
    }

    @Test
    void aWaitOnTheClusterBarrierNamesTheClusterAndCountsItsThreads() {
        JsonNode waits = report(sample("cluster-barrier-one-partition")).path("deadlock").path("waits");
        JsonNode w = StreamSupport.stream(waits.spliterator(), false)
                .filter(x -> x.path("on").path("kind").asText().equals("cluster-barrier")).findFirst().orElseThrow();
        assertEquals(List.of(0, 0, 0), ints(w.path("on").path("cta")), "the cluster by its rank-0 CTA");
        assertEquals(0, w.path("on").path("phase").asInt(-1));
        assertEquals("threads", w.path("needs").path("unit").asText());
        assertEquals(128, w.path("needs").path("expected").asInt());
        assertEquals(64, w.path("needs").path("arrived").asInt());
    }

    @Test
    void aWaitAtAWarpSyncNamesTheWarpAndMembermaskAndCountsLanes() {
        // Lanes 0-15 wait at bar.warp.sync -1; lanes 16-31 wait at a CTA barrier no one completes.
        String body = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\nmov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 16;\n@%p1 bra A;\n"
                + "barrier.sync 1, 64;\nbra.uni DONE;\nA:\nbar.warp.sync -1;\nDONE:\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome(), r.summary());
        JsonNode w = StreamSupport.stream(report(r).path("deadlock").path("waits").spliterator(), false)
                .filter(x -> x.path("on").path("kind").asText().equals("warp-sync")).findFirst().orElseThrow();
        assertEquals(0, w.path("on").path("warp").asInt(-1));
        assertEquals("0xffffffff", w.path("on").path("membermask").asText());
        assertEquals("lanes", w.path("needs").path("unit").asText());
        assertEquals(32, w.path("needs").path("expected").asInt());
        assertEquals(16, w.path("needs").path("arrived").asInt());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), ints(w.path("group").path("lanes")));
        assertFalse(w.path("location").has("cuda"), "hand-written PTX has no .loc: " + w.path("location"));
    }

    @Test
    void aWaitsLocationIsAnObjectWithColumnAndCudaPlace() {
        JsonNode loc = report(sample("named-barrier-too-many")).path("deadlock").path("waits").get(0).path("location");
        assertEquals("kernel.ptx", loc.path("file").asText());
        assertEquals(55, loc.path("line").asInt());
        assertEquals(2, loc.path("column").asInt());
        assertEquals("bar.sync 1, 128", loc.path("instruction").asText());
        JsonNode cuda = loc.path("cuda");
        assertTrue(cuda.isObject(), loc.toString());
        assertEquals("kernel.cu", cuda.path("file").asText());
        assertEquals(28, cuda.path("line").asInt());
        assertEquals(9, cuda.path("column").asInt());
    }

    @Test
    void missingWarpsThatExitedSaySoAndNameTheirWarpWithoutALocation() {
        JsonNode missing = report(sample("named-barrier-too-many")).path("deadlock").path("waits").get(0).path("missing");
        assertEquals(2, missing.size(), missing.toString());
        for (int i = 0; i < 2; i++) {
            JsonNode m = missing.get(i);
            assertEquals("exited", m.path("status").asText());
            assertEquals(2 + i, m.path("group").path("warp").asInt(-1));
            assertFalse(m.has("location"), m.toString());
        }
    }

    @Test
    void aMissingWarpBlockedElsewhereSaysWhereAsAnObject() {
        // Warp 1 has not arrived on the mbarrier warp 0 waits on: it polls it too.
        JsonNode m = report(sample("expect-tx-without-arrive")).path("deadlock").path("waits").get(0).path("missing").get(0);
        assertEquals("mbarrier", m.path("status").asText());
        assertEquals(1, m.path("group").path("warp").asInt(-1));
        assertEquals(106, m.path("location").path("line").asInt());
        assertEquals(52, m.path("location").path("cuda").path("line").asInt());
    }

    @Test
    void aDiagnosticOnACtaBarrierNamesItsCtaIdAndGeneration() {
        JsonNode d = report(sample("double-bar-arrive")).path("diagnostics").get(0);
        assertEquals("barrier-over-arrival", d.path("code").asText());
        JsonNode b = d.path("barrier");
        assertEquals("cta-barrier", b.path("kind").asText());
        assertEquals(List.of(0, 0, 0), ints(b.path("cta")));
        assertEquals(1, b.path("id").asInt(-1));
        assertEquals(0, b.path("generation").asInt(-1));
        assertEquals("barrier 1 of CTA (0,0,0)", b.path("description").asText());
    }

    @Test
    void aDiagnosticOnAnUninitializedMbarrierNamesItWithoutAPhase() {
        JsonNode b = report(sample("mbarrier-init-without-sync")).path("diagnostics").get(0).path("barrier");
        assertEquals("mbarrier", b.path("kind").asText());
        assertEquals("bar", b.path("variable").asText());
        assertEquals(0, b.path("offset").asInt(-1));
        assertFalse(b.has("phase"), "no valid object, no phase: " + b);
        assertEquals("bar (shared 0x0)", b.path("description").asText());
    }

    @Test
    void aRaceNamesTheMbarrierThatWouldOrderItWithItsPhase() {
        JsonNode d = report(sample("stale-parity-early-return")).path("diagnostics").get(0);
        assertEquals("race", d.path("code").asText());
        JsonNode b = d.path("barrier");
        assertEquals("mbarrier", b.path("kind").asText());
        assertEquals("full", b.path("variable").asText());
        assertEquals(1, b.path("phase").asInt(-1));
        assertEquals(1, b.path("parity").asInt(-1));
    }

    @Test
    void aDiagnosticWithoutABarrierHasAnEmptyObject() {
        String body = ".reg .b32 %r<4>;\nmov.u32 %r1, 0;\nmov.u32 %r3, 7;\ndiv.u32 %r2, %r3, %r1;\nret;";
        LaunchedRun r = PtxRun.kernel(body).threads(32).run();
        JsonNode d = report(r).path("diagnostics").get(0);
        assertEquals("divide-by-zero", d.path("code").asText(), d.toString());
        assertTrue(d.path("barrier").isObject() && d.path("barrier").isEmpty(), d.toString());
    }

    @Test
    void aDiagnosticsLocationsKeepFileLineAndColumn() {
        JsonNode locs = report(sample("double-bar-arrive")).path("diagnostics").get(0).path("locations");
        assertEquals("kernel.ptx", locs.get(0).path("file").asText());
        assertTrue(locs.get(0).path("line").asInt() > 0);
        assertEquals(2, locs.get(0).path("column").asInt());
        assertEquals("kernel.cu", locs.get(1).path("file").asText());
        assertEquals(5, locs.get(1).path("column").asInt());
    }
}
