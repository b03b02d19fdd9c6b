package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.ExecutionListener;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.ThreadStatus;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.trace.Breakpoint;
import io.barrierscope.trace.BreakpointSet;
import io.barrierscope.trace.TimeTravel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every breakpoint kind on real kernels: where it stops, and that the state there shows the event. */
class BreakpointSamplesTest {
    private static TimeTravel session(String sample, String policy, long seed) {
        return new TimeTravel(LaunchValidation.validate(SampleRuns.launch(sample)).start(policy, seed));
    }

    /** Continues until the end, collecting every stop. */
    private static List<TimeTravel.Stop> allStops(TimeTravel tt) {
        List<TimeTravel.Stop> stops = new ArrayList<>();
        while (true) {
            TimeTravel.Stop s = tt.runForward(() -> false);
            if (s.reason() != TimeTravel.Reason.BREAKPOINT) return stops;
            stops.add(s);
            assertTrue(stops.size() < 10_000, "runaway");
        }
    }

    /** Counts sync events of one kind in a plain run (an independent witness). */
    private static int count(String sample, String policy, long seed, SyncEvent kind) {
        return steps(sample, policy, seed, (k, b) -> k == kind, false);
    }

    /**
     * Counts the matching sync events of a plain run, or the distinct steps they fall in (a run
     * stops once per step however many lanes trigger the breakpoint in it).
     */
    private static int steps(String sample, String policy, long seed, java.util.function.BiPredicate<SyncEvent, Long> which,
                             boolean distinctSteps) {
        LaunchedRun r = LaunchValidation.validate(SampleRuns.launch(sample)).start(policy, seed);
        java.util.TreeSet<Long> at = new java.util.TreeSet<>();
        int[] n = {0};
        r.interpreter().addListener(new ExecutionListener() {
            @Override
            public void syncEvent(long step, SyncEvent k, int slot, long object, long a, long b) {
                if (which.test(k, b)) {
                    n[0]++;
                    at.add(step);
                }
            }
        });
        r.runToEnd();
        return distinctSteps ? at.size() : n[0];
    }

    @Test
    void aPtxLineBreakpointStopsEachWarpBeforeItExecutesTheLine() {
        TimeTravel tt = session("block-reduce", "random", 2);
        tt.breakpoints().add("line:57");
        int pc57 = -1;
        for (int pc = 0; pc < tt.run().program().code.length; pc++) {
            if (tt.interpreter().op(pc).insn.pos().line() == 57) pc57 = pc;
        }
        List<TimeTravel.Stop> stops = allStops(tt);
        // 4 CTAs of 4 warps: every warp reaches the first __syncthreads once.
        assertEquals(16, stops.size());
        for (TimeTravel.Stop s : stops) assertTrue(s.hit().description().contains("PTX line 57"));
        tt.seek(stops.get(0).step());
        Machine m = tt.interpreter().machine();
        int w = stops.get(0).hit().warp();
        assertEquals(pc57, m.pc[w << 5], "the warp is about to execute line 57");
        assertEquals(ThreadStatus.RUNNABLE, m.status[w << 5]);
        assertEquals(Outcome.COMPLETED, tt.interpreter().outcome() == Outcome.RUNNING ? Outcome.COMPLETED : tt.interpreter().outcome());
    }

    @Test
    void aCudaLineBreakpointStopsAtTheFirstInstructionOfTheLine() {
        TimeTravel tt = session("block-reduce", "round-robin", 0);
        tt.breakpoints().add("line:kernel.cu:21,cta=1");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertEquals(4, stops.size(), "the four warps of CTA 1");
        for (TimeTravel.Stop s : stops) assertTrue(s.hit().description().contains("kernel.cu:21"), s.hit().description());
    }

    @Test
    void aCudaLineThatCallsInlinedCodeStopsWhereThatCodeBegins() {
        // kernel.cu:139 is `mbar_wait_parity(...)` in the consumers' loop: all its instructions are inlined.
        TimeTravel tt = session("tma-pipeline", "round-robin", 0);
        tt.breakpoints().add("line:kernel.cu:139");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertEquals(12, stops.size(), "two consumer warps, six tiles");
        for (TimeTravel.Stop s : stops) {
            int w = s.hit().warp();
            assertTrue(w == 1 || w == 2, "a consumer warp: " + w);
            assertTrue(s.hit().description().contains("inlined at kernel.cu:139"), s.hit().description());
        }
    }

    @Test
    void aBarrierBreakpointStopsAfterEachGenerationCompletes() {
        int completions = count("block-reduce", "random", 4, SyncEvent.BAR_COMPLETE);
        TimeTravel tt = session("block-reduce", "random", 4);
        tt.breakpoints().add("barrier:0");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertEquals(completions, stops.size());
        assertTrue(completions >= 4 * 8, "one generation per __syncthreads per CTA: " + completions);
        // At the stop the generation has just completed: the barrier is empty and its count advanced.
        TimeTravel.Stop first = stops.get(0);
        tt.seek(first.step());
        assertTrue(tt.interpreter().machine().ctaBarriers[0].get(0).generation >= 1
                || tt.interpreter().machine().ctaBarriers[1].get(0).generation >= 1);
    }

    @Test
    void hitCountsAndDisablingAreHonoured() {
        TimeTravel tt = session("block-reduce", "round-robin", 0);
        Breakpoint third = tt.breakpoints().add("barrier,cta=2,hits=3");
        TimeTravel.Stop s = tt.runForward(() -> false);
        assertEquals(TimeTravel.Reason.BREAKPOINT, s.reason());
        assertEquals(2, tt.interpreter().machine().ctaBarriers[2].get(0).generation >= 3 ? 2 : -1);
        assertEquals(3, third.hits);
        third.enabled = false;
        assertEquals(TimeTravel.Reason.FINISHED, tt.runForward(() -> false).reason());
    }

    @Test
    void anMbarrierPhaseBreakpointStopsWhenThatPhaseCompletes() {
        TimeTravel tt = session("mbarrier-parity-pipeline", "random", 6);
        tt.breakpoints().add("mbarrier:full,phase=1");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertEquals(2, stops.size(), "full[0] and full[1] each complete phase 1 once");
        tt.seek(stops.get(0).step());
        boolean advanced = false;
        for (Mbarrier b : tt.interpreter().machine().mbarriers.all()) advanced |= b.valid && b.phase == 2;
        assertTrue(advanced, "one full barrier is now in phase 2");
    }

    @Test
    void aTxZeroBreakpointStopsWhenTheBytesHaveLanded() {
        TimeTravel tt = session("tma-pipeline", "random", 1);
        tt.breakpoints().add("tx-zero:full");
        List<TimeTravel.Stop> stops = allStops(tt);
        int zeroes = steps("tma-pipeline", "random", 1,
                (k, b) -> (k == SyncEvent.MBAR_COMPLETE_TX || k == SyncEvent.MBAR_EXPECT_TX) && b == 0, true);
        assertEquals(zeroes, stops.size(), "the tx-count of a full barrier returns to zero once per stage use");
        assertTrue(stops.size() >= 5, "six tensor copies, some landing in the same step: " + stops.size());
    }

    @Test
    void anArriveBreakpointWithAWarpConditionSeesOnlyThatWarp() {
        TimeTravel tt = session("named-producer-consumer", "random", 2);
        tt.breakpoints().add("arrive,warp=1");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertTrue(stops.size() > 0);
        for (TimeTravel.Stop s : stops) assertEquals(1, tt.interpreter().machine().warpInCta(s.hit().warp()));
    }

    @Test
    void waitFalseAndParkBreakpointsStopOnAFreshParityZeroWait() {
        TimeTravel tt = session("mbarrier-fresh-parity-zero", "random", 1);
        tt.breakpoints().add("park");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertTrue(stops.size() >= 1);
        tt.seek(stops.get(0).step());
        Machine m = tt.interpreter().machine();
        int parked = 0;
        for (int s = 0; s < m.slots; s++) if (m.status[s] == ThreadStatus.PARKED) parked++;
        assertTrue(parked >= 1, "a thread is parked at the stop");
        int falses = steps("mbarrier-fresh-parity-zero", "random", 1, (k, b) -> k == SyncEvent.MBAR_WAIT_FALSE, true);
        TimeTravel tt2 = session("mbarrier-fresh-parity-zero", "random", 1);
        tt2.breakpoints().add("wait-false");
        assertEquals(falses, allStops(tt2).size());
    }

    @Test
    void deadlockAndDiagnosticBreakpointsStopAtTheEnd() {
        TimeTravel dl = session("mbarrier-init-count-too-high", "round-robin", 0);
        dl.breakpoints().add("deadlock");
        TimeTravel.Stop s = dl.runForward(() -> false);
        assertEquals(TimeTravel.Reason.BREAKPOINT, s.reason());
        assertEquals(Outcome.DEADLOCK, dl.interpreter().outcome());
        TimeTravel dg = session("double-bar-arrive", "round-robin", 0);
        dg.breakpoints().add("diagnostic:barrier-over-arrival");
        s = dg.runForward(() -> false);
        assertEquals(TimeTravel.Reason.BREAKPOINT, s.reason());
        assertTrue(s.hit().description().contains("barrier-over-arrival"));
        TimeTravel other = session("double-bar-arrive", "round-robin", 0);
        other.breakpoints().add("diagnostic:mbarrier-stale-token");
        assertEquals(TimeTravel.Reason.FINISHED, other.runForward(() -> false).reason());
    }

    @Test
    void reverseContinueVisitsTheSameHitsBackwards() {
        TimeTravel tt = session("mbarrier-parity-pipeline", "random", 3);
        tt.breakpoints().add("mbarrier");
        List<Long> forward = new ArrayList<>();
        for (TimeTravel.Stop s : allStops(tt)) forward.add(s.step());
        assertTrue(tt.atEnd());
        List<Long> backward = new ArrayList<>();
        while (true) {
            TimeTravel.Stop s = tt.reverseContinue();
            if (s.reason() != TimeTravel.Reason.BREAKPOINT) {
                assertEquals(0, tt.now());
                break;
            }
            backward.add(0, s.step());
        }
        // Several completions can fall in one step; each stop position is visited once.
        assertEquals(forward.stream().distinct().toList(), backward);
    }

    @Test
    void steppingAWarpOverAWaitRunsUntilItPassesIt() {
        TimeTravel tt = session("named-producer-consumer", "round-robin", 0);
        tt.breakpoints().add("line:59");
        TimeTravel.Stop s = tt.runForward(() -> false);
        int w = s.hit().warp();
        Machine m = tt.interpreter().machine();
        int pcBefore = m.pc[w << 5];
        TimeTravel.Stop over = tt.stepOver(w);
        assertEquals(TimeTravel.Reason.STEPPED, over.reason());
        assertTrue(m.pc[w << 5] != pcBefore, "the warp is past bar.sync");
        assertEquals(ThreadStatus.RUNNABLE, m.status[w << 5]);
        TimeTravel.Stop back = tt.stepBackOver(w);
        assertEquals(s.step(), back.step(), "back over the barrier to where it stood");
    }

    @Test
    void twoBreakpointsFiringInOneStepAreBothReported() {
        // The arrival that completes a generation and the completion are one warp step.
        TimeTravel tt = session("block-reduce", "round-robin", 0);
        tt.breakpoints().add("arrive,cta=0");
        tt.breakpoints().add("barrier:0,cta=0,phase=0");
        boolean both = false;
        for (TimeTravel.Stop s : allStops(tt)) {
            both |= s.hit().description().contains("also [barrier:0,cta=0,phase=0]") && s.hit().description().contains("generation 0");
        }
        assertTrue(both, "the phase breakpoint is reported with the arrival that completed it");
    }

    @Test
    void aLineBreakpointOnTheArrivalThatCompletesAGenerationStopsFirstAndTheCompletionThen() {
        // PTX line 57 is the first bar.sync 0: the last warp to execute it completes generation 0.
        TimeTravel tt = session("block-reduce", "round-robin", 0);
        tt.breakpoints().add("line:57,cta=0,warp=3");
        tt.breakpoints().add("barrier:0,cta=0,phase=0");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertEquals(2, stops.size(), stops.toString());
        assertTrue(stops.get(0).hit().breakpoint().toString().startsWith("line:57"), stops.toString());
        assertTrue(stops.get(1).hit().breakpoint().toString().startsWith("barrier:0"), stops.toString());
        assertEquals(stops.get(0).step() + 1, stops.get(1).step(), "the completion comes with the step the line stopped before");
        assertEquals(1, tt.breakpoints().all().get(1).hits, "the completion is counted once");
    }

    @Test
    void hitsTakenBackByAnEarlierLineStopAreCountedOnceWhenTheStepRunsAgain() {
        TimeTravel tt = session("block-reduce", "round-robin", 0);
        tt.breakpoints().add("arrive,cta=0,warp=3");
        Breakpoint completion = tt.breakpoints().add("barrier:0,cta=0");
        tt.breakpoints().add("line:57,cta=0,warp=3");
        long named = allStops(tt).stream().filter(st -> st.hit().breakpoint() == completion
                || st.hit().description().contains("also [barrier:0,cta=0]")).count();
        assertEquals(named, completion.hits, "every completion counted once and named once");
    }

    @Test
    void aHitCountIsNotReachedEarlyByAStepThatRunsAgain() {
        TimeTravel tt = session("block-reduce", "round-robin", 0);
        tt.breakpoints().add("barrier:0,cta=0,hits=2");
        tt.breakpoints().add("line:57,cta=0,warp=3");
        TimeTravel.Stop first = allStops(tt).stream().filter(st -> st.hit().breakpoint().toString().startsWith("barrier"))
                .findFirst().orElseThrow();
        assertTrue(first.hit().description().contains("generation 1"), first.hit().description());
    }

    @Test
    void twoLineBreakpointsOnOneInstructionAreBothReported() {
        TimeTravel tt = session("block-reduce", "round-robin", 0);
        tt.breakpoints().add("line:57,warp=0");
        tt.breakpoints().add("line:kernel.cu:21,warp=0");
        List<TimeTravel.Stop> stops = allStops(tt);
        assertTrue(stops.stream().anyMatch(s -> s.hit().description().contains("also [line:kernel.cu:21,warp=0]")), stops.toString());
    }

    @Test
    void unknownLinesAndVariablesAreRefused() {
        BreakpointSet set = session("block-reduce", "round-robin", 0).breakpoints();
        assertThrows(IllegalArgumentException.class, () -> set.add("line:1"));
        assertThrows(IllegalArgumentException.class, () -> set.add("mbarrier:nosuch"));
        assertNull(set.all().isEmpty() ? null : set.all().get(0));
        assertNotNull(Breakpoint.parse("line:57"));
    }
}
