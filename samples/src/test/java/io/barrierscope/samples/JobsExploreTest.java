package io.barrierscope.samples;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.ValidatedLaunch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code explore --jobs N}: schedules run on N machines at once give exactly the result of one
 * job: the same findings in the same order with the same found and minimal schedules, the same
 * coverage numbers, and the same schedules counted in the same order. Budgets chosen so the cut
 * lands inside a batch, with and without the random phase.
 */
class JobsExploreTest {
    private static Path launch(String name) throws Exception {
        if (name.contains("/")) return Path.of(JobsExploreTest.class.getResource("/" + name + "/launch.json").toURI());
        return SampleRuns.launch(name);
    }

    private record Run(Explorer.Result result, List<Schedule> counted) {}

    /** Copies started from the one validated launch, as {@code explore} makes them (workers restore the main machine's checkpoints). */
    private static Run explore(Path launch, int jobs, Explorer.Options o, boolean systematicOnly) {
        ValidatedLaunch v = LaunchValidation.validate(launch);
        Explorer ex = new Explorer(v.start(new SchedulePolicy()), () -> 0L);
        ex.jobs(jobs, () -> v.start(new SchedulePolicy()));
        return run(ex, o, systematicOnly);
    }

    /** Copies validated on their own (another Program each): workers replay a parent's plan for checkpoints of their own. */
    private static Run exploreSeparately(Path launch, int jobs, Explorer.Options o, boolean systematicOnly) {
        Explorer ex = new Explorer(LaunchValidation.validate(launch).start(new SchedulePolicy()), () -> 0L);
        ex.jobs(jobs, () -> LaunchValidation.validate(launch).start(new SchedulePolicy()));
        return run(ex, o, systematicOnly);
    }

    private static Run run(Explorer ex, Explorer.Options o, boolean systematicOnly) {
        ex.systematicOnly(systematicOnly);
        List<Schedule> counted = new ArrayList<>();
        ex.onSchedule(counted::add);
        return new Run(ex.explore(o), counted);
    }

    @ParameterizedTest
    @ValueSource(strings = {"explore/late-copy-hang", "explore/peer-exit-race", "explore/flag-check-deadlock",
            "races/fresh-barrier-parity-one", "races/relaxed-arrive-data", "mbarrier-fresh-parity-zero", "double-bar-arrive",
            "named-producer-consumer", "cluster-remote-arrive"})
    void threeJobsGiveExactlyTheResultOfOne(String name) throws Exception {
        Path l = launch(name);
        Explorer.Options o = new Explorer.Options(157, 0, 3, 3, 200_000, true, 0);
        Run one = explore(l, 1, o, false);
        Run three = explore(l, 3, o, false);
        assertEquals(one.result(), three.result());
        assertEquals(one.counted(), three.counted());
    }

    /**
     * The command line's default search: bounded sleep sets and, after bound 1, the unbounded source-set pass
     * (exhausting the small kernels, running out of its share on the others), then the bounded search and random schedules.
     */
    @ParameterizedTest
    @ValueSource(strings = {"explore/peer-exit-race", "explore/flag-check-deadlock", "double-bar-arrive", "named-producer-consumer",
            "races/relaxed-arrive-data"})
    void theDefaultSearchWithItsExhaustionPassIsTheSameOnThreeJobs(String name) throws Exception {
        Path l = launch(name);
        Explorer.Options o = new Explorer.Options(157, 0, 3, 3, 200_000, true, 0);
        Run[] runs = new Run[2];
        for (int i = 0; i < 2; i++) {
            ValidatedLaunch v = LaunchValidation.validate(l);
            Explorer ex = new Explorer(v.start(new SchedulePolicy()), () -> 0L);
            ex.jobs(i == 0 ? 1 : 3, () -> v.start(new SchedulePolicy()));
            ex.boundedPartialOrder(true);
            ex.exhaustionPass(true);
            runs[i] = run(ex, o, false);
        }
        assertEquals(runs[0].result(), runs[1].result());
        assertEquals(runs[0].counted(), runs[1].counted());
    }

    @ParameterizedTest
    @ValueSource(strings = {"explore/flag-check-deadlock", "double-bar-arrive", "mbarrier-fresh-parity-zero"})
    void aSystematicSearchToExhaustionIsTheSameOnTwoJobs(String name) throws Exception {
        Path l = launch(name);
        Explorer.Options o = new Explorer.Options(3_000, 0, 0, 2, 200_000, true, -1);
        Run one = explore(l, 1, o, true);
        assertTrue(one.counted().size() > 10, "" + one.counted().size());
        assertEquals(one, explore(l, 2, o, true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"explore/flag-check-deadlock", "double-bar-arrive", "named-producer-consumer"})
    void workersOnSeparatelyValidatedCopiesGiveTheResultOfOne(String name) throws Exception {
        Path l = launch(name);
        Explorer.Options o = new Explorer.Options(157, 0, 3, 3, 200_000, true, 0);
        assertEquals(explore(l, 1, o, false), exploreSeparately(l, 3, o, false));
    }
}
