package io.barrierscope.app.explore;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.OpenedFile;
import io.barrierscope.app.session.SourceMap;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.exec.Policy;
import io.barrierscope.explore.Coverage;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.Minimization;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Explore panel's states and findings, without a toolkit: a fake runner reports what the test says. */
class ExploreViewModelTest {
    /** Remembers each start and lets the test report for it. */
    static final class FakeRunner implements ExploreViewModel.Runner {
        ExploreViewModel.Listener listener;
        Explorer.Options options;
        boolean boundedPartialOrder;
        int starts;
        boolean cancelled;

        @Override
        public ExploreViewModel.Handle start(LaunchSpec launch, ExploreViewModel.Search s, ExploreViewModel.Listener l) {
            starts++;
            listener = l;
            options = s.options();
            boundedPartialOrder = s.boundedPartialOrder();
            cancelled = false;
            return () -> cancelled = true;
        }
    }

    record Opened(LaunchSpec launch, Policy policy, long step, String note, boolean toEnd) {}

    private final FakeRunner runner = new FakeRunner();
    private Opened opened;
    private final ExploreViewModel vm = new ExploreViewModel(runner, (l, p, s, n, e) -> opened = new Opened(l, p, s, n, e));

    private static final Path LAUNCH = TestFiles.exploreKernel("peer-exit-race");
    private static final LaunchSpec SPEC = LaunchValidation.validate(LAUNCH).start().spec();

    private static OpenedFile file(LaunchSpec spec, SourceMap map, boolean trace) {
        return new OpenedFile(LAUNCH, "kernel.ptx", List.of(), map, List.of(), null, null, "round-robin", 0, "", trace, spec);
    }

    private static Finding diagnostic() {
        return new Finding(Finding.DIAGNOSTIC, "dsmem-after-exit", "dsmem-after-exit@[89]", "a CTA that has exited", 95,
                Schedule.parse("s1:0w1"), 2, List.of(89), "diagnosed");
    }

    private static Coverage coverage(long n, String stoppedBy) {
        return new Coverage(n, n / 2, n - n / 2, 2, 13, 4, 3, stoppedBy, 1000);
    }

    @Test
    void aFindingFreeSearchSaysWhatItCoveredAsTheConsoleDoes() {
        Coverage bounded = new Coverage(40, 40, 0, 2, 13, 0, 2, Coverage.SCHEDULE_BUDGET, 1000, 0, false, 7, true);
        assertEquals("; covered: " + bounded.proven(true), ExploreViewModel.covered(bounded, true));
        assertTrue(ExploreViewModel.covered(bounded, true).startsWith("; covered: every interleaving with at most 2 deviations, up to equivalence"),
                ExploreViewModel.covered(bounded, true));
        Coverage sourceSets = new Coverage(40, 40, 0, 2, 13, 0, 2, Coverage.SCHEDULE_BUDGET, 1000, 0, false, 7);
        assertTrue(ExploreViewModel.covered(sourceSets, true).contains("partial-order-reduced search"), ExploreViewModel.covered(sourceSets, true));
        assertEquals("", ExploreViewModel.covered(new Coverage(2, 2, 0, 1, 13, 0, 0, Coverage.SCHEDULE_BUDGET, 10), true));
    }

    @Test
    void proveTheBoundIsOnByDefaultSourceSetsGoToTheRunnerWhenChosenAndTheChoiceIsKeptForTheNextLaunch() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        assertTrue(vm.boundedPartialOrderProperty().get(), "the reduction sound within the bound, the command line's default");
        vm.start();
        assertTrue(runner.boundedPartialOrder);
        assertTrue(vm.statusProperty().get().contains("reduction sound within the bound"), vm.statusProperty().get());
        runner.listener.done(new Explorer.Result(coverage(10, Coverage.EXHAUSTED), List.of()), 5);

        vm.boundedPartialOrderProperty().set(false);
        vm.start();
        assertFalse(runner.boundedPartialOrder);
        assertEquals(new Explorer.Options(1000, 60_000, 0, 3, SPEC.maxSteps()), runner.options, "the other settings unchanged");

        LaunchSpec other = LaunchValidation.validate(TestFiles.exploreKernel("flag-check-deadlock")).start().spec();
        vm.setLaunch(file(other, SourceMap.EMPTY, false));
        assertFalse(vm.boundedPartialOrderProperty().get(), "kept with the fields for the next launch");
        vm.start();
        assertFalse(runner.boundedPartialOrder);
    }

    @Test
    void theCoverageLineQualifiesAReducedBoundAsTheConsoleDoes() {
        Coverage bounded = new Coverage(40, 40, 0, 2, 13, 0, 2, Coverage.SCHEDULE_BUDGET, 1000, 0, false, 7, true);
        assertTrue(ExploreViewModel.coverageText(bounded, 10).contains("deviation bound 2 complete up to equivalence · "),
                ExploreViewModel.coverageText(bounded, 10));
        Coverage sourceSets = new Coverage(40, 40, 0, 2, 13, 0, 2, Coverage.SCHEDULE_BUDGET, 1000, 3, false, 7);
        assertTrue(ExploreViewModel.coverageText(sourceSets, 10)
                .contains("deviation bound 2 complete up to symmetric warps and in the partial-order-reduced search · "),
                ExploreViewModel.coverageText(sourceSets, 10));
        Coverage unreduced = new Coverage(40, 40, 0, 2, 13, 0, 2, Coverage.SCHEDULE_BUDGET, 1000);
        assertTrue(ExploreViewModel.coverageText(unreduced, 10).contains("deviation bound 2 complete · "), ExploreViewModel.coverageText(unreduced, 10));
    }

    @Test
    void onlyTheReductionSoundWithinTheBoundLetsAFindingFreeSearchProveEveryInterleavingWithinIt() {
        LaunchSpec fixed = LaunchValidation.validate(TestFiles.sample("syncthreads-divergent-fixed")).start().spec();
        ExploreViewModel real = real(ExploreRunner.inline(), fixed, "20");
        real.maxDeviationsProperty().set("1");
        real.boundedPartialOrderProperty().set(false);
        real.start();
        assertEquals(ExploreViewModel.State.DONE, real.stateProperty().get());
        assertTrue(real.statusProperty().get().contains("no findings; covered: bound 1 of the partial-order-reduced search"),
                real.statusProperty().get());

        real.boundedPartialOrderProperty().set(true);
        // 10 schedules leave the exhaustion pass 2 (its share), too few to exhaust this kernel (it takes 3; 11 give it 3): the bounded
        // claim, as explore --schedules 10 --max-deviations 1 (5 systematic, 5 random).
        real.schedulesProperty().set("10");
        real.start();
        assertEquals(ExploreViewModel.State.DONE, real.stateProperty().get());
        assertTrue(real.statusProperty().get().contains("no findings; covered: every interleaving with at most 1 deviation, up to equivalence"),
                real.statusProperty().get());
        assertTrue(real.coverageProperty().get().startsWith("10 schedules (5 systematic, 5 random)"), real.coverageProperty().get());
        assertTrue(real.coverageProperty().get().contains("deviation bound 1 complete up to symmetric warps and up to equivalence"),
                real.coverageProperty().get());
        assertTrue(real.coverageProperty().get().contains("stopped: schedule budget reached"), real.coverageProperty().get());
    }

    @Test
    void theExhaustionPassProvesAllInterleavingsOfASmallFindingFreeKernelAsTheConsoleDoes() {
        LaunchSpec fixed = LaunchValidation.validate(TestFiles.sample("syncthreads-divergent-fixed")).start().spec();
        ExploreViewModel real = real(ExploreRunner.inline(), fixed, "20");
        real.maxDeviationsProperty().set("1");
        real.start();
        assertEquals(ExploreViewModel.State.DONE, real.stateProperty().get());
        // As explore --schedules 20 --max-deviations 1: 5 schedules, no random ones (nothing is left to find).
        assertTrue(real.statusProperty().get().startsWith("Explored 5 schedules: no findings; covered: all schedules"),
                real.statusProperty().get());
        assertTrue(real.statusProperty().get().contains("all interleavings, up to equivalence"), real.statusProperty().get());
        assertTrue(real.coverageProperty().get().startsWith("5 schedules (5 systematic, 0 random)"), real.coverageProperty().get());
        assertTrue(real.coverageProperty().get().contains("stopped: all interleavings explored, up to equivalence"),
                real.coverageProperty().get());

        // The source sets alone (unticked) stop at the bound: the pass belongs to the default reduction, as on the command line.
        real.boundedPartialOrderProperty().set(false);
        real.start();
        assertTrue(real.statusProperty().get().contains("no findings; covered: bound 1 of the partial-order-reduced search"),
                real.statusProperty().get());
    }

    @Test
    void idleUntilALaunchIsOpenAndATraceCannotBeExplored() {
        assertEquals(ExploreViewModel.State.IDLE, vm.stateProperty().get());
        assertFalse(vm.canStartProperty().get());
        vm.start();
        assertEquals(0, runner.starts);
        vm.setLaunch(file(null, SourceMap.EMPTY, true));
        assertFalse(vm.availableProperty().get());
        assertTrue(vm.statusProperty().get().contains("trace"), vm.statusProperty().get());
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        assertTrue(vm.canStartProperty().get());
    }

    @Test
    void theFieldsStartWithTheCommandLinesDefaultsAndAreChecked() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.start();
        assertEquals(new Explorer.Options(1000, 60_000, 0, 3, SPEC.maxSteps()), runner.options);
        runner.listener.done(new Explorer.Result(coverage(10, Coverage.EXHAUSTED), List.of()), 5);

        vm.maxDeviationsProperty().set("9");
        vm.start();
        assertEquals(1, runner.starts, "not started with a bad bound");
        assertEquals("The deviation bound must be in 0..8", vm.statusProperty().get());
        vm.maxDeviationsProperty().set("2");
        vm.schedulesProperty().set("many");
        vm.start();
        assertTrue(vm.statusProperty().get().startsWith("The schedule budget must be a whole number"));
        vm.schedulesProperty().set("50");
        vm.timeLimitProperty().set("1.5");
        vm.seedProperty().set("7");
        vm.start();
        assertEquals(new Explorer.Options(50, 1500, 7, 2, SPEC.maxSteps()), runner.options);
    }

    @Test
    void runningReportsProgressThenDoneListsTheFindings() {
        CudaLoc loc = new CudaLoc("/src/kernel.cu", 33, 9);
        vm.setLaunch(file(SPEC, new SourceMap(Map.of(89, loc), Map.of()), false));
        vm.schedulesProperty().set("200");
        vm.timeLimitProperty().set("10");
        vm.start();
        assertEquals(ExploreViewModel.State.RUNNING, vm.stateProperty().get());
        assertFalse(vm.canStartProperty().get());
        assertTrue(vm.runningProperty().get());

        runner.listener.progress(50, 1, 1000);
        assertEquals(0.25, vm.progressProperty().get(), 1e-9, "50 of 200 schedules is further than 1 s of 10");
        assertEquals("Explored 50 of 200 schedules · 1.0 s of 10.0 s · 1 finding", vm.statusProperty().get());
        runner.listener.progress(60, 1, 5000);
        assertEquals(0.5, vm.progressProperty().get(), 1e-9, "5 s of 10 is further than 60 of 200 schedules");

        runner.listener.done(new Explorer.Result(coverage(200, Coverage.SCHEDULE_BUDGET), List.of(diagnostic())), 6000);
        assertEquals(ExploreViewModel.State.DONE, vm.stateProperty().get());
        assertEquals(1.0, vm.progressProperty().get());
        assertEquals("Explore (1)", vm.titleProperty().get());
        assertTrue(vm.coverageProperty().get().startsWith("200 schedules (100 systematic, 100 random) · 2 distinct outcomes"
                + " · 13 decision points"), vm.coverageProperty().get());
        assertTrue(vm.coverageProperty().get().contains("stopped: schedule budget reached"));
        ExploreViewModel.Row r = vm.findings().get(0);
        assertEquals("dsmem-after-exit", r.code());
        assertEquals("PTX line 89 (kernel.cu:33)", r.location());
        assertEquals(95, r.step(), "the step it fired in, as the command line and the Diagnostics panel number it");
        assertEquals(96, r.landing(), "a diagnostic lands after the step it fired in");
        assertEquals("s1:0w1", r.schedule());
        assertEquals("diagnosed", r.outcome());
        assertEquals("[dsmem-after-exit] PTX line 89 (kernel.cu:33) · step 95", r.title());
        assertEquals("./barrierscope run " + LAUNCH + " --schedule s1:0w1", vm.copyText(r));
        assertTrue(vm.canStartProperty().get(), "can start again");
    }

    @Test
    void cancelAsksTheRunnerAndEndsCancelledWithWhatWasFound() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.start();
        vm.cancel();
        assertTrue(runner.cancelled);
        assertEquals("Cancelling ...", vm.statusProperty().get());
        runner.listener.progress(5, 0, 100);
        assertEquals("Cancelling ...", vm.statusProperty().get(), "progress does not hide the cancel");
        runner.listener.done(new Explorer.Result(coverage(6, Coverage.CANCELLED), List.of(diagnostic())), 200);
        assertEquals(ExploreViewModel.State.CANCELLED, vm.stateProperty().get());
        assertEquals(1, vm.findings().size());
        assertTrue(vm.statusProperty().get().startsWith("Cancelled after 6 schedules: 1 finding"), vm.statusProperty().get());
        assertTrue(vm.coverageProperty().get().contains("stopped: cancelled"));
    }

    @Test
    void aFailureIsShownAndAnotherLaunchCancelsAndIgnoresTheOldSearch() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.start();
        runner.listener.failed("bad.ptx: error: no entry\nmore");
        assertEquals(ExploreViewModel.State.FAILED, vm.stateProperty().get());
        assertEquals("Explore failed: bad.ptx: error: no entry", vm.statusProperty().get());

        vm.start();
        ExploreViewModel.Listener old = runner.listener;
        LaunchSpec other = LaunchValidation.validate(TestFiles.exploreKernel("flag-check-deadlock")).start().spec();
        vm.setLaunch(file(other, SourceMap.EMPTY, false));
        assertTrue(runner.cancelled, "the old search is cancelled");
        assertEquals(ExploreViewModel.State.IDLE, vm.stateProperty().get());
        old.done(new Explorer.Result(coverage(6, Coverage.CANCELLED), List.of(diagnostic())), 200);
        assertEquals(ExploreViewModel.State.IDLE, vm.stateProperty().get(), "a stale result is ignored");
        assertTrue(vm.findings().isEmpty());
    }

    @Test
    void theSameLaunchAgainKeepsTheFindings() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.start();
        runner.listener.done(new Explorer.Result(coverage(6, Coverage.EXHAUSTED), List.of(diagnostic())), 200);
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false)); // a re-run, or a finding opened in the debugger
        assertEquals(1, vm.findings().size());
        assertEquals(ExploreViewModel.State.DONE, vm.stateProperty().get());
    }

    @Test
    void theRealExplorerFindsThePeerExitRaceAndOpensItsSchedule() {
        ExploreViewModel real = real(ExploreRunner.inline(), SPEC, "100");
        real.start();
        assertEquals(ExploreViewModel.State.DONE, real.stateProperty().get());
        ExploreViewModel.Row r = real.findings().stream().filter(f -> f.code().equals("dsmem-after-exit")).findFirst().orElseThrow();
        assertEquals("diagnosed", r.outcome());
        assertNull(opened);
        real.openInDebugger(r);
        assertEquals(SPEC, opened.launch());
        assertEquals(r.landing(), opened.step());
        assertFalse(opened.toEnd(), "a diagnostic's run ends in its own step");
        assertInstanceOf(SchedulePolicy.class, opened.policy());
        // The schedule opened is the minimal one (s1:0w1, a free first choice), not the found one (s1:6w0, a preemption).
        assertTrue(opened.note().contains(r.replaySchedule()), opened.note());
    }

    private static Finding minimised() {
        Minimization mn = new Minimization(Schedule.parse("s1:0w1"), 3, 1, 2, 0,
                List.of(new Minimization.Decision(1, 40, 'w', "warp 1 ran its try_wait before warp 0's st.shared (step 40)")), true, 17, -1);
        return new Finding(Finding.DIAGNOSTIC, "dsmem-after-exit", "dsmem-after-exit@[89]", "a CTA that has exited", 95,
                Schedule.parse("s1:0w1,6w0,2w1"), 2, List.of(89), "diagnosed", mn);
    }

    @Test
    void aMinimisedFindingShowsItsMinimalScheduleAndDecisiveDecisionAndOpensTheMinimalSchedule() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.start();
        runner.listener.done(new Explorer.Result(coverage(6, Coverage.EXHAUSTED), List.of(minimised())),
                Map.of("dsmem-after-exit@[89]", 41L), 200);
        ExploreViewModel.Row r = vm.findings().get(0);
        assertEquals("s1:0w1", r.replaySchedule());
        assertEquals("Minimal schedule: 1 decision off the default (found: 3), 0 preemptions (found: 2)", r.minimalText());
        assertEquals(List.of("Decisive: warp 1 ran its try_wait before warp 0's st.shared (step 40)"), r.decisiveText());
        assertEquals(42, r.replayLanding(), "after the step the minimal schedule fails in, not the found one's 95");
        assertEquals("./barrierscope run " + LAUNCH + " --schedule s1:0w1", vm.copyText(r));
        vm.openInDebugger(r);
        assertEquals(42, opened.step());
        assertTrue(opened.note().contains("minimal schedule") && opened.note().contains("(s1:0w1)"), opened.note());
    }

    @Test
    void aFindingWithoutMinimisationSaysSoAndReplaysAsFound() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.start();
        runner.listener.done(new Explorer.Result(coverage(6, Coverage.CANCELLED), List.of(diagnostic())), 200);
        ExploreViewModel.Row r = vm.findings().get(0);
        assertNull(r.minimal());
        assertTrue(r.minimalText().startsWith("Not minimised"), r.minimalText());
        assertEquals(r.schedule(), r.replaySchedule());
        assertEquals(r.landing(), r.replayLanding());
    }

    @Test
    void onceTheBudgetIsSpentWithFindingsTheStatusSaysItIsMinimising() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.schedulesProperty().set("200");
        vm.start();
        runner.listener.progress(199, 1, 1000);
        assertTrue(vm.statusProperty().get().startsWith("Explored 199 of 200"), vm.statusProperty().get());
        runner.listener.progress(200, 1, 1100);
        assertEquals("Explored 200 schedules · 1 finding · minimising its schedule (at most 10.0 s; Cancel keeps the schedules as found) ...",
                vm.statusProperty().get());
        runner.listener.progress(200, 0, 1100);
        assertTrue(vm.statusProperty().get().startsWith("Explored 200 of 200"), "nothing to minimise");
    }

    @Test
    void whileMinimisingTheStatusCountsReplaysAgainstTheBudget() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.schedulesProperty().set("200");
        vm.start();
        runner.listener.progress(120, 2, 1000); // the search exhausted its bounds before the budget
        runner.listener.minimizing(1, 2, 14, 2000);
        assertEquals("Explored 120 schedules · 2 findings · minimising their schedules (at most 10.0 s; Cancel keeps the schedules as"
                + " found) · finding 2 of 2, replay 14 of at most 2000 ...", vm.statusProperty().get());
        runner.listener.progress(120, 2, 1300); // the runner's repeat keeps the replay count
        assertTrue(vm.statusProperty().get().endsWith("finding 2 of 2, replay 14 of at most 2000 ..."), vm.statusProperty().get());
    }

    @Test
    void onceTheTimeLimitHasPassedWithFindingsTheStatusSaysItIsMinimising() {
        vm.setLaunch(file(SPEC, SourceMap.EMPTY, false));
        vm.timeLimitProperty().set("10");
        vm.start();
        runner.listener.progress(40, 2, 9_900);
        assertTrue(vm.statusProperty().get().startsWith("Explored 40 of 1000"), vm.statusProperty().get());
        runner.listener.progress(40, 2, 10_300); // the runner's repeat of the last counts, with the time now
        assertTrue(vm.statusProperty().get().startsWith("Explored 40 schedules · 2 findings · minimising their schedules"),
                vm.statusProperty().get());
    }

    @Test
    void theRealExplorerMinimisesAndOpeningLandsWhereTheMinimalScheduleFails() {
        ExploreViewModel real = real(ExploreRunner.inline(), SPEC, "100");
        real.start();
        ExploreViewModel.Row r = real.findings().stream().filter(f -> f.code().equals("dsmem-after-exit")).findFirst().orElseThrow();
        assertNotNull(r.minimal(), "findings are minimised by default");
        assertTrue(r.minimal().size() <= r.minimal().foundSize());
        assertFalse(r.decisiveText().isEmpty());
        // The card says what the console and report say: the peer exited before the access landed. The minimal
        // schedule is a free first choice (no preemption): CTA 1's warp first, so CTA 0, arriving last, runs on to exit.
        assertTrue(r.decisiveText().get(0).matches("Decisive: cluster rank 0 \\(CTA 0\\) exited at step \\d+, before CTA 1 warp 0's "
                + "`ld\\.u32 [^`]+` \\(line 89\\) reached rank 0's shared memory at step " + r.minimal().step()
                + ": CTA 1 warp 0 ran first instead of CTA 0 warp 0 \\(step 0\\)"), r.decisiveText().toString());
        // Replaying the minimal schedule on its own reaches the same diagnostic at the step the row says.
        LaunchedRun run = LaunchValidation.validate(SPEC).start(new SchedulePolicy(Schedule.parse(r.replaySchedule())));
        run.runToEnd(SPEC.maxSteps());
        assertTrue(run.interpreter().diagnostics().stream()
                .anyMatch(d -> d.code().code().equals("dsmem-after-exit") && d.step() == r.minimal().step()));
        real.openInDebugger(r);
        assertEquals(r.minimal().step() + 1, opened.step());
    }

    /**
     * The window's search runs on all cores, as explore's --jobs default, with the result of one
     * job: the same findings in the same order with the same schedules, and the same coverage.
     */
    @Test
    void theWindowsSearchRunsOnEveryCoreWithTheResultOfOneJob() {
        assertEquals(Runtime.getRuntime().availableProcessors(), ExploreRunner.inline().jobs());
        assertEquals(Runtime.getRuntime().availableProcessors(), new ExploreRunner(Runnable::run).jobs());
        LaunchSpec spec = LaunchValidation.validate(TestFiles.exploreKernel("flag-check-deadlock")).start().spec();
        ExploreViewModel.Search search = new ExploreViewModel.Search(new Explorer.Options(300, 0, 0, 2, spec.maxSteps(), true, 0), true);
        Explorer.Result one = result(ExploreRunner.inline(1), spec, search);
        Explorer.Result two = result(ExploreRunner.inline(2), spec, search);
        assertFalse(one.findings().isEmpty(), one.toString());
        assertEquals(one.coverage(), two.coverage());
        assertEquals(one.findings(), two.findings());

        // Through the view model: the same rows.
        List<List<ExploreViewModel.Row>> rows = new java.util.ArrayList<>();
        for (int jobs = 1; jobs <= 2; jobs++) {
            ExploreViewModel real = real(ExploreRunner.inline(jobs), spec, "300");
            real.maxDeviationsProperty().set("2");
            real.start();
            assertEquals(ExploreViewModel.State.DONE, real.stateProperty().get());
            rows.add(List.copyOf(real.findings()));
        }
        assertFalse(rows.get(0).isEmpty());
        assertEquals(rows.get(0), rows.get(1));
    }

    /** A view model on the real explorer ({@code runner}) over {@code spec}, with a budget of {@code schedules}. */
    private ExploreViewModel real(ExploreRunner runner, LaunchSpec spec, String schedules) {
        ExploreViewModel real = new ExploreViewModel(runner, (l, p, s, n, e) -> opened = new Opened(l, p, s, n, e));
        real.setLaunch(file(spec, SourceMap.EMPTY, false));
        real.schedulesProperty().set(schedules);
        return real;
    }

    private static Explorer.Result result(ExploreRunner runner, LaunchSpec spec, ExploreViewModel.Search search) {
        Explorer.Result[] out = new Explorer.Result[1];
        runner.start(spec, search, new ExploreViewModel.Listener() {
            @Override public void progress(long schedules, int findings, long elapsedMillis) {}

            @Override public void done(Explorer.Result r, Map<String, Long> minimalSteps, long elapsedMillis) { out[0] = r; }

            @Override public void failed(String message) { throw new AssertionError(message); }
        });
        assertNotNull(out[0]);
        return out[0];
    }
}
