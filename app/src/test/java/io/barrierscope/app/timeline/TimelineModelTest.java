package io.barrierscope.app.timeline;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.WarpState;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The timeline model against brute force over real recordings of bundled samples. */
class TimelineModelTest {
    static final String[] SAMPLES = {"block-reduce", "bulk-copy-pipeline", "cluster-barrier-one-partition-fixed",
        "mbarrier-token-wait", "expect-tx-too-high", "mbarrier-exited-waiter", "fa3-pingpong"};

    @ParameterizedTest
    @ValueSource(strings = {"block-reduce", "bulk-copy-pipeline", "cluster-barrier-one-partition-fixed",
        "mbarrier-token-wait", "expect-tx-too-high", "mbarrier-exited-waiter", "fa3-pingpong"})
    void spansMatchTheStateComputedStepByStep(String sample) {
        Recorded r = new Recorded(sample);
        assertTrue(r.model.complete());
        // events after the last step (a deadlock found, a diagnostic at the end) add the final state as one more column
        long recorded = r.tt.recording().steps();
        assertTrue(r.steps == recorded || r.steps == recorded + 1, r.steps + " vs " + recorded);
        for (int lane = 0; lane < r.model.lanes(); lane++) {
            int w = r.model.warpOfLane(lane);
            for (int s = 0; s < r.steps; s++) {
                assertEquals(r.states[w][s], r.model.stateAt(lane, s), sample + " lane " + lane + " step " + s);
            }
            // spans are maximal: neighbours differ
            TimelineLane d = r.model.lane(lane);
            for (int i = 1; i < d.spans(); i++) assertTrue(d.spanState(i) != d.spanState(i - 1));
        }
        for (int s = 0; s < recorded; s++) assertEquals(r.cycles[s], r.model.cyclesAt(s), "cycles at step " + s);
    }

    @ParameterizedTest
    @ValueSource(strings = {"block-reduce", "bulk-copy-pipeline", "cluster-barrier-one-partition-fixed",
        "mbarrier-token-wait", "expect-tx-too-high", "fa3-pingpong"})
    void levelOfDetailColumnsEqualBruteForceAggregation(String sample) {
        Recorded r = new Recorded(sample);
        Random rnd = new Random(sample.hashCode());
        for (int trial = 0; trial < 60; trial++) {
            int width = 1 + rnd.nextInt(trial % 3 == 0 ? 40 : 900);
            boolean cycles = trial % 4 == 3;
            double extent = cycles ? r.model.knownCycles() : r.steps;
            double start = rnd.nextDouble() * extent * 1.1 - extent * 0.05;
            double end = start + Math.max(0.5, rnd.nextDouble() * (extent * 1.1 - start));
            int laneFrom = rnd.nextInt(r.model.lanes());
            int laneTo = laneFrom + 1 + rnd.nextInt(Math.min(4, r.model.lanes() - laneFrom));
            TimelineColumns cols = new TimelineColumns(width);
            r.model.bounds(cycles, start, end, cols);
            r.model.row(laneFrom, laneTo, cols);
            r.model.completionColumns(cols);
            String what = sample + " trial " + trial + " [" + start + ", " + end + ") width " + width + (cycles ? " cycles" : "");
            for (int c = 0; c < width; c++) {
                long a = (long) Math.floor(cols.bounds[c]);
                long e = Math.max(a + 1, (long) Math.ceil(cols.bounds[c + 1]));
                int mask = 0;
                for (long s = Math.max(0, a); s < Math.min(e, r.steps); s++) {
                    for (int l = laneFrom; l < laneTo; l++) mask |= 1 << r.states[r.model.warpOfLane(l)][(int) s].ordinal();
                }
                assertEquals(mask, cols.states[c], what + " column " + c);
                int[] counts = new int[MarkerKind.COUNT];
                for (long[] mk : r.markers) {
                    double x = mk[2] + 0.5;
                    if (mk[1] >= laneFrom && mk[1] < laneTo && x >= cols.bounds[c] && x < cols.bounds[c + 1]) counts[(int) mk[0]]++;
                }
                for (int k = 0; k < MarkerKind.COUNT; k++) assertEquals(counts[k], cols.markers[k][c], what + " " + MarkerKind.of(k) + " column " + c);
                int n = 0;
                int lo = Integer.MAX_VALUE;
                int hi = -1;
                TimelineCompletions cs = r.model.completions();
                for (int i = 0; i < cs.size(); i++) {
                    double x = cs.step(i) + 0.5;
                    if (x >= cols.bounds[c] && x < cols.bounds[c + 1]) {
                        n++;
                        lo = Math.min(lo, cs.lo(i));
                        hi = Math.max(hi, cs.hi(i));
                    }
                }
                assertEquals(n, cols.completions[c], what + " completions column " + c);
                if (n > 0) {
                    assertEquals(lo, cols.completionLo[c]);
                    assertEquals(hi, cols.completionHi[c]);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"block-reduce", "bulk-copy-pipeline", "cluster-barrier-one-partition-fixed", "mbarrier-token-wait"})
    void incrementalUpdatesEqualOneBuildAtTheEnd(String sample) {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(TestFiles.sample(sample)).start());
        TimelineModel live = TimelineModel.of(tt);
        live.sliceEvents = 5; // and let readers in every few events
        Random rnd = new Random(7);
        boolean seekedBack = false;
        while (!tt.atEnd()) {
            int n = 1 + rnd.nextInt(40);
            for (int i = 0; i < n && !tt.atEnd(); i++) tt.step();
            live.update();
            assertTrue(live.knownSteps() <= tt.recording().steps());
            if (!seekedBack && tt.now() > 100) {
                // travelling back re-executes recorded steps: nothing new to read, nothing duplicated
                tt.seek(tt.now() / 2);
                assertTrue(!live.update() || live.knownSteps() <= tt.recording().steps());
                tt.seek(tt.frontier());
                seekedBack = true;
            }
        }
        live.update();
        TimelineModel whole = TimelineModel.of(tt);
        whole.update();
        assertEquals(whole.knownSteps(), live.knownSteps());
        assertEquals(whole.events(), live.events());
        for (int lane = 0; lane < whole.lanes(); lane++) {
            TimelineLane a = whole.lane(lane);
            TimelineLane b = live.lane(lane);
            assertEquals(a.spans(), b.spans(), "spans of lane " + lane);
            for (int i = 0; i < a.spans(); i++) {
                assertEquals(a.spanStart(i), b.spanStart(i));
                assertEquals(a.spanState(i), b.spanState(i));
            }
            for (MarkerKind k : MarkerKind.values()) {
                assertEquals(a.markers(k), b.markers(k));
                for (int i = 0; i < a.markers(k); i++) {
                    assertEquals(a.markerStep(k, i), b.markerStep(k, i));
                    assertEquals(a.markerObject(k, i), b.markerObject(k, i));
                }
            }
        }
        TimelineCompletions ca = whole.completions();
        TimelineCompletions cb = live.completions();
        assertEquals(ca.size(), cb.size());
        for (int i = 0; i < ca.size(); i++) {
            assertEquals(ca.step(i), cb.step(i));
            assertEquals(ca.lo(i), cb.lo(i));
            assertEquals(ca.hi(i), cb.hi(i));
        }
        for (long s = 0; s < whole.knownSteps(); s++) assertEquals(whole.cyclesAt(s), live.cyclesAt(s));
    }

    @Test
    void completionsSitAtTheCompletionStepsAndSpanTheReleasedLanes() {
        for (String sample : SAMPLES) {
            Recorded r = new Recorded(sample);
            assertArrayEquals(r.completionSteps.stream().mapToLong(Long::longValue).toArray(), r.model.completionSteps(), sample);
            TimelineCompletions cs = r.model.completions();
            for (int i = 0; i < cs.size(); i++) {
                assertTrue(cs.lo(i) <= cs.hi(i));
                if (cs.kind(i) != TimelineCompletions.CLUSTER) {
                    int cta = (int) (cs.object(i) >>> 32);
                    assertEquals(cta, r.model.ctaOfLane(cs.lo(i)), sample + " completion " + i);
                    assertEquals(cta, r.model.ctaOfLane(cs.hi(i)), sample + " completion " + i);
                }
                // a released lane waited during the completion's step and runs during the next
                if (cs.kind(i) == TimelineCompletions.BAR && cs.step(i) + 1 < r.steps) {
                    long s = cs.step(i);
                    assertEquals(WarpState.RUNNING, r.model.stateAt(cs.lo(i), s + 1), sample + " completion at " + s);
                }
            }
        }
        // block-reduce: every __syncthreads generation releases the warps that waited for the last arriver
        Recorded r = new Recorded("block-reduce");
        assertTrue(r.model.completions().size() > 0);
        TimelineColumns cols = new TimelineColumns(1);
        r.model.bounds(false, 0, r.steps, cols);
        r.model.completionColumns(cols);
        assertEquals(r.completionSteps.size(), cols.completions[0]);
    }

    @Test
    void hoverDescribesMarkersCompletionsAndSpans() {
        Recorded r = new Recorded("bulk-copy-pipeline");
        long[] done = r.model.completionSteps();
        TimelineHit h = null;
        TimelineCompletions cs = r.model.completions();
        h = r.model.hit(cs.lo(0), cs.step(0), cs.step(0), cs.step(0));
        assertNotNull(h);
        assertEquals(done[0], h.step());
        assertEquals(done[0] + 1, h.seekStep());
        long[] mk = r.markers.get(0);
        TimelineHit m = r.model.hit((int) mk[1], mk[2], mk[2], mk[2]);
        assertEquals(mk[2], m.step());
        assertTrue(m.description().contains(MarkerKind.of((int) mk[0]) == MarkerKind.EXPECT_TX ? "expect-tx" : "step"), m.description());
        TimelineHit span = r.model.hit(0, 3, 3, 3);
        assertEquals(3, span.seekStep());
        assertTrue(span.description().startsWith(r.model.laneLabel(0)), span.description());
        assertEquals(null, r.model.hit(0, r.steps, r.steps, r.steps));
    }
}
