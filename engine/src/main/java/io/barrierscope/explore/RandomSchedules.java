package io.barrierscope.explore;

/**
 * The search's seeded random phase (docs/explore.md, "Schedules"): after the systematic search,
 * schedules with random deviations at odds cycling through {@link #ODDS}, each from its own seed
 * derived from the search's, handed out to the runners ahead and filed in order (the same schedules
 * and findings for any number of jobs), until the budget or a limit is spent.
 */
final class RandomSchedules {
    private static final int[] ODDS = {4, 16, 64, 8, 32, 256};

    private RandomSchedules() {}

    static void run(Explorer ex, long seed, long maxSteps) {
        JobRunners runners = ex.runners();
        try (JobRunners.Stream<ScheduleRunner.Leaf> st = runners.stream()) {
            int handed = 0;
            for (int i = 0; ; i++) {
                for (; handed < i + runners.ahead(); handed++) {
                    long n = handed;
                    st.submit(r -> r.random(seed * 0x9E3779B97F4A7C15L + n, ODDS[(int) (n % ODDS.length)], maxSteps,
                            () -> st.closed() || ex.due()));
                }
                if (ex.out(1.0)) return;
                if (ex.fileLeaf(st.take(i), 0, false) == Explorer.FILED_ABORTED) return;
            }
        }
    }
}
