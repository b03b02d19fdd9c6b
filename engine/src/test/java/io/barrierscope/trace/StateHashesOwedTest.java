package io.barrierscope.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A session owes the state hash of every {@link tt.interval()}-th step first reached and of
 * the end, but takes them from checkpoints only when asked (or when the checkpoint budget is about
 * to drop one), so recording does not pay for hashing; the end, which keeps no checkpoint, is
 * hashed where the session is, or reached again by re-execution. The hashes must still be those of the
 * states first reached, and asking must leave the session where it was.
 */
class StateHashesOwedTest {
    /** Four warps, a CTA barrier every iteration, a register and shared-memory state that changes: ~240k warp steps. */
    private static final String LOOP = ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.shared .align 4 .b8 buf[512];\n"
            + "mov.u32 %r1, %tid.x;\nshl.b32 %r2, %r1, 2;\nmov.u32 %r3, buf;\nadd.s32 %r3, %r3, %r2;\nmov.u32 %r4, 0;\n"
            + "L:\nadd.u32 %r5, %r5, %r4;\nst.shared.u32 [%r3], %r5;\nbar.sync 0;\nadd.u32 %r4, %r4, 1;\n"
            + "setp.lt.u32 %p1, %r4, 10000;\n@%p1 bra L;\nret;";

    private static LaunchedRun launch() { return PtxRun.kernel(LOOP).threads(128).launch(); }

    /** The hashes an independent run computes at the same steps, eagerly. */
    private static SortedMap<Long, Long> eager(long end, long interval) {
        LaunchedRun run = launch();
        SortedMap<Long, Long> h = new TreeMap<>();
        for (long s = interval; s < end; s += interval) {
            run.interpreter().advance(s);
            h.put(s, StateHash.of(run.interpreter()));
        }
        run.runToEnd();
        h.put(run.machine().steps, StateHash.of(run.interpreter()));
        return h;
    }

    @Test
    void owedHashesEqualTheStatesFirstReachedAndAskingLeavesTheSessionInPlace() {
        TimeTravel tt = new TimeTravel(launch());
        tt.runForward(() -> false);
        assertTrue(tt.atEnd());
        long end = tt.now();
        assertTrue(end > 3L * tt.interval(), "the loop must cross several intervals, ran " + end);
        tt.seek(end / 3);
        long here = StateHash.of(tt.interpreter());
        SortedMap<Long, Long> hashes = tt.stateHashes();
        assertEquals(eager(end, tt.interval()), hashes);
        assertEquals(end / 3, tt.now());
        assertEquals(here, StateHash.of(tt.interpreter()), "taking the owed hashes moved the session");
    }

    @Test
    void aCheckpointTheBudgetDropsHasItsHashTakenFirst() {
        // A budget of one byte keeps only the checkpoint at step 0 and the newest: every other frontier checkpoint is dropped.
        LaunchedRun run = launch();
        TimeTravel tt = new TimeTravel(run, run.maxSteps(), 1);
        tt.runForward(() -> false);
        assertTrue(tt.checkpoints().size() <= 2, tt.checkpoints().size() + " checkpoints kept");
        long here = StateHash.of(tt.interpreter());
        assertEquals(eager(tt.now(), tt.interval()), tt.stateHashes());
        assertEquals(here, StateHash.of(tt.interpreter()));
    }
}
