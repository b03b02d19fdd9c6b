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

/**
 * The Chrome / Perfetto export of a recorded run. Every export is first checked against the Trace
 * Event Format rules by {@link ChromeTrace#validate} (fields each phase requires, durations, flow, async
 * and B/E pairing, counters, metadata, slice nesting, flow binding), then for what it shows.
 */
class ChromeExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String VPRINTF = ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 vprintf_param_0,\n"
            + ".param .b64 vprintf_param_1\n)\n;\n.global .align 1 .b8 hello[6] = {104, 101, 108, 108, 111, 0};\n";

    /** Two warps; warp 1 loops first, so it reaches bar.sync 0 last; then thread 0 prints "hello". */
    private static final String CTA_BARRIER = ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 32;\n@%p1 bra SYNC;\nmov.u32 %r2, 0;\n"
            + "LOOP:\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p2, %r2, 4;\n@%p2 bra LOOP;\n"
            + "SYNC:\nbar.sync 0;\nsetp.ne.u32 %p3, %r1, 0;\n@%p3 bra DONE;\n"
            + "mov.u64 %rd1, hello;\ncvta.global.u64 %rd2, %rd1;\nmov.u64 %rd3, 0;\n{\n.param .b64 param0;\nst.param.b64 [param0], %rd2;\n"
            + ".param .b64 param1;\nst.param.b64 [param1], %rd3;\n.param .b32 retval0;\n"
            + "call.uni (retval0), vprintf, (param0, param1);\n}\nDONE:\nret;";

    private static final String MBAR_HEADER = ".shared .align 8 .b64 full;\n.shared .align 16 .b8 tile[128];\n";
    private static final String MBAR_WAIT = "mov.u32 %r5, 0;\nW:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r2], %r5;\n"
            + "@!%p2 bra W;\nret;";

    /** Thread 0 arms mbarrier {@code full} (count 1) with expect-tx and a 128-byte bulk copy; all 64 threads wait for phase 0. */
    private static final String BULK = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, full;\nmov.u32 %r3, tile;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\n"
            + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n@!%p1 bra WAIT;\n"
            + "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], EXPECT;\n"
            + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 128, [%r2];\nWAIT:\n" + MBAR_WAIT;

    /**
     * Thread 0 arrives with expect-tx 64; after a barrier, warp 1 idles a few steps (so warp 0 is
     * already waiting) and thread 32 completes the 64 bytes by hand.
     */
    private static final String EXPLICIT_TX = ".reg .pred %p<6>;\n.reg .b32 %r<16>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p3, %r1, 32;\nmov.u32 %r2, full;\n"
            + "@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;\nbar.sync 0;\n"
            + "@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 64;\nbar.sync 0;\n"
            + "setp.lt.u32 %p4, %r1, 32;\n@%p4 bra WAIT;\nmov.u32 %r6, 0;\nD:\nadd.u32 %r6, %r6, 1;\nsetp.lt.u32 %p5, %r6, 4;\n"
            + "@%p5 bra D;\n@%p3 mbarrier.complete_tx.shared::cta.b64 [%r2], 64;\nWAIT:\n" + MBAR_WAIT;

    /** Each of 32 threads copies 4 bytes with cp.async and arrives on {@code full} (count 32) when its copies land. */
    private static final String CP_ASYNC = ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<10>;\n"
            + "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\nmov.u32 %r2, full;\nmov.u32 %r3, tile;\n"
            + "ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd2, %rd1;\n@%p1 mbarrier.init.shared::cta.b64 [%r2], 32;\nbar.sync 0;\n"
            + "shl.b32 %r8, %r1, 2;\nadd.u32 %r9, %r3, %r8;\ncvt.u64.u32 %rd7, %r8;\nadd.s64 %rd8, %rd2, %rd7;\n"
            + "cp.async.ca.shared.global [%r9], [%rd8], 4;\ncp.async.mbarrier.arrive.noinc.shared::cta.b64 [%r2];\n" + MBAR_WAIT;

    /** Warp 0 waits on barrier 1, warp 1 on barrier 2: neither completes. */
    private static final String CTA_DEADLOCK = ".reg .pred %p<4>;\n.reg .b32 %r<8>;\nmov.u32 %r1, %tid.x;\n"
            + "setp.lt.u32 %p1, %r1, 32;\n@%p1 bra A;\nbar.sync 2;\nbra.uni END;\nA:\nbar.sync 1;\nEND:\nret;";

    /** Three rounds of bar.sync over four warps; odd warps nap first (sleepers and virtual-time jumps). */
    private static final String SLEEPY_LOOP = ".reg .pred %p<4>;\n.reg .b32 %r<8>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n"
            + "and.b32 %r3, %r1, 32;\nsetp.ne.u32 %p1, %r3, 0;\nL:\n@%p1 nanosleep.u32 200;\nbar.sync 0;\nadd.u32 %r2, %r2, 1;\n"
            + "setp.lt.u32 %p2, %r2, 3;\n@%p2 bra L;\nret;";

    /** Both CTAs of a cluster arrive on barrier.cluster and wait; CTA 1 idles first, so it arrives last. */
    private static final String CLUSTER_SYNC = ".reg .pred %p<2>;\n.reg .b32 %r<4>;\nmov.u32 %r1, %cluster_ctarank;\n"
            + "setp.eq.u32 %p1, %r1, 0;\n@%p1 bra GO;\nmov.u32 %r2, 0;\nD:\nadd.u32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, 4;\n@%p1 bra D;\n"
            + "GO:\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;";
    private static final String CLUSTER_OVER_ARRIVAL = ".reg .b32 %r<2>;\nbarrier.cluster.arrive;\nbarrier.cluster.arrive;\nret;";

    // ---- running and exporting ----

    /** Records {@code run} to its end in a time-travel session. */
    private static TimeTravel recorded(LaunchedRun run) {
        TimeTravel tt = new TimeTravel(run);
        tt.runForward(() -> false);
        assertTrue(tt.atEnd(), run.summary());
        return tt;
    }

    private static TimeTravel record(PtxRun k) { return recorded(k.launch()); }

    private static TimeTravel bulk(int expect) {
        return record(PtxRun.kernel(BULK.replace("EXPECT", Integer.toString(expect))).header(MBAR_HEADER)
                .buffer("in", 32, ScalarType.U32, "iota").threads(64));
    }

    /** The bulk-copy kernel with waiters spinning on test_wait: their second poll of an unchanged mbarrier parks them. */
    private static TimeTravel bulkPolled() {
        return record(PtxRun.kernel(BULK.replace("EXPECT", "128").replace("mbarrier.try_wait.parity", "mbarrier.test_wait.parity"))
                .header(MBAR_HEADER).buffer("in", 32, ScalarType.U32, "iota").threads(64));
    }

    /** Exports, parses and validates. */
    private static ChromeTrace export(TimeTravel tt) throws IOException {
        ChromeTrace t = new ChromeTrace(JSON.readTree(ChromeExport.toJson(tt)));
        t.validate();
        return t;
    }

    // ---- tests ----

    @Test
    void warpsAreTracksGroupedByCtaProcessesNamedByClusterAndSortedInOrder() throws IOException {
        ChromeTrace t = export(record(PtxRun.kernel(CLUSTER_SYNC).cluster(2).threads(64)));
        assertEquals("cluster 0 / CTA (0,0,0)", t.processName(1));
        assertEquals("cluster 0 / CTA (1,0,0)", t.processName(2));
        assertEquals(1, t.meta("process_sort_index", 1).path("sort_index").asInt());
        assertEquals(2, t.meta("process_sort_index", 2).path("sort_index").asInt());
        List<Integer> tids = t.warpTids();
        assertEquals(4, tids.size(), "one track per warp");
        assertEquals(List.of(1, 1, 2, 2), tids.stream().map(t::pidOf).toList(), "warps grouped under their CTA");
        assertEquals(List.of("warp 0 (threads 0-31)", "warp 1 (threads 32-63)", "warp 0 (threads 0-31)", "warp 1 (threads 32-63)"),
                tids.stream().map(t::threadName).toList());
        assertEquals(List.of(0, 1, 0, 1), tids.stream().map(tid -> t.threadMeta("thread_sort_index", tid).path("sort_index").asInt()).toList());
        assertTrue(t.processName(t.pidOf(t.runTid())).startsWith("run: k"));
        ChromeTrace grid = export(record(PtxRun.kernel(CTA_DEADLOCK.replace("bar.sync 2", "bar.sync 1")).grid(3).threads(64)));
        assertEquals("cluster 2 / CTA (2,0,0)", grid.processName(3), "without clusters each CTA is a cluster of one");
        assertEquals(3, grid.meta("process_sort_index", 3).path("sort_index").asInt());
        assertEquals(0, t.meta("process_sort_index", t.pidOf(t.runTid())).path("sort_index").asInt(), "the run process sorts first");
    }

    @Test
    void theLastArrivingWarpSendsAFlowArrowToTheWarpTheCtaBarrierReleased() throws IOException {
        ChromeTrace t = export(record(PtxRun.kernel(CTA_BARRIER).header(VPRINTF).threads(64)));
        int w0 = t.warpTids().get(0);
        int w1 = t.warpTids().get(1);
        JsonNode done = t.only(e -> e.path("name").asText().equals("barrier 0 generation 0 complete"));
        assertEquals("p", done.path("s").asText(), "a completion is a process-scoped instant of its CTA");
        assertEquals(2, done.path("args").path("warps released").asInt());
        double ts = done.path("ts").asDouble();
        List<JsonNode> arrivals = t.where(e -> e.path("name").asText().equals("arrive barrier 0"));
        assertEquals(List.of(w0, w1), arrivals.stream().map(e -> e.path("tid").asInt()).sorted().toList());
        JsonNode last = arrivals.stream().max((a, b) -> Double.compare(a.path("ts").asDouble(), b.path("ts").asDouble())).orElseThrow();
        assertEquals(w1, last.path("tid").asInt(), "warp 1 looped first, so it arrived last");
        assertEquals(ts, last.path("ts").asDouble(), "the last arrival completes the barrier in the same step");
        assertEquals(32, last.path("args").path("lanes").asInt());

        List<ChromeTrace.Flow> flows = t.flows();
        assertEquals(1, flows.size(), "one arrow: to warp 0 (the last arriver itself gets none)\n" + flows);
        ChromeTrace.Flow f = flows.get(0);
        assertEquals(w1, f.start().path("tid").asInt());
        assertEquals(ts, f.start().path("ts").asDouble());
        assertEquals(w0, f.end().path("tid").asInt());
        assertEquals(Math.floor(ts) + 1.5, f.end().path("ts").asDouble(), "half a step after the release");
        assertEquals("bar.sync 0", t.enclosing(f.start()).path("name").asText(), "the arrow leaves the arriving instruction");
        JsonNode into = t.enclosing(f.end());
        assertEquals("running", into.path("name").asText());
        assertEquals(Math.floor(ts) + 1, into.path("ts").asDouble(), "the released warp runs from the end of the step");

        List<JsonNode> states = t.states(w0);
        JsonNode waited = states.stream().filter(s -> s.path("name").asText().equals("waiting at CTA barrier")).findFirst().orElseThrow();
        assertEquals(Math.floor(ts) + 1, waited.path("ts").asDouble() + waited.path("dur").asDouble(), "the wait ends at the release");
        assertEquals(List.of("running", "waiting at CTA barrier", "running", "exited"), names(states));
        assertEquals(List.of("running", "exited"), names(t.states(w1)));
    }

    @Test
    void aWarpsStateSlicesCoverItsWholeTimelineInOrderWithoutOverlapAndMerged() throws IOException {
        for (long seed = 0; seed < 3; seed++) {
            ChromeTrace t = export(record(PtxRun.kernel(SLEEPY_LOOP).threads(128).policy("random", seed)));
            double end = t.end();
            Set<String> seen = new TreeSet<>();
            for (int tid : t.warpTids()) {
                List<JsonNode> s = t.states(tid);
                double at = 0;
                String prev = null;
                long steps = 0;
                for (JsonNode slice : s) {
                    assertEquals(at, slice.path("ts").asDouble(), "slices of a warp are contiguous and ordered");
                    assertTrue(slice.path("dur").asDouble() > 0);
                    assertFalse(slice.path("name").asText().equals(prev), "equal consecutive states are merged");
                    prev = slice.path("name").asText();
                    seen.add(prev);
                    steps += slice.path("args").path("warp steps").asLong();
                    at += slice.path("dur").asDouble();
                }
                assertEquals(end, at, "each warp's slices reach the end of the trace");
                assertEquals("exited", prev);
                assertEquals(t.count(e -> e.path("cat").asText().equals("instruction") && e.path("tid").asInt() == tid
                        && e.path("name").asText().startsWith("bar.sync")), 3, "three barrier instructions per warp");
                assertTrue(steps > 0);
            }
            assertTrue(seen.containsAll(List.of("running", "waiting at CTA barrier", "sleeping", "exited")), seen.toString());
            assertTrue(t.count(e -> e.path("name").asText().equals("time jump")) > 0, "sleepers make virtual time jump");
            long total = t.where(e -> e.path("cat").asText().equals("state")).stream().mapToLong(e -> e.path("args").path("warp steps").asLong()).sum();
            assertEquals(t.otherData().path("warpSteps").asLong(), total, "running slices count every warp step");
        }
    }

    @Test
    void mbarrierCountersFollowExpectTxTheArrivalAndTheCopyLandingThenReset() throws IOException {
        ChromeTrace t = export(bulk(128));
        String name = "full (shared 0x0) CTA (0,0,0)";
        assertEquals(List.of(1L, 0L, 1L), t.counter(name + " pending arrivals", "count"), "init 1, arrive, reset for phase 1");
        assertEquals(List.of(0L, 128L, 0L), t.counter(name + " tx-count", "bytes"), "init, expect-tx 128, the copy lands");
        JsonNode complete = t.only(e -> e.path("name").asText().equals("full (shared 0x0) phase 0 complete"));
        double at = complete.path("ts").asDouble();
        assertEquals(Math.floor(at), at, "a landing happens between two warp steps, at a step boundary");
        List<JsonNode> pending = t.where(e -> e.path("name").asText().equals(name + " pending arrivals"));
        assertEquals(at + 0.25, pending.get(2).path("ts").asDouble(), "the reset shows a quarter step after the completion");
        JsonNode tx = t.only(e -> e.path("name").asText().startsWith("complete-tx full"));
        assertEquals(128, tx.path("args").path("bytes").asInt());
        assertEquals(at, tx.path("ts").asDouble());

        JsonNode b = t.only(e -> e.path("ph").asText().equals("b"));
        JsonNode e = t.only(x -> x.path("ph").asText().equals("e"));
        assertEquals("async", b.path("cat").asText());
        assertEquals(b.path("id"), e.path("id"));
        assertEquals(b.path("name"), e.path("name"));
        assertTrue(b.path("name").asText().startsWith("cp.async.bulk"), b.toString());
        assertEquals(at, e.path("ts").asDouble(), "the copy is in flight until it lands");
        assertTrue(e.path("ts").asDouble() > b.path("ts").asDouble());

        int w0 = t.warpTids().get(0);
        int w1 = t.warpTids().get(1);
        List<ChromeTrace.Flow> flows = t.flows().stream().filter(f -> f.end().path("name").asText().equals("full (shared 0x0) release")).toList();
        assertEquals(Set.of(w0, w1), new TreeSet<>(flows.stream().map(f -> f.end().path("tid").asInt()).toList()),
                "both warps waited on the phase: " + flows);
        for (ChromeTrace.Flow f : flows) {
            assertEquals(w0, f.start().path("tid").asInt());
            assertEquals(b.path("ts").asDouble(), f.start().path("ts").asDouble(), "the landing's arrow starts where the copy was issued");
            assertTrue(t.enclosing(f.start()).path("name").asText().startsWith("cp.async.bulk"));
            assertEquals(at + 0.5, f.end().path("ts").asDouble());
            assertEquals("running", t.enclosing(f.end()).path("name").asText());
        }
        List<String> states = names(t.states(w1));
        assertTrue(states.contains("waiting on mbarrier") || states.contains("parked"), states.toString());
        // Warp 0 suspended at the end of one step and was released before the next (virtual time jumped to
        // the landing): no warp step passed, so its wait takes no room on the step axis.
        assertEquals(List.of("running", "waiting at CTA barrier", "running", "exited"), names(t.states(w0)));
        assertEquals("completed", t.otherData().path("outcome").asText());
    }

    @Test
    void parkedPollersAreReleasedByTheLandingWithArrowsAndTheirFalsePollsAreInstants() throws IOException {
        ChromeTrace t = export(bulkPolled());
        int w0 = t.warpTids().get(0);
        int w1 = t.warpTids().get(1);
        assertTrue(names(t.states(w1)).contains("parked"), names(t.states(w1)).toString());
        List<JsonNode> polls = t.where(e -> e.path("name").asText().equals("wait false full (shared 0x0)"));
        assertFalse(polls.isEmpty());
        for (JsonNode p : polls) {
            assertEquals(0, p.path("args").path("parity").asInt(), "waits for parity 0: " + p);
            assertEquals(32, p.path("args").path("lanes").asInt(), "a warp's 32 false polls merge into one instant");
        }
        JsonNode complete = t.only(e -> e.path("name").asText().equals("full (shared 0x0) phase 0 complete"));
        assertEquals(0, complete.path("args").path("threads released").asInt(), "parked pollers are not suspended waiters");
        List<ChromeTrace.Flow> flows = t.flows().stream().filter(f -> f.end().path("name").asText().equals("full (shared 0x0) release")).toList();
        assertTrue(flows.stream().anyMatch(f -> f.end().path("tid").asInt() == w1), "the parked warp gets an arrow: " + flows);
        for (ChromeTrace.Flow f : flows) {
            assertEquals(w0, f.start().path("tid").asInt(), "from the warp that issued the copy");
            assertEquals(complete.path("ts").asDouble() + 0.5, f.end().path("ts").asDouble());
        }
    }

    @Test
    void cpAsyncArrivesDeliveredByLandingCopiesCountDownTheMbarrier() throws IOException {
        ChromeTrace t = export(record(PtxRun.kernel(CP_ASYNC).header(MBAR_HEADER).buffer("in", 32, ScalarType.U32, "iota").threads(32)));
        String name = "full (shared 0x0) CTA (0,0,0)";
        List<Long> pending = t.counter(name + " pending arrivals", "count");
        assertEquals(32L, pending.get(0));
        assertEquals(List.of(0L, 32L), pending.subList(pending.size() - 2, pending.size()), "down to 0, then reset: " + pending);
        assertEquals(64, t.count(e -> e.path("ph").asText().equals("b")), "32 copies and 32 deferred arrive-ons in flight");
        assertEquals(64, t.count(e -> e.path("ph").asText().equals("e")));
        List<JsonNode> arrives = t.where(e -> e.path("name").asText().equals("arrive full (shared 0x0)"));
        assertEquals(32, arrives.stream().mapToInt(e -> e.path("args").path("count").asInt()).sum());
        for (JsonNode a : arrives) assertEquals(Math.floor(a.path("ts").asDouble()), a.path("ts").asDouble(), "arrive-ons land between steps");
        List<ChromeTrace.Flow> flows = t.flows().stream().filter(f -> f.end().path("name").asText().equals("full (shared 0x0) release")).toList();
        assertEquals(1, flows.size(), flows.toString());
        assertTrue(t.enclosing(flows.get(0).start()).path("name").asText().startsWith("cp.async.mbarrier.arrive"),
                "the arrow starts at the instruction whose deferred arrive-on completed the phase");
        assertEquals("completed", t.otherData().path("outcome").asText());
    }

    @Test
    void anExplicitCompleteTxCompletesThePhaseAndArrowsLeaveItsWarp() throws IOException {
        ChromeTrace t = export(record(PtxRun.kernel(EXPLICIT_TX).header(MBAR_HEADER).threads(64)));
        String name = "full (shared 0x0) CTA (0,0,0)";
        assertEquals(List.of(1L, 0L, 1L), t.counter(name + " pending arrivals", "count"));
        assertEquals(List.of(0L, 64L, 0L), t.counter(name + " tx-count", "bytes"));
        JsonNode complete = t.only(e -> e.path("name").asText().equals("full (shared 0x0) phase 0 complete"));
        JsonNode tx = t.only(e -> e.path("name").asText().startsWith("complete-tx full"));
        int w0 = t.warpTids().get(0);
        int w1 = t.warpTids().get(1);
        assertEquals(w1, tx.path("tid").asInt());
        assertEquals(complete.path("ts").asDouble(), tx.path("ts").asDouble(), "completed within the complete_tx step");
        assertEquals(tx.path("ts").asDouble() % 1, 0.5, "in-step events are drawn mid-step");
        List<ChromeTrace.Flow> flows = t.flows();
        assertTrue(flows.stream().anyMatch(f -> f.start().path("tid").asInt() == w1 && f.end().path("tid").asInt() == w0), flows.toString());
        for (ChromeTrace.Flow f : flows) {
            if (f.end().path("name").asText().startsWith("full")) assertEquals(tx.path("ts").asDouble(), f.start().path("ts").asDouble());
        }
        assertTrue(names(t.states(w0)).contains("waiting on mbarrier"), names(t.states(w0)).toString());
        assertEquals("arrive full (shared 0x0)", t.only(e -> e.path("name").asText().startsWith("arrive full")).path("name").asText());
    }

    @Test
    void aDeadlockEndsWithEveryWarpStillWaitingAndNoArrows() throws IOException {
        ChromeTrace t = export(record(PtxRun.kernel(CTA_DEADLOCK).threads(64)));
        assertEquals("deadlock", t.otherData().path("outcome").asText());
        JsonNode end = t.only(e -> e.path("name").asText().equals("end: deadlock"));
        assertEquals("g", end.path("s").asText());
        assertEquals(t.runTid(), end.path("tid").asInt());
        for (int tid : t.warpTids()) {
            List<JsonNode> s = t.states(tid);
            JsonNode last = s.get(s.size() - 1);
            assertEquals("waiting at CTA barrier", last.path("name").asText());
            assertEquals(t.end(), last.path("ts").asDouble() + last.path("dur").asDouble());
        }
        assertEquals(0, t.flows().size());
        assertEquals(2, t.count(e -> e.path("name").asText().startsWith("arrive barrier ")));
        assertEquals(0, t.count(e -> e.path("name").asText().contains("complete")));
    }

    @Test
    void clusterBarrierReleasesGetArrowsAcrossCtas() throws IOException {
        ChromeTrace t = export(record(PtxRun.kernel(CLUSTER_SYNC).cluster(2).threads(32)));
        List<Integer> tids = t.warpTids();
        assertEquals(2, t.count(e -> e.path("name").asText().equals("barrier.cluster phase 0 complete")), "one instant per CTA");
        List<ChromeTrace.Flow> flows = t.flows();
        assertEquals(1, flows.size(), flows.toString());
        assertEquals(tids.get(1), flows.get(0).start().path("tid").asInt(), "CTA 1's warp arrived last");
        assertEquals(tids.get(0), flows.get(0).end().path("tid").asInt());
        assertEquals(2, t.pidOf(flows.get(0).start().path("tid").asInt()));
        assertEquals(1, t.pidOf(flows.get(0).end().path("tid").asInt()));
        JsonNode arrive = t.where(e -> e.path("name").asText().equals("arrive barrier.cluster")).get(0);
        assertEquals(32, arrive.path("args").path("lanes").asInt(), "a warp's 32 per-thread arrivals merge into one instant");
        assertTrue(names(t.states(tids.get(0))).contains("waiting at cluster barrier"));
    }

    @Test
    void diagnosticsAndPrintfBecomeInstantsWithTheirDetails() throws IOException {
        ChromeTrace t = export(record(PtxRun.kernel(CLUSTER_OVER_ARRIVAL).cluster(2).threads(32)));
        JsonNode d = t.only(e -> e.path("cat").asText().equals("diagnostic"));
        assertEquals("diagnostic " + d.path("args").path("code").asText(), d.path("name").asText());
        assertTrue(d.path("args").path("message").asText().contains("arrived on barrier.cluster again"), d.toString());
        assertEquals("error", d.path("args").path("severity").asText());
        assertEquals("k.ptx:" + 9, d.path("args").path("ptx").asText());
        assertTrue(t.warpTids().contains(d.path("tid").asInt()), "on the warp of the thread concerned");
        assertEquals("diagnosed", t.otherData().path("outcome").asText());

        ChromeTrace p = export(record(PtxRun.kernel(CTA_BARRIER).header(VPRINTF).threads(64)));
        JsonNode line = p.only(e -> e.path("name").asText().equals("printf"));
        assertEquals("hello", line.path("args").path("text").asText());
        assertEquals("CTA (0,0,0) thread (0,0,0)", line.path("args").path("thread").asText());
        assertEquals(p.warpTids().get(0), line.path("tid").asInt());
    }

    @Test
    void theTimeAxisIsWarpStepsAndOtherDataSaysSo() throws IOException {
        TimeTravel tt = record(PtxRun.kernel(CTA_BARRIER).header(VPRINTF).threads(64).policy("random", 3));
        ChromeTrace t = export(tt);
        JsonNode o = t.otherData();
        assertEquals("ns", t.root.path("displayTimeUnit").asText());
        assertEquals("k", o.path("kernel").asText());
        assertEquals("random", o.path("policy").asText());
        assertEquals(3, o.path("seed").asLong());
        assertEquals("completed", o.path("outcome").asText());
        assertTrue(o.path("timeAxis").asText().contains("1 step = 1 us"), o.toString());
        assertEquals(tt.recording().steps(), o.path("warpSteps").asLong());
        for (JsonNode e : t.where(x -> x.path("cat").asText().equals("instruction"))) {
            assertEquals(e.path("args").path("step").asDouble() + 0.25, e.path("ts").asDouble(), "step s is drawn over [s, s+1)");
        }
        assertEquals(tt.recording().steps() + 1.0, t.end(), "one step past the last event, so the final states show");
    }

    @Test
    void theSameRecordingExportsToTheSameBytes() {
        TimeTravel tt = record(PtxRun.kernel(SLEEPY_LOOP).threads(128).policy("random", 7));
        byte[] first = ChromeExport.toJson(tt);
        tt.seek(tt.frontier() / 2);
        assertArrayEquals(first, ChromeExport.toJson(tt), "exporting again, from anywhere in the session, gives the same bytes");
        byte[] again = ChromeExport.toJson(record(PtxRun.kernel(SLEEPY_LOOP).threads(128).policy("random", 7)));
        assertArrayEquals(first, again, "a second run of the same launch and seed exports identically");
        byte[] bulk1 = ChromeExport.toJson(bulk(128));
        assertArrayEquals(bulk1, ChromeExport.toJson(bulk(128)));
    }

    @Test
    void writeStoresTheJsonAtomically(@TempDir Path dir) throws IOException {
        TimeTravel tt = bulk(128);
        Path out = dir.resolve("trace.json");
        Files.writeString(out, "old");
        ChromeExport.write(tt, out);
        assertArrayEquals(ChromeExport.toJson(tt), Files.readAllBytes(out));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(out), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void anUnfinishedRecordingExportsWhatItHasAsRunning() throws IOException {
        TimeTravel tt = new TimeTravel(PtxRun.kernel(SLEEPY_LOOP).threads(128).launch());
        for (int i = 0; i < 10; i++) tt.step();
        ChromeTrace t = export(tt);
        assertEquals("running", t.otherData().path("outcome").asText());
        assertEquals(10, t.otherData().path("warpSteps").asLong());
        assertEquals(10.0, t.end(), "the tracks end with the last recorded step");
    }

    private static List<String> names(List<JsonNode> events) { return events.stream().map(e -> e.path("name").asText()).toList(); }
}
