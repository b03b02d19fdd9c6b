package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.StateHash;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.TraceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The silent-corruption scenarios of real bug reports as nvcc-built kernels
 * (src/test/resources/races/NAME): the race detector reports each of them under every policy
 * and many seeds, naming both accesses; plain runs of the same kernels with detection off
 * complete without any diagnostic, which is why a debugger that runs one schedule misses them.
 */
class RaceScenariosTest {
    private static final List<String> POLICIES = List.of("round-robin", "random", "adversarial");

    @TempDir
    Path dir;

    static Path launch(String name) {
        Path p = Path.of("").toAbsolutePath();
        Path base = Files.isDirectory(p.resolve("src/test/resources/races")) ? p : p.resolve("samples");
        return base.resolve("src/test/resources/races").resolve(name).resolve("launch.json");
    }

    /** Runs the scenario under every policy and ten seeds; every run must meet the expect block (a race). */
    private static Diagnostic raceEverywhere(String name) { return race(name, false); }

    /**
     * As raceEverywhere, but a run may instead deadlock (the same bug under a schedule that hangs);
     * every policy must still find the race with at least one seed.
     */
    private static Diagnostic race(String name, boolean orDeadlock) {
        Diagnostic first = null;
        for (String policy : POLICIES) {
            int races = 0;
            for (long seed = 0; seed < (policy.equals("round-robin") ? 1 : 10); seed++) {
                LaunchedRun r = LaunchValidation.validate(launch(name)).start(policy, seed);
                r.runToEnd();
                if (orDeadlock && r.interpreter().outcome() == Outcome.DEADLOCK) {
                    assertEquals(List.of(), r.interpreter().diagnostics(), r.summary());
                    continue;
                }
                assertEquals(List.of(), r.expectDifferences(), name + " " + policy + " seed " + seed + "\n" + r.summary());
                assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome(), r.summary());
                Diagnostic d = r.interpreter().diagnostics().get(0);
                assertEquals("race", d.code().code(), r.summary());
                assertEquals(2, d.ptxLocations().size(), d.message());
                assertEquals(2, d.threads().size(), d.message());
                races++;
                if (first == null) first = d;
            }
            assertTrue(races > 0, name + ": no race found under " + policy);
        }
        return first;
    }

    /** With detection off the kernel runs to the end without any diagnostic: the corruption is silent. */
    private static void silentWithoutDetection(String name) {
        LaunchedRun r = LaunchValidation.validate(launch(name)).start("round-robin", 0L).raceDetection(false);
        // (round-robin is a schedule where each of these completes rather than hangs)
        r.runToEnd();
        assertEquals(Outcome.COMPLETED, r.interpreter().outcome(), r.summary());
        assertEquals(List.of(), r.interpreter().diagnostics(), r.summary());
    }

    @Test
    void aWaitOnAnAlreadyCompletedParityReturnsEarlyAndItsReadsRaceWithTheNextCopy() {
        Diagnostic d = raceEverywhere("stale-parity-single-slot");
        assertTrue(d.message().contains("asynchronous copy issued by"), d.message());
        assertTrue(d.message().contains("wait on mbarrier full"), d.message());
        assertEquals("full (shared 0x0)", d.barrier(), d.toString());
        assertTrue(d.cudaLocations().stream().anyMatch(l -> l.toString().contains("kernel.cu")), d.toString());
        silentWithoutDetection("stale-parity-single-slot");
    }

    @Test
    void aConsumerPassingAParityOneWaitOnAFreshBarrierReadsBeforeTheProducerWrote() {
        Diagnostic d = race("fresh-barrier-parity-one", true);
        assertTrue(d.message().contains("writes it") && d.message().contains("reads it"), d.message());
        silentWithoutDetection("fresh-barrier-parity-one");
    }

    @Test
    void aRelaxedArriveWithAnAcquireWaitPublishesNoData() {
        Diagnostic d = raceEverywhere("relaxed-arrive-data");
        assertTrue(d.message().contains("writes it") && d.message().contains("reads it"), d.message());
        silentWithoutDetection("relaxed-arrive-data");
    }

    @Test
    void aRemoteArriveBeforeThePeersInitWasPublishedIsMbarrierInitNotFenced() {
        // The relaxed cluster barrier publishes the init to nobody: the peer CTA's remote arrive is
        // mbarrier-init-not-fenced; where a thread of the init's own CTA waits on it first, that use
        // is a plain race (the same CTA needs a bar.sync, not the cluster fence).
        for (String policy : POLICIES) {
            int notFenced = 0;
            for (long seed = 0; seed < (policy.equals("round-robin") ? 1 : 10); seed++) {
                LaunchedRun r = LaunchValidation.validate(launch("remote-arrive-before-init")).start(policy, seed);
                r.runToEnd();
                assertEquals(List.of(), r.expectDifferences(), policy + " seed " + seed + "\n" + r.summary());
                Diagnostic d = r.interpreter().diagnostics().get(0);
                assertTrue(List.of("race", "mbarrier-init-not-fenced").contains(d.code().code()), r.summary());
                assertTrue(d.message().contains("mbarrier.init"), d.message());
                assertEquals(2, d.ptxLocations().size(), d.message());
                if (d.code().code().equals("mbarrier-init-not-fenced")) {
                    notFenced++;
                    assertTrue(d.message().contains("fence.mbarrier_init.release.cluster") && d.message().contains("another CTA"), d.message());
                }
            }
            assertTrue(notFenced > 0, "no mbarrier-init-not-fenced under " + policy);
        }
        silentWithoutDetection("remote-arrive-before-init");
    }

    @Test
    void aRaceIsFoundAgainWhenTheTraceIsReopenedAndWhenTimeTravelsBackAndForth() throws Exception {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(launch("stale-parity-single-slot")).start("random", 3L));
        tt.runForward(() -> false);
        assertEquals(Outcome.DIAGNOSED, tt.interpreter().outcome());
        String race = tt.interpreter().diagnostics().get(0).message();
        Path f = dir.resolve("race.bstrace");
        TraceFile.write(tt, f);
        TimeTravel back = TraceFile.open(f);
        assertEquals(race, back.interpreter().diagnostics().get(0).message());
        assertEquals(StateHash.of(tt.interpreter()), StateHash.of(back.interpreter()));
        long end = tt.now();
        long hash = StateHash.of(tt.interpreter());
        tt.seek(end / 2);
        assertTrue(tt.interpreter().diagnostics().isEmpty(), "before the race there is none");
        tt.runForward(() -> false);
        assertEquals(end, tt.now());
        assertEquals(race, tt.interpreter().diagnostics().get(0).message());
        assertEquals(hash, StateHash.of(tt.interpreter()));
    }
}
