package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Machine;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.testing.PtxRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The explorer with the symmetric-warp reduction: what it skips, what it still explores, and its count. */
class ExplorerSymmetryTest {
    /** Warp 0 produces, warp 1 consumes, warps 2 and 3 do the same third job: a warp-specialised kernel (no bug). */
    private static final String SPECIALISED = """
            .reg .b32 %r<8>;
            .reg .pred %p<3>;
            .shared .align 4 .b32 s[34];
            mov.u32 %r1, %tid.x;
            shr.u32 %r2, %r1, 5;
            and.b32 %r5, %r1, 31;
            shl.b32 %r5, %r5, 2;
            mov.u32 %r6, s;
            add.u32 %r6, %r6, %r5;
            setp.eq.u32 %p1, %r2, 0;
            @%p1 bra PRODUCER;
            setp.eq.u32 %p2, %r2, 1;
            @%p2 bra CONSUMER;
            atom.shared.add.u32 %r3, [s+128], 1;
            atom.shared.add.u32 %r3, [s+132], 1;
            barrier.sync 0;
            ret;
            PRODUCER:
            st.shared.u32 [%r6], %r1;
            atom.shared.add.u32 %r3, [s+132], 1;
            barrier.sync 0;
            ret;
            CONSUMER:
            atom.shared.add.u32 %r3, [s+128], 1;
            barrier.sync 0;
            ld.shared.u32 %r4, [%r6];
            ret;
            """;

    private record Search(Explorer.Result result, Set<String> schedules) {}

    private static Search bound(LaunchedRun run, int bound, boolean symmetry) {
        Explorer ex = new Explorer(run, () -> 0L);
        ex.systematicOnly(true);
        ex.partialOrder(false); // the symmetric-warp reduction alone (PartialOrderTest: both)
        Set<String> seen = new TreeSet<>();
        ex.scheduleListener = s -> assertTrue(seen.add(s.toString()), "explored twice: " + s);
        Explorer.Result r = ex.explore(new Explorer.Options(100_000, 0, 0, bound, 100_000, symmetry));
        assertEquals(Coverage.EXHAUSTED, r.coverage().stoppedBy());
        return new Search(r, seen);
    }

    /** Per warp decision of the default run: the chosen warp and its alternatives (index, chosen, alts...). */
    private static Map<Long, long[]> defaultDecisions(LaunchedRun run, Map<Long, boolean[][]> symmetricPairs) {
        SchedulePolicy p = (SchedulePolicy) run.interpreter().policy();
        WarpSymmetry sym = new WarpSymmetry(run.program());
        Map<Long, long[]> out = new HashMap<>();
        p.listen((idx, kind, chosen, alts, n) -> {
            if (kind != SchedulePolicy.WARP) return;
            long[] d = new long[n + 1];
            d[0] = chosen;
            System.arraycopy(alts, 0, d, 1, n);
            out.put(idx, d);
            Machine m = run.machine();
            boolean[][] pairs = new boolean[m.warps][m.warps];
            for (long a : d) for (long b : d) pairs[(int) a][(int) b] = sym.symmetric(m, (int) a, (int) b);
            symmetricPairs.put(idx, pairs);
        }, 0);
        run.runToEnd();
        return out;
    }

    @Test
    void symmetricAlternativesAreNotExploredTwice() {
        PtxRun k = PtxRun.kernel(WarpSymmetryTest.SAME_WORK).threads(128);
        Search on = bound(k.launch(new SchedulePolicy()), 1, true);
        Search off = bound(k.launch(new SchedulePolicy()), 1, false);
        Coverage c = on.result().coverage();
        // Bound 1 forks once per kept alternative of the default run: one schedule each, plus the default.
        assertEquals(c.decisionPoints(), off.result().coverage().decisionPoints());
        assertEquals(1 + c.decisionPoints() - c.skippedBySymmetry() - c.prunedByState(), c.schedules());
        assertEquals(0, off.result().coverage().skippedBySymmetry());
        assertTrue(c.skippedBySymmetry() > 0 && c.schedules() < off.result().coverage().schedules());
        assertTrue(off.schedules().containsAll(on.schedules()));
        // Decision 0: every warp at the entry, symmetric to warp 0 which the default runs.
        assertTrue(off.schedules().containsAll(List.of("s1:0w1", "s1:0w2", "s1:0w3")), off.schedules().toString());
        assertFalse(on.schedules().stream().anyMatch(s -> s.startsWith("s1:0w")), on.schedules().toString());

        // At every decision, no two explored alternatives (nor one and the default's warp) are symmetric.
        Map<Long, boolean[][]> pairs = new HashMap<>();
        Map<Long, long[]> decisions = defaultDecisions(k.launch(new SchedulePolicy()), pairs);
        Map<Long, List<Integer>> forked = new HashMap<>();
        for (String s : on.schedules()) {
            if (s.equals("s1:")) continue;
            int w = s.indexOf('w');
            forked.computeIfAbsent(Long.parseLong(s.substring(3, w)), i -> new ArrayList<>()).add(Integer.parseInt(s.substring(w + 1)));
        }
        for (var e : forked.entrySet()) {
            List<Integer> ws = new ArrayList<>(e.getValue());
            ws.add((int) decisions.get(e.getKey())[0]);
            for (int a : ws) for (int b : ws) assertTrue(a == b || !pairs.get(e.getKey())[a][b], "decision " + e.getKey() + ": " + ws);
        }
    }

    @Test
    void asymmetricWarpsAreAllStillExplored() {
        PtxRun k = PtxRun.kernel(SPECIALISED).threads(128);
        Search on = bound(k.launch(new SchedulePolicy()), 1, true);
        Search off = bound(k.launch(new SchedulePolicy()), 1, false);
        Map<Long, boolean[][]> pairs = new HashMap<>();
        Map<Long, long[]> decisions = defaultDecisions(k.launch(new SchedulePolicy()), pairs);
        int checked = 0;
        for (var e : decisions.entrySet()) {
            long[] d = e.getValue();
            for (int i = 1; i < d.length; i++) {
                boolean alone = true;
                for (int j = 0; j < d.length; j++) alone &= j == i || !pairs.get(e.getKey())[(int) d[i]][(int) d[j]];
                String s = "s1:" + e.getKey() + "w" + d[i];
                if (!alone || !off.schedules().contains(s)) continue;
                assertTrue(on.schedules().contains(s), s + " (a warp symmetric to no other) was not explored");
                checked++;
            }
        }
        assertTrue(checked >= 5, "only " + checked + " asymmetric alternatives");
        assertEquals(List.of(), on.result().findings());
        assertEquals(List.of(), off.result().findings());
    }

    @Test
    void theSameOptionsGiveTheSameSchedulesWithAndWithoutTheReduction() {
        PtxRun k = PtxRun.kernel(SPECIALISED).threads(128);
        for (boolean symmetry : new boolean[] {true, false}) {
            Explorer.Options o = new Explorer.Options(120, 0, 5, 2, 100_000, symmetry);
            List<String> first = new ArrayList<>();
            List<String> second = new ArrayList<>();
            Explorer a = new Explorer(k.launch(new SchedulePolicy()), () -> 0L);
            a.scheduleListener = s -> first.add(s.toString());
            Explorer b = new Explorer(k.launch(new SchedulePolicy()), () -> 0L);
            b.scheduleListener = s -> second.add(s.toString());
            assertEquals(a.explore(o), b.explore(o));
            assertEquals(first, second);
        }
    }

    @Test
    void optionsWithoutTheFlagKeepTheReductionOn() {
        assertTrue(new Explorer.Options(1, 0, 0, 1, 1).symmetry());
    }
}
