package io.barrierscope.app.compare;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.launch.LaunchedRun;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Comparing a bug sample with its fix, without a toolkit: inline executors. */
class CompareViewModelTest {
    private final CompareViewModel vm = new CompareViewModel(Runnable::run, Runnable::run);

    private static CompareViewModel.Side side(String label, Path p) { return new CompareViewModel.Side(label, () -> LaunchValidation.validate(p).start()); }

    @Test
    void aBugSampleHasAFixedTwinAndTheFixHasNone() {
        Path bug = TestFiles.sample("cluster-barrier-one-partition");
        Optional<Path> twin = FixedTwin.of(bug);
        assertEquals(Optional.of(TestFiles.sample("cluster-barrier-one-partition-fixed").toAbsolutePath().normalize()), twin);
        assertFalse(FixedTwin.of(twin.get()).isPresent());
        assertFalse(FixedTwin.of(TestFiles.sample("block-reduce")).isPresent());
    }

    @Test
    void comparingASampleWithItsFixShowsWhereTheyPartAndAlignsTheCursors() {
        Path bug = TestFiles.sample("cluster-barrier-one-partition");
        vm.load(side("bug", bug), side("fix", FixedTwin.of(bug).orElseThrow()));
        assertNotNull(vm.timelineAProperty().get());
        assertNotNull(vm.timelineBProperty().get());
        assertNotNull(vm.result());
        assertFalse(vm.result().same());
        assertTrue(vm.divergenceProperty().get() >= 0, vm.statusProperty().get());
        assertTrue(vm.differences().get(0).startsWith("First divergence at step " + vm.divergenceProperty().get() + ": "),
                vm.differences().get(0));
        assertTrue(vm.statusProperty().get().startsWith("The runs part at step"), vm.statusProperty().get());
        assertEquals(vm.divergenceProperty().get(), vm.cursorAProperty().get(), "the cursor starts on the divergence");
        assertEquals(vm.divergenceProperty().get(), vm.timelineAProperty().get().positionProperty().get());
        assertEquals(vm.divergenceProperty().get(), vm.timelineBProperty().get().positionProperty().get());
        assertEquals("Compare: bug ↔ fix", vm.titleProperty().get());
        var mark = vm.timelineAProperty().get().selectedProperty().get();
        assertNotNull(mark, "the divergence is marked in the timeline");
        assertEquals(vm.divergenceProperty().get(), mark.step());
        assertEquals(vm.timelineAProperty().get().model().laneOfWarp(vm.result().divergence().a().warp()), mark.lane());
        assertTrue(mark.description().startsWith("The runs part here: "));
        assertEquals(vm.divergenceProperty().get(), vm.timelineBProperty().get().selectedProperty().get().step());
    }

    @Test
    void seekingInEitherTimelineMovesTheOtherToTheMatchingStep() {
        Path bug = TestFiles.sample("cluster-barrier-one-partition");
        vm.load(side("bug", bug), side("fix", FixedTwin.of(bug).orElseThrow()));
        RunAlignment al = vm.alignment();
        long s = vm.timelineAProperty().get().model().knownSteps() / 2;
        vm.timelineAProperty().get().onSeekProperty().get().accept(s); // a click in A's timeline
        assertEquals(s, vm.cursorAProperty().get());
        assertEquals(al.toB(s), vm.cursorBProperty().get());
        assertEquals(al.toB(s), vm.timelineBProperty().get().positionProperty().get());
        vm.timelineBProperty().get().onSeekProperty().get().accept(3L);
        assertEquals(3, vm.cursorBProperty().get());
        assertEquals(al.toA(3), vm.cursorAProperty().get());
    }

    @Test
    void twoIdenticalRunsHaveNoDivergenceAndAlignOnEveryCompletion() {
        Path p = TestFiles.sample("block-reduce");
        vm.load(side("A", p), side("B", p));
        assertTrue(vm.result().same());
        assertEquals(-1, vm.divergenceProperty().get());
        assertEquals("No divergence: both runs took the same warp steps.", vm.differences().get(0));
        RunAlignment al = vm.alignment();
        assertEquals(vm.timelineAProperty().get().model().syncPoints().size(), al.anchors());
        for (long s = 0; s < 50; s++) assertEquals(s, al.toB(s));
    }

    @Test
    void aLaunchThatCannotBeOpenedIsReported() {
        vm.load(new CompareViewModel.Side("A", () -> LaunchValidation.validate(Path.of("no/such/launch.json")).start()),
                side("B", TestFiles.sample("block-reduce")));
        assertTrue(vm.statusProperty().get().startsWith("Cannot compare: "), vm.statusProperty().get());
    }
}
