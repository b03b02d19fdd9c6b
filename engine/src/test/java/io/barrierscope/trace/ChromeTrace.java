package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An exported Chrome trace, validated against the Trace Event Format and indexed for the export tests' checks. */
final class ChromeTrace {
    private static final Set<String> PHASES = Set.of("B", "E", "X", "i", "I", "C", "b", "n", "e", "s", "t", "f", "M");
    private static final Set<String> METADATA = Set.of("process_name", "thread_name", "process_sort_index", "thread_sort_index",
            "process_labels");
    final JsonNode root;
    final List<JsonNode> events = new ArrayList<>();

    record Flow(JsonNode start, JsonNode end) {}

    ChromeTrace(JsonNode root) {
        this.root = root;
        root.path("traceEvents").forEach(events::add);
    }

    void validate() {
        assertTrue(root.isObject(), "JSON object format");
        assertTrue(root.path("traceEvents").isArray(), "traceEvents is an array");
        assertTrue(Set.of("ms", "ns").contains(root.path("displayTimeUnit").asText()), "displayTimeUnit is ms or ns");
        assertTrue(root.path("otherData").isObject());
        Map<Integer, Integer> pidOfTid = new HashMap<>();
        Map<String, Deque<JsonNode>> open = new HashMap<>();
        Map<String, List<JsonNode>> flows = new LinkedHashMap<>();
        Map<String, Deque<JsonNode>> async = new HashMap<>();
        Set<Integer> namedThreads = new TreeSet<>();
        Set<Integer> namedProcesses = new TreeSet<>();
        Set<Integer> usedThreads = new TreeSet<>();
        for (JsonNode e : events) {
            String where = "event " + e;
            assertTrue(e.isObject(), where);
            assertTrue(e.path("ph").isTextual() && PHASES.contains(e.path("ph").asText()), "known phase: " + where);
            String ph = e.path("ph").asText();
            assertTrue(e.path("name").isTextual() && !e.path("name").asText().isEmpty(), "name: " + where);
            assertTrue(e.path("pid").isIntegralNumber(), "integer pid: " + where);
            assertTrue(e.path("tid").isIntegralNumber(), "integer tid: " + where);
            int pid = e.path("pid").asInt();
            int tid = e.path("tid").asInt();
            Integer before = pidOfTid.putIfAbsent(tid, pid);
            assertTrue(before == null || before == pid, "a tid belongs to one pid: " + where);
            if (!e.path("args").isMissingNode()) assertTrue(e.path("args").isObject(), "args is an object: " + where);
            if (ph.equals("M")) {
                String name = e.path("name").asText();
                assertTrue(METADATA.contains(name), "known metadata: " + where);
                if (name.endsWith("_name")) {
                    assertTrue(e.path("args").path("name").isTextual(), where);
                    (name.startsWith("process") ? namedProcesses : namedThreads).add(name.startsWith("process") ? pid : tid);
                }
                if (name.endsWith("_sort_index")) assertTrue(e.path("args").path("sort_index").isIntegralNumber(), where);
                continue;
            }
            usedThreads.add(tid);
            assertTrue(e.path("ts").isNumber() && e.path("ts").asDouble() >= 0, "ts in microseconds: " + where);
            assertTrue(e.path("cat").isTextual(), "category: " + where);
            String track = pid + ":" + tid;
            switch (ph) {
                case "X" -> assertTrue(e.path("dur").isNumber() && e.path("dur").asDouble() >= 0, "X has dur >= 0: " + where);
                case "B" -> open.computeIfAbsent(track, k -> new ArrayDeque<>()).push(e);
                case "E" -> {
                    Deque<JsonNode> st = open.get(track);
                    assertTrue(st != null && !st.isEmpty(), "E closes a B: " + where);
                    assertTrue(st.pop().path("ts").asDouble() <= e.path("ts").asDouble(), where);
                }
                case "i", "I" -> assertTrue(e.path("s").isMissingNode() || Set.of("t", "p", "g").contains(e.path("s").asText()),
                        "instant scope t, p or g: " + where);
                case "C" -> {
                    assertTrue(e.path("args").isObject() && e.path("args").size() > 0, "counter values: " + where);
                    e.path("args").forEach(v -> assertTrue(v.isNumber(), "counter values are numbers: " + where));
                }
                case "s", "t", "f" -> {
                    assertTrue(e.path("id").isNumber() || e.path("id").isTextual(), "flow id: " + where);
                    assertTrue(e.path("bp").isMissingNode() || e.path("bp").asText().equals("e"), where);
                    flows.computeIfAbsent(e.path("cat").asText() + "/" + e.path("name").asText() + "/" + e.path("id").asText(),
                            k -> new ArrayList<>()).add(e);
                }
                case "b", "e", "n" -> {
                    assertTrue(e.path("id").isNumber() || e.path("id").isTextual(), "async id: " + where);
                    String key = e.path("cat").asText() + "/" + e.path("id").asText();
                    if (ph.equals("b")) async.computeIfAbsent(key, k -> new ArrayDeque<>()).push(e);
                    if (ph.equals("e")) {
                        Deque<JsonNode> st = async.get(key);
                        assertTrue(st != null && !st.isEmpty(), "e ends a b: " + where);
                        JsonNode b = st.pop();
                        assertEquals(b.path("name"), e.path("name"), "b and e name the same slice: " + where);
                        assertTrue(b.path("ts").asDouble() <= e.path("ts").asDouble(), where);
                    }
                }
                default -> { }
            }
        }
        open.forEach((k, v) -> assertTrue(v.isEmpty(), "unbalanced B/E on " + k));
        async.forEach((k, v) -> assertTrue(v.isEmpty(), "unbalanced b/e for " + k));
        for (List<JsonNode> f : flows.values()) {
            assertEquals(1, f.stream().filter(e -> e.path("ph").asText().equals("s")).count(), "one flow start: " + f);
            assertEquals(1, f.stream().filter(e -> e.path("ph").asText().equals("f")).count(), "one flow end: " + f);
            JsonNode s = f.stream().filter(e -> e.path("ph").asText().equals("s")).findFirst().orElseThrow();
            JsonNode end = f.stream().filter(e -> e.path("ph").asText().equals("f")).findFirst().orElseThrow();
            assertTrue(s.path("ts").asDouble() <= end.path("ts").asDouble(), "a flow goes forward in time: " + f);
            assertNotNull(enclosing(s), "a flow start binds to a slice: " + s);
            assertNotNull(enclosing(end), "a flow end binds to its enclosing slice: " + end);
        }
        assertTrue(namedThreads.containsAll(usedThreads), "every track is named");
        assertTrue(namedProcesses.containsAll(pidOfTid.values()), "every process is named");
        // Complete events on one track nest properly: disjoint or contained, never crossing.
        Map<Integer, List<JsonNode>> byTrack = new HashMap<>();
        for (JsonNode e : events) if (e.path("ph").asText().equals("X")) byTrack.computeIfAbsent(e.path("tid").asInt(), k -> new ArrayList<>()).add(e);
        for (List<JsonNode> xs : byTrack.values()) {
            for (JsonNode a : xs) {
                for (JsonNode b : xs) {
                    if (a == b) continue;
                    double as = a.path("ts").asDouble(), ae = as + a.path("dur").asDouble();
                    double bs = b.path("ts").asDouble(), be = bs + b.path("dur").asDouble();
                    boolean disjoint = ae <= bs || be <= as;
                    boolean nested = (as <= bs && be <= ae) || (bs <= as && ae <= be);
                    assertTrue(disjoint || nested, "slices cross: " + a + " and " + b);
                }
            }
        }
    }

    /** The innermost X slice on the event's track that contains its ts, or null. */
    JsonNode enclosing(JsonNode e) {
        double ts = e.path("ts").asDouble();
        JsonNode best = null;
        for (JsonNode x : events) {
            if (!x.path("ph").asText().equals("X") || x.path("tid").asInt() != e.path("tid").asInt()) continue;
            double s = x.path("ts").asDouble();
            double end = s + x.path("dur").asDouble();
            if (s <= ts && ts < end && (best == null || x.path("dur").asDouble() < best.path("dur").asDouble())) best = x;
        }
        return best;
    }

    List<JsonNode> where(Predicate<JsonNode> p) { return events.stream().filter(p).toList(); }

    long count(Predicate<JsonNode> p) { return events.stream().filter(p).count(); }

    JsonNode only(Predicate<JsonNode> p) {
        List<JsonNode> l = where(p);
        assertEquals(1, l.size(), "exactly one such event: " + l);
        return l.get(0);
    }

    JsonNode otherData() { return root.path("otherData"); }

    JsonNode meta(String name, int pid) {
        return only(e -> e.path("ph").asText().equals("M") && e.path("name").asText().equals(name) && e.path("pid").asInt() == pid)
                .path("args");
    }

    JsonNode threadMeta(String name, int tid) {
        return only(e -> e.path("ph").asText().equals("M") && e.path("name").asText().equals(name) && e.path("tid").asInt() == tid)
                .path("args");
    }

    String processName(int pid) { return meta("process_name", pid).path("name").asText(); }

    String threadName(int tid) { return threadMeta("thread_name", tid).path("name").asText(); }

    int pidOf(int tid) { return threadMeta("thread_name", tid).isMissingNode() ? -1 : only(e -> e.path("ph").asText().equals("M")
            && e.path("name").asText().equals("thread_name") && e.path("tid").asInt() == tid).path("pid").asInt(); }

    /** Warp tracks in sort order (CTA process order, then warp order). */
    List<Integer> warpTids() {
        return where(e -> e.path("ph").asText().equals("M") && e.path("name").asText().equals("thread_name")
                && e.path("args").path("name").asText().startsWith("warp ")).stream().map(e -> e.path("tid").asInt()).toList();
    }

    int runTid() {
        return only(e -> e.path("ph").asText().equals("M") && e.path("name").asText().equals("thread_name")
                && e.path("args").path("name").asText().equals("run events")).path("tid").asInt();
    }

    /** A warp's state slices in time order. */
    List<JsonNode> states(int tid) {
        List<JsonNode> l = new ArrayList<>(where(e -> e.path("cat").asText().equals("state") && e.path("tid").asInt() == tid));
        l.sort((a, b) -> Double.compare(a.path("ts").asDouble(), b.path("ts").asDouble()));
        return l;
    }

    /** Where the warp tracks end. */
    double end() {
        return where(e -> e.path("cat").asText().equals("state")).stream()
                .mapToDouble(e -> e.path("ts").asDouble() + e.path("dur").asDouble()).max().orElse(0);
    }

    /** A counter's values in time order. */
    List<Long> counter(String name, String key) {
        List<JsonNode> l = new ArrayList<>(where(e -> e.path("ph").asText().equals("C") && e.path("name").asText().equals(name)));
        l.sort((a, b) -> Double.compare(a.path("ts").asDouble(), b.path("ts").asDouble()));
        return l.stream().map(e -> e.path("args").path(key).asLong()).toList();
    }

    List<Flow> flows() {
        Map<String, JsonNode> starts = new LinkedHashMap<>();
        List<Flow> out = new ArrayList<>();
        for (JsonNode e : events) if (e.path("ph").asText().equals("s")) starts.put(e.path("id").asText(), e);
        for (JsonNode e : events) if (e.path("ph").asText().equals("f")) out.add(new Flow(starts.get(e.path("id").asText()), e));
        return out;
    }
}
