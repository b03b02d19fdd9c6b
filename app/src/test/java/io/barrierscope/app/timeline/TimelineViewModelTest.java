package io.barrierscope.app.timeline;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeline's view model without a toolkit (only javafx.beans). */
class TimelineViewModelTest {
    private static TimelineViewModel vm(String sample) {
        TimelineViewModel vm = new TimelineViewModel(new Recorded(sample).model);
        vm.viewportWidthProperty().set(1000);
        vm.fitAll();
        return vm;
    }

    @Test
    void highlightedLanesMarkTheRowsOfThoseWarpsAndRedraw() {
        TimelineViewModel vm = vm("block-reduce");
        long rev = vm.revisionProperty().get();
        List<TimelineViewModel.Row> rows = vm.rowsProperty().get();
        assertTrue(rows.stream().noneMatch(vm::highlighted));
        int warp = vm.model().warpOfLane(rows.get(1).laneFrom());
        vm.highlightedLanesProperty().set(java.util.Set.of(warp));
        assertTrue(vm.revisionProperty().get() > rev);
        List<TimelineViewModel.Row> lit = rows.stream().filter(vm::highlighted).toList();
        assertEquals(1, lit.size());
        assertTrue(lit.get(0).laneFrom() <= rows.get(1).laneFrom() && rows.get(1).laneFrom() < lit.get(0).laneTo());
        vm.highlightedLanesProperty().set(java.util.Set.of());
        assertTrue(rows.stream().noneMatch(vm::highlighted));
    }

    @Test
    void zoomKeepsTheAxisValueUnderThePointer() {
        TimelineViewModel vm = vm("bulk-copy-pipeline");
        double ext = vm.extent();
        assertEquals(0, vm.getStart());
        assertEquals(ext, vm.getEnd());
        for (double x : new double[] {300, 10, 990, 500}) {
            double before = vm.axisAt(x);
            long step = vm.stepAt(x);
            double span = vm.getEnd() - vm.getStart();
            vm.zoomAt(x, 2);
            assertEquals(before, vm.axisAt(x), 1e-6);
            assertEquals(step, vm.stepAt(x));
            assertEquals(span / 2, vm.getEnd() - vm.getStart(), 1e-6);
        }
        // zooming out never shows more than the run
        for (int i = 0; i < 20; i++) vm.zoomAt(700, 0.5);
        assertEquals(0, vm.getStart());
        assertEquals(ext, vm.getEnd());
        // nor narrower than the minimum span
        for (int i = 0; i < 40; i++) vm.zoomAt(400, 3);
        assertEquals(TimelineViewModel.MIN_SPAN, vm.getEnd() - vm.getStart(), 1e-9);
    }

    @Test
    void panClampsToTheRun() {
        TimelineViewModel vm = vm("block-reduce");
        double ext = vm.extent();
        vm.zoom(4);
        double span = vm.getEnd() - vm.getStart();
        vm.panBy(-10);
        assertEquals(0, vm.getStart());
        assertEquals(span, vm.getEnd() - vm.getStart(), 1e-9);
        vm.panBy(10);
        assertEquals(ext, vm.getEnd(), 1e-9);
        vm.panPixels(250); // dragging right by a quarter of the width shows earlier steps
        assertEquals(ext - span / 4, vm.getEnd(), 1e-9);
        vm.goToStart();
        assertEquals(0, vm.getStart(), 1e-9);
        vm.goToEnd();
        assertEquals(ext, vm.getEnd(), 1e-9);
        vm.goToStep((long) ext / 2);
        assertEquals((long) ext / 2, (vm.getStart() + vm.getEnd()) / 2, 1e-9);
        vm.fitAll();
        assertEquals(ext, vm.getEnd() - vm.getStart());
    }

    @Test
    void clickSelectsAndRequestsASeekToTheStepUnderThePointer() {
        TimelineViewModel vm = vm("block-reduce");
        List<Long> seeks = new ArrayList<>();
        vm.onSeekProperty().set(seeks::add);
        vm.zoomAt(0, vm.extent() / 100); // ~10 pixels per step
        // find a pixel with no event nearby: a click there seeks to the step under it
        int row = 0;
        double x = -1;
        for (double cand = 5; cand < 1000; cand += 10) {
            TimelineHit h = vm.hitAt(cand, row);
            if (h != null && !h.event()) {
                x = cand;
                break;
            }
        }
        assertTrue(x >= 0, "a pixel over a plain span");
        vm.click(x, row);
        assertEquals(List.of(vm.stepAt(x)), seeks);
        assertNotNull(vm.selectedProperty().get());
        // an event seeks to just after it, as engine breakpoints stop
        long done = vm.model().completionSteps()[0];
        vm.goToStep(done);
        TimelineCompletions cs = vm.model().completions();
        double cx = vm.xOfStep(done) + 1;
        vm.click(cx, vm.rowOfLane(cs.lo(0)));
        TimelineHit sel = vm.selectedProperty().get();
        assertTrue(sel.event(), sel.description());
        assertEquals(sel.step() + 1, seeks.get(1));
        // the scrubber spans the whole run
        vm.scrub(500);
        assertEquals((long) Math.floor(vm.extent() / 2), seeks.get(2));
        vm.hover(cx, vm.rowOfLane(cs.lo(0)));
        assertNotNull(vm.hoveredProperty().get());
        vm.hover(0, -1);
        assertEquals(null, vm.hoveredProperty().get());
    }

    @Test
    void collapsingACtaOrClusterMergesItsLanesIntoOneRow() {
        TimelineViewModel vm = vm("cluster-barrier-one-partition-fixed");
        TimelineModel m = vm.model();
        int lanes = m.lanes();
        assertEquals(lanes, vm.rowsProperty().get().size());
        vm.toggleCta(m.ctaOfLane(0));
        assertEquals(lanes - m.warpsPerCta() + 1, vm.rowsProperty().get().size());
        TimelineViewModel.Row first = vm.rowsProperty().get().get(0);
        assertTrue(first.group());
        assertEquals(m.warpsPerCta(), first.laneTo() - first.laneFrom());
        assertEquals(0, vm.rowOfLane(m.warpsPerCta() - 1));
        assertEquals(1, vm.rowOfLane(m.warpsPerCta()));
        vm.toggleCta(m.ctaOfLane(0));
        vm.toggleCluster(m.clusterOfLane(0));
        TimelineViewModel.Row cl = vm.rowsProperty().get().get(0);
        assertTrue(cl.label().startsWith("cluster 0"), cl.label());
        for (int l = cl.laneFrom(); l < cl.laneTo(); l++) assertEquals(m.clusterOfLane(0), m.clusterOfLane(l));
        assertFalse(vm.isCtaCollapsed(m.ctaOfLane(0)));
    }

    @Test
    void theAxisSwitchesToVirtualTimeKeepingTheStepsInView() {
        TimelineViewModel vm = vm("expect-tx-too-high");
        TimelineModel m = vm.model();
        assertTrue(m.knownCycles() > m.knownSteps() + 1000, "time jumps while every warp waits");
        vm.goToStep(m.knownSteps() / 2);
        vm.zoom(2);
        long s0 = vm.stepAt(0);
        vm.setAxis(TimelineViewModel.Axis.CYCLES);
        assertEquals(m.knownCycles(), (long) vm.extent());
        assertEquals(s0, vm.stepAt(0));
        vm.setAxis(TimelineViewModel.Axis.STEPS);
        assertEquals(s0, vm.stepAt(0));
    }

    @Test
    void aLiveRunIsFollowedWhileTheWholeRunIsShown() {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(TestFiles.sample("block-reduce")).start());
        TimelineModel model = TimelineModel.of(tt);
        TimelineViewModel vm = new TimelineViewModel(model);
        vm.viewportWidthProperty().set(800);
        for (int i = 0; i < 30; i++) tt.step();
        assertTrue(model.update());
        long rev = vm.revisionProperty().get();
        vm.refresh();
        assertTrue(vm.revisionProperty().get() > rev);
        assertEquals(30, vm.getEnd());
        vm.zoom(2);
        double end = vm.getEnd();
        for (int i = 0; i < 30; i++) tt.step();
        model.update();
        vm.refresh();
        assertEquals(end, vm.getEnd(), 1e-9); // zoomed in: the range stays put
        vm.fitAll();
        assertEquals(60, vm.getEnd());
    }
}
