package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import io.barrierscope.trace.Checkpoint;
import io.barrierscope.trace.StateHash;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Explore's incremental state hash against the word-by-word one traces keep (docs/explore.md, "State hashes"). */
class ExploreStateHashTest {
    /** Two CTAs of three warps: shared memory, a CTA barrier (race-detector clocks), global stores. */
    private static LaunchedRun run(long seed) {
        return PtxRun.kernel("""
                .reg .b32 %r<10>;
                .reg .b64 %rd<6>;
                .shared .align 4 .b8 sh[384];
                ld.param.u64 %rd1, [out];
                mov.u32 %r1, %tid.x;
                mov.u32 %r2, %ctaid.x;
                mov.u32 %r3, %ntid.x;
                mad.lo.u32 %r4, %r2, %r3, %r1;
                mov.u32 %r5, sh;
                shl.b32 %r6, %r1, 2;
                add.u32 %r7, %r5, %r6;
                st.shared.u32 [%r7], %r4;
                bar.sync 0;
                add.u32 %r8, %r1, 1;
                rem.u32 %r8, %r8, %r3;
                shl.b32 %r8, %r8, 2;
                add.u32 %r8, %r5, %r8;
                ld.shared.u32 %r9, [%r8];
                mul.wide.u32 %rd2, %r4, 4;
                add.u64 %rd2, %rd1, %rd2;
                st.global.u32 [%rd2], %r9;
                ret;
                """).buffer("out", 192).grid(2).threads(96).policy("random", seed).launch();
    }

    @Test
    void equalExploreHashesExactlyWhereTheTraceHashesAreEqual() {
        Map<Long, Long> traceToExplore = new HashMap<>();
        Map<Long, Long> exploreToTrace = new HashMap<>();
        for (long seed = 1; seed <= 3; seed++) {
            LaunchedRun r = run(seed);
            WarpDigests d = new WarpDigests(r.machine());
            do {
                long t = StateHash.of(r.interpreter());
                long e = StateHash.of(r.interpreter(), d);
                assertEquals(e, (long) traceToExplore.computeIfAbsent(t, k -> e), "one trace hash, one explore hash");
                assertEquals(t, (long) exploreToTrace.computeIfAbsent(e, k -> t), "one explore hash, one trace hash");
            } while (r.interpreter().step());
        }
        assertTrue(traceToExplore.size() > 50, traceToExplore.size() + " states");
    }

    @Test
    void aHashDoesNotDependOnWhatTheCachesSawBefore() {
        LaunchedRun r = run(5);
        WarpDigests d = new WarpDigests(r.machine());
        List<Checkpoint> cps = new ArrayList<>();
        List<Long> hashes = new ArrayList<>();
        do {
            if (r.machine().steps % 3 == 0) {
                cps.add(Checkpoint.take(r.interpreter()));
                hashes.add(StateHash.of(r.interpreter(), d));
            }
        } while (r.interpreter().step());
        // Back and forth through the run (restores change every part at once), on the same caches and on fresh ones.
        for (int i = cps.size() - 1; i >= 0; i -= 2) {
            cps.get(i).restoreInto(r.interpreter());
            assertEquals(hashes.get(i), StateHash.of(r.interpreter(), d), "checkpoint " + i + ", warm caches");
            assertEquals(hashes.get(i), StateHash.of(r.interpreter(), new WarpDigests(r.machine())), "checkpoint " + i + ", fresh caches");
        }
        assertTrue(new HashSet<>(hashes).size() > 10);
    }

    @Test
    void anUnchangedWarpIsNotDigestedAgain() {
        LaunchedRun r = run(9);
        WarpDigests d = new WarpDigests(r.machine());
        StateHash.of(r.interpreter(), d);
        long first = d.digests;
        StateHash.of(r.interpreter(), d);
        assertEquals(first, d.digests, "nothing changed, nothing digested");
        r.interpreter().step();
        StateHash.of(r.interpreter(), d);
        assertTrue(d.digests - first < first, "one step re-digests a few parts, not all: " + (d.digests - first) + " of " + first);
    }
}
