package io.barrierscope.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.MemoryModelHook;
import io.barrierscope.exec.Outcome;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.Mbarrier;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A warp's mbarrier arrive, wait and use checks reach the detector as one call each
 * (MemoryModelHook's warp methods) and mean exactly the per-lane calls in lane order: a run whose
 * hook offers only the per-lane calls (so the engine goes lane by lane, as with any other hook)
 * holds the same detector state, by its hash, after every warp step, and ends the same way.
 */
class MbarrierWarpHooksTest {
    @ParameterizedTest
    @ValueSource(strings = {"tma-pipeline", "bulk-copy-pipeline", "mbarrier-parity-pipeline", "mbarrier-token-wait", "cp-async-mbarrier",
            "mbarrier-init-without-sync", "mbarrier-exited-waiter-fixed"})
    void theWarpWideMbarrierHooksLeaveTheDetectorAsTheLaneByLaneCallsDo(String sample) throws Exception {
        Path launch = Path.of("..", "samples", sample, "launch.json");
        LaunchedRun warpWide = LaunchValidation.validate(launch).start();
        LaunchedRun byLane = LaunchValidation.validate(launch).start();
        PerLane hook = new PerLane((RaceDetector) byLane.machine().race);
        byLane.machine().race = hook;
        byLane.machine().memory.race = hook;
        long limit = warpWide.spec().maxSteps();
        int steps = 0;
        while (warpWide.interpreter().outcome() == Outcome.RUNNING && warpWide.machine().steps < limit) {
            long next = warpWide.machine().steps + 1;
            warpWide.interpreter().advance(next);
            byLane.interpreter().advance(next);
            assertEquals(hash(warpWide.machine().race), hash(hook), sample + ": detector state after warp step " + next);
            steps++;
        }
        assertTrue(steps > 10, sample + " ran " + steps + " warp steps");
        assertEquals(warpWide.interpreter().outcome(), byLane.interpreter().outcome());
        assertEquals(warpWide.raceDetectionNote(), byLane.raceDetectionNote());
    }

    /**
     * The reference hook forwards every hook method but the three warp-wide mbarrier ones: a method it
     * left to its interface default (fenceMbarrierInit's is a whole .cluster fence) would make the two
     * runs differ in what the comparison is not about.
     */
    @Test
    void theLaneByLaneHookForwardsEveryMethodButTheWarpWideMbarrierOnes() {
        Set<String> warpWide = Set.of("mbarrierUsesQuiet", "mbarrierArriveWarp", "mbarrierAcquireWarp");
        List<String> missing = new ArrayList<>();
        for (Method m : MemoryModelHook.class.getMethods()) {
            if (m.getDeclaringClass() != MemoryModelHook.class || Modifier.isStatic(m.getModifiers()) || warpWide.contains(m.getName())) continue;
            try {
                PerLane.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                missing.add(m.getName() + Arrays.toString(m.getParameterTypes()));
            }
        }
        missing.sort(null);
        assertEquals(List.of(), missing);
    }

    private static List<Long> hash(MemoryModelHook h) {
        List<Long> out = new ArrayList<>();
        h.hashInto(out::add);
        return out;
    }

    /** The detector behind the interface's per-lane methods only (the warp methods keep their defaults). */
    private record PerLane(RaceDetector d) implements MemoryModelHook {
        @Override public void access(int region, int offset, int size, int thread, boolean write) { d.access(region, offset, size, thread, write); }
        @Override public void accessWords(int region, int[] offsets, int lanes, int warp, boolean write) { d.accessWords(region, offsets, lanes, warp, write); }
        @Override public void copyWords(int srcRegion, int srcOffset, int dstRegion, int dstOffset, int bytes, int thread) {
            d.copyWords(srcRegion, srcOffset, dstRegion, dstOffset, bytes, thread);
        }
        @Override public void beginStrong(int sem, boolean readModifyWrite) { d.beginStrong(sem, readModifyWrite); }
        @Override public void beginStrong(int sem, boolean readModifyWrite, int scope) { d.beginStrong(sem, readModifyWrite, scope); }
        @Override public void endStrong() { d.endStrong(); }
        @Override public void fence(int thread) { d.fence(thread); }
        @Override public void fence(int thread, int scope) { d.fence(thread, scope); }
        @Override public void fenceMbarrierInit(int thread) { d.fenceMbarrierInit(thread); }
        @Override public void proxyFence(int thread, int spaces) { d.proxyFence(thread, spaces); }
        @Override public void beginAsyncProxyRead(int thread, int pc) { d.beginAsyncProxyRead(thread, pc); }
        @Override public void endAsyncProxyRead() { d.endAsyncProxyRead(); }
        @Override public void barArrive(int cta, int id, int warp, int lanes) { d.barArrive(cta, id, warp, lanes); }
        @Override public Release barComplete(int cta, int id) { return d.barComplete(cta, id); }
        @Override public void barAcquire(int slot, Release released) { d.barAcquire(slot, released); }
        @Override public void barAcquireWarp(int warp, Release released) { d.barAcquireWarp(warp, released); }
        @Override public void clusterArrive(int slot, int firstCta, boolean relaxed) { d.clusterArrive(slot, firstCta, relaxed); }
        @Override public void clusterComplete(int firstCta) { d.clusterComplete(firstCta); }
        @Override public void clusterAcquire(int slot, int firstCta) { d.clusterAcquire(slot, firstCta); }
        @Override public void warpSync(int warp, int members) { d.warpSync(warp, members); }
        @Override public void mbarrierInit(int slot, Mbarrier b, int pc) { d.mbarrierInit(slot, b, pc); }
        @Override public void mbarrierUse(int slot, Mbarrier b, int pc) { d.mbarrierUse(slot, b, pc); }
        @Override public void mbarrierArrive(int slot, Mbarrier b, boolean relaxed, int scope) { d.mbarrierArrive(slot, b, relaxed, scope); }
        @Override public void mbarrierPhaseComplete(Mbarrier b) { d.mbarrierPhaseComplete(b); }
        @Override public void mbarrierAcquire(int slot, Mbarrier b, boolean relaxed, int scope) { d.mbarrierAcquire(slot, b, relaxed, scope); }
        @Override public void asyncIssue(AsyncOperation op) { d.asyncIssue(op); }
        @Override public void beginAsync(AsyncOperation op) { d.beginAsync(op); }
        @Override public void endAsync(AsyncOperation op) { d.endAsync(op); }
        @Override public void groupWaitPassed(int slot, boolean bulk, long keptFrom, boolean sourceReadsOnly) {
            d.groupWaitPassed(slot, bulk, keptFrom, sourceReadsOnly);
        }
        @Override public Snapshot save() { return d.save(); }
        @Override public void restore(Snapshot s) { d.restore(s); }
        @Override public void hashInto(LongConsumer h) { d.hashInto(h); }
    }
}
