package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Leaves handed out ahead to whichever runner is free: the schedules filed, in order, and the
 * coverage (pruned, skipped, counted) are those of one job, run after run, in every reduction mode,
 * including the searches that prune at explored states.
 */
class ExplorerJobsDeterminismTest {
    private enum Mode { NO_POR, SLEEP_SETS, SOURCE_SETS, BOUNDED }

    private record Search(String coverage, List<String> schedules) {}

    private static Search search(Supplier<LaunchedRun> open, Mode mode, int jobs, boolean systematicOnly, long budget) {
        Explorer ex = new Explorer(open.get(), () -> 0L);
        ex.systematicOnly(systematicOnly);
        ex.partialOrder(mode != Mode.NO_POR);
        ex.sourceSets(mode != Mode.SLEEP_SETS);
        ex.boundedPartialOrder(mode == Mode.BOUNDED);
        if (jobs > 1) ex.jobs(jobs, open);
        List<String> seen = new ArrayList<>();
        ex.onSchedule(s -> seen.add(s.toString()));
        Coverage c = ex.explore(new Explorer.Options(budget, 0, 7, 2, 100_000, false, -1)).coverage();
        return new Search(c.toString(), seen);
    }

    @Test
    void twoJobsFileTheSchedulesOfOneInEveryModeRunAfterRun() {
        List<Supplier<LaunchedRun>> kernels = List.of(() -> PartialOrderTest.exchanges(3), () -> PartialOrderTest.pairs(2),
                () -> BoundedPartialOrderTest.rounds(3));
        long prunedRuns = 0;
        for (int k = 0; k < kernels.size(); k++) {
            for (Mode mode : Mode.values()) {
                Search one = search(kernels.get(k), mode, 1, true, 1_000_000);
                if (!one.coverage().contains("pruned=0,")) prunedRuns++;
                for (int rep = 0; rep < 4; rep++) {
                    Search two = search(kernels.get(k), mode, 2 + rep % 2, true, 1_000_000);
                    assertEquals(one, two, "kernel " + k + ", " + mode + ", repeat " + rep);
                }
            }
        }
        assertTrue(prunedRuns > 0, "some search pruned at an explored state");
    }

    @Test
    void aBudgetCutsTwoJobsWhereItCutsOneWithTheRandomPhase() {
        Supplier<LaunchedRun> open = () -> BoundedPartialOrderTest.rounds(3);
        for (Mode mode : Mode.values()) {
            for (long budget : new long[] {5, 17, 60}) {
                Search one = search(open, mode, 1, false, budget);
                for (int rep = 0; rep < 3; rep++) assertEquals(one, search(open, mode, 2, false, budget), mode + ", budget " + budget);
            }
        }
    }
}
