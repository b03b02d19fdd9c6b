package io.barrierscope.app.compare;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.debugger.DebuggerViewModel;
import io.barrierscope.app.explore.ExploreViewModel;
import io.barrierscope.app.session.DebugSession;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where comparisons start: a bug sample with a fix, and an Explore finding against the default schedule. */
class CompareActionsTest {
    private final DebuggerViewModel vm = new DebuggerViewModel(l -> new DebugSession(Runnable::run, Runnable::run, l));
    private final List<CompareViewModel.Side[]> compared = new ArrayList<>();
    private final ExploreViewModel.Comparer comparer = (a, b) -> compared.add(new CompareViewModel.Side[] {a, b});

    @Test
    void aBugSampleOffersItsFixAndAFixedSampleDoesNot() {
        Path bug = TestFiles.sample("cluster-barrier-one-partition");
        vm.open(bug);
        assertEquals(FixedTwin.of(bug).orElseThrow(), vm.fixedTwinProperty().get());
        vm.compareWithFix(vm.openFile(), comparer);
        assertEquals(1, compared.size());
        assertEquals("cluster-barrier-one-partition", compared.get(0)[0].label());
        assertEquals("cluster-barrier-one-partition-fixed", compared.get(0)[1].label());
        assertEquals(LaunchValidation.validate(FixedTwin.of(bug).get()).start().spec(), compared.get(0)[1].open().get().spec());

        vm.open(TestFiles.sample("block-reduce"));
        assertNull(vm.fixedTwinProperty().get());
        vm.compareWithFix(vm.openFile(), comparer);
        assertEquals(1, compared.size(), "nothing to compare with");
    }

    @Test
    void anExploreFindingComparesItsScheduleWithTheDefault() {
        vm.open(TestFiles.exploreKernel("peer-exit-race"));
        ExploreViewModel ex = vm.explore();
        ex.setComparer(comparer);
        ex.schedulesProperty().set("100");
        ex.start();
        ExploreViewModel.Row r = ex.findings().get(0);
        ex.compareWithDefault(r);
        CompareViewModel.Side[] sides = compared.get(0);
        assertEquals("default schedule", sides[0].label());
        assertTrue(sides[1].label().contains(r.replaySchedule()), sides[1].label());
        LaunchedRun def = sides[0].open().get();
        LaunchedRun found = sides[1].open().get();
        assertInstanceOf(SchedulePolicy.class, found.interpreter().policy());
        assertEquals("completed", def.runToEnd().jsonName(), "the default schedule misses the bug");
        found.runToEnd();
        assertTrue(found.interpreter().diagnostics().stream().anyMatch(d -> d.code().code().equals(r.code())), "the finding's schedule fails");
    }
}
