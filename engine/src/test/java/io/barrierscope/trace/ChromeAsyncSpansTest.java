package io.barrierscope.trace;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Chrome / Perfetto export of asynchronous work in flight per warp: wgmma.mma_async operations
 * (issued, committed, retired by wait_group) and copies out of shared memory (TMA tensor stores),
 * on recorded runs of real nvcc kernels. Every export passes {@link ChromeTrace#validate}
 * first (b/e pairing per category and id, nesting, names).
 */
class ChromeAsyncSpansTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path WGMMA_GEMM = Path.of("..", "samples", "wgmma-gemm", "launch.json");

    private static TimeTravel recorded(Path launch) throws Exception {
        LaunchedRun run = LaunchValidation.validate(launch).start("round-robin", 0L);
        TimeTravel tt = new TimeTravel(run);
        tt.runForward(() -> false);
        assertTrue(tt.atEnd(), run.summary());
        return tt;
    }

    private static Path tmaStore() throws Exception {
        return Path.of(ChromeAsyncSpansTest.class.getResource("/ptx-corpus/tma_store.json").toURI());
    }

    private static List<JsonNode> export(TimeTravel tt) throws Exception {
        JsonNode root = JSON.readTree(ChromeExport.toJson(tt));
        new ChromeTrace(root).validate();
        List<JsonNode> all = new ArrayList<>();
        root.path("traceEvents").forEach(all::add);
        return all;
    }

    private static List<JsonNode> where(List<JsonNode> events, String cat, String ph) {
        return events.stream().filter(e -> e.path("cat").asText().equals(cat) && e.path("ph").asText().equals(ph)).toList();
    }

    /** The instruction slice on the event's track containing its time, by name prefix. */
    private static boolean insideInstruction(List<JsonNode> events, JsonNode e, String prefix) {
        double ts = e.path("ts").asDouble();
        return events.stream().anyMatch(s -> s.path("cat").asText().equals("instruction") && s.path("tid").equals(e.path("tid"))
                && s.path("name").asText().startsWith(prefix)
                && s.path("ts").asDouble() <= ts && ts <= s.path("ts").asDouble() + s.path("dur").asDouble());
    }

    @Test
    void eachWarpsWgmmaOperationIsASpanFromItsIssueThroughItsCommitToTheWaitGroupRetiringIt() throws Exception {
        List<JsonNode> ev = export(recorded(WGMMA_GEMM));
        List<JsonNode> issued = where(ev, "wgmma", "b").stream().filter(e -> e.path("name").asText().startsWith("wgmma.mma_async")).toList();
        List<JsonNode> committed = where(ev, "wgmma", "b").stream().filter(e -> e.path("name").asText().startsWith("committed, group ")).toList();
        // One span per wgmma.mma_async a warp executed (its instruction slices, counted per track).
        Map<Integer, Integer> mmaSteps = new TreeMap<>();
        Map<Integer, Integer> spans = new TreeMap<>();
        for (JsonNode s : ev) {
            if (s.path("cat").asText().equals("instruction") && s.path("name").asText().startsWith("wgmma.mma_async")) mmaSteps.merge(s.path("tid").asInt(), 1, Integer::sum);
        }
        for (JsonNode b : issued) spans.merge(b.path("tid").asInt(), 1, Integer::sum);
        assertEquals(4, mmaSteps.size(), "the warpgroup's four warps");
        assertEquals(mmaSteps, spans);
        assertEquals(issued.size(), committed.size(), "every operation was committed");
        for (JsonNode b : issued) {
            assertTrue(insideInstruction(ev, b, "wgmma.mma_async"), "issued by its instruction: " + b);
            assertTrue(b.path("args").path("thread").asText().endsWith("thread (" + 32 * (b.path("tid").asInt() - issued.stream().mapToInt(x -> x.path("tid").asInt()).min().orElseThrow()) + ",0,0)"),
                    "names the issuing warp's lane 0: " + b);
            String id = b.path("id").asText();
            JsonNode c = committed.stream().filter(x -> x.path("id").asText().equals(id)).findFirst().orElseThrow();
            assertTrue(b.path("ts").asDouble() < c.path("ts").asDouble(), "committed after issue: " + c);
            assertTrue(insideInstruction(ev, c, "wgmma.commit_group"), "committed by commit_group: " + c);
            List<JsonNode> ends = where(ev, "wgmma", "e").stream().filter(x -> x.path("id").asText().equals(id)).toList();
            assertEquals(2, ends.size(), id);
            assertEquals(c.path("name"), ends.get(0).path("name"), "the nested commit slice ends first");
            assertEquals(b.path("name"), ends.get(1).path("name"));
            assertTrue(c.path("ts").asDouble() < ends.get(0).path("ts").asDouble(), "retired after the commit: " + ends);
            assertTrue(insideInstruction(ev, ends.get(1), "wgmma.wait_group"), "retired by wait_group: " + ends.get(1));
            assertFalse(ends.get(1).path("args").has("not retired at the end"), id);
            assertEquals(b.path("pid"), ends.get(1).path("pid"));
            assertEquals(b.path("tid"), ends.get(1).path("tid"), "on the issuing warp's track");
        }
    }

    /** The wgmma-gemm sample with the given lines of its PTX left out, in {@code dir}. */
    private static Path gemmWithout(Path dir, String... lines) throws Exception {
        Path sample = WGMMA_GEMM.getParent();
        String ptx = Files.readString(sample.resolve("kernel.ptx"));
        for (String line : lines) {
            assertTrue(ptx.contains(line), line);
            ptx = ptx.replace(line, "");
        }
        Files.writeString(dir.resolve("kernel.ptx"), ptx);
        Files.copy(sample.resolve("kernel.cu"), dir.resolve("kernel.cu"));
        Files.copy(WGMMA_GEMM, dir.resolve("launch.json"));
        return dir.resolve("launch.json");
    }

    @Test
    void wgmmaOperationsStillInFlightAtTheEndAreEndedThereAndSaySo(@TempDir Path dir) throws Exception {
        // Without its wait_group the run stops at the first read of an accumulator still in flight.
        Path noWait = gemmWithout(Files.createDirectory(dir.resolve("a")), "wgmma.wait_group.sync.aligned 0;");
        List<JsonNode> ev = export(recorded(noWait));
        double last = ev.stream().mapToDouble(e -> e.path("ts").asDouble()).max().orElseThrow();
        List<JsonNode> outer = where(ev, "wgmma", "e").stream().filter(e -> e.path("name").asText().startsWith("wgmma.mma_async")).toList();
        assertFalse(outer.isEmpty());
        for (JsonNode e : outer) {
            assertTrue(e.path("args").path("not retired at the end").asBoolean(), e.toString());
            assertEquals(last, e.path("ts").asDouble(), "ended at the end of the trace");
        }
        Path noCommit = gemmWithout(Files.createDirectory(dir.resolve("b")), "wgmma.wait_group.sync.aligned 0;", "wgmma.commit_group.sync.aligned;");
        ev = export(recorded(noCommit));
        assertTrue(where(ev, "wgmma", "b").stream().noneMatch(e -> e.path("name").asText().startsWith("committed")), "nothing committed");
        List<JsonNode> ends = where(ev, "wgmma", "e");
        assertFalse(ends.isEmpty());
        for (JsonNode e : ends) assertTrue(e.path("args").path("not committed at the end").asBoolean(), e.toString());
    }

    @Test
    void wgmmaSpanIdsAreKeptApartFromCopyIds() throws Exception {
        List<JsonNode> ev = export(recorded(WGMMA_GEMM));
        assertFalse(where(ev, "async", "b").isEmpty(), "the TMA loads feeding the tile");
        for (JsonNode b : where(ev, "wgmma", "b")) assertTrue(b.path("id").isTextual(), b.toString());
        for (JsonNode b : where(ev, "async", "b")) assertTrue(b.path("id").isIntegralNumber(), b.toString());
    }

    @Test
    void tmaLoadsAreCopiesIntoSharedMemoryAndTmaTensorStoresCopiesOutOfIt() throws Exception {
        for (JsonNode b : where(export(recorded(WGMMA_GEMM)), "async", "b")) {
            assertEquals("into shared memory", b.path("args").path("direction").asText(), b.toString());
        }
        List<JsonNode> ev = export(recorded(tmaStore()));
        List<JsonNode> stores = where(ev, "async", "b");
        assertEquals(1, stores.size(), "the one cp.async.bulk.tensor store of tma_store2d");
        JsonNode b = stores.get(0);
        assertTrue(b.path("name").asText().startsWith("cp.async.bulk.tensor.2d.global.shared"), b.toString());
        assertEquals("out of shared memory", b.path("args").path("direction").asText());
        assertTrue(insideInstruction(ev, b, "cp.async.bulk.tensor"), "issued by its instruction: " + b);
        JsonNode e = where(ev, "async", "e").get(0);
        assertEquals(b.path("id"), e.path("id"));
        assertEquals(b.path("tid"), e.path("tid"));
        assertTrue(b.path("ts").asDouble() < e.path("ts").asDouble(), "lands after its issue");
        assertFalse(e.path("args").has("in flight at the end"), "the bulk group waited for it");
    }

    @Test
    void theExportOfAWgmmaRunIsTheSameBytesEachTime() throws Exception {
        byte[] once = ChromeExport.toJson(recorded(WGMMA_GEMM));
        byte[] again = ChromeExport.toJson(recorded(WGMMA_GEMM));
        assertArrayEquals(once, again);
        assertArrayEquals(ChromeExport.toJson(recorded(tmaStore())), ChromeExport.toJson(recorded(tmaStore())));
    }
}
