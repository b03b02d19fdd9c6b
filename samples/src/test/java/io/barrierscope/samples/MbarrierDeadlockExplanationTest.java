package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.check.Deadlock;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An mbarrier wait in a deadlock names the threads that have not arrived this phase and where
 * they are, leaves out those that have, and shows the bytes expected and delivered (semantics.md
 * sections 6, 7 and 9), on the catalogue's real kernels.
 */
class MbarrierDeadlockExplanationTest {
    private static Deadlock.Wait firstWait(String sample) {
        LaunchedRun r = SampleRuns.run(sample, "round-robin", 0);
        assertEquals(Outcome.DEADLOCK, r.interpreter().outcome());
        return r.deadlock().waits().get(0);
    }

    @Test
    void threadsThatAlreadyArrivedAreNotListedAsMissing() {
        // 128 threads arrive on a barrier initialised for 129: nobody is left to arrive.
        Deadlock.Wait w = firstWait("mbarrier-init-count-too-high");
        assertTrue(w.needs().contains("128 arrive-on(s) this phase, by 128 thread(s) of the CTA"), w.needs());
        List<Deadlock.Missing> missing = w.missing();
        assertEquals(1, missing.size(), missing.toString());
        assertEquals("(none)", missing.get(0).threads());
        assertTrue(missing.get(0).state().contains("the expected count 129 is more than the arrivals they give"), missing.get(0).state());
    }

    @Test
    void exitedThreadsAreNamedAndThoseThatReleasedEarlierPhasesAreNotSaidToNeverArrive() {
        // The consumers released this slot in earlier phases, then exited: they did arrive, just not this phase.
        Deadlock.Wait w = firstWait("mbarrier-exited-waiter");
        assertTrue(w.needs().contains("No arrive-on yet this phase"), w.needs());
        assertEquals(3, w.missing().size(), w.missing().toString());
        for (Deadlock.Missing m : w.missing()) {
            assertTrue(m.state().startsWith("exited after arriving in an earlier phase"), m.state());
            assertEquals("exited", m.status());
        }
    }

    @Test
    void aLiveThreadThatHasNotArrivedIsNamedWithWhereItIs() {
        Deadlock.Wait w = firstWait("expect-tx-without-arrive");
        assertEquals(1, w.missing().size(), w.missing().toString());
        assertTrue(w.missing().get(0).state().startsWith("polling mbarrier full"), w.missing().get(0).state());
    }

    @Test
    void whoArrivedIsPartOfTheStateATimeTravellerRestores() {
        LaunchedRun fresh = SampleRuns.run("mbarrier-init-count-too-high", "random", 4);
        io.barrierscope.trace.TimeTravel tt = new io.barrierscope.trace.TimeTravel(
                LaunchValidation.validate(SampleRuns.launch("mbarrier-init-count-too-high")).start("random", 4L));
        tt.runForward(() -> false);
        tt.seek(tt.now() / 2);
        tt.runForward(() -> false);
        assertEquals(fresh.deadlock().waits().get(0).needs(),
                io.barrierscope.check.DeadlockExplainer.explain(tt.interpreter()).waits().get(0).needs());
    }

    @Test
    void theBytesExpectedAndDeliveredThisPhaseAreShown() {
        Deadlock.Wait w = firstWait("expect-tx-too-high");
        assertTrue(w.needs().contains("128 bytes expected but not delivered")
                && w.needs().contains("this phase expected 256 bytes and 128 were delivered"), w.needs());
    }
}
