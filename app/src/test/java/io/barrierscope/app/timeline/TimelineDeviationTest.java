package io.barrierscope.app.timeline;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.explore.Explorer;
import io.barrierscope.explore.Finding;
import io.barrierscope.explore.Minimization;
import io.barrierscope.explore.Schedule;
import io.barrierscope.explore.SchedulePolicy;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import org.junit.jupiter.api.Test;

/** The timeline marks the steps where a replayed schedule deviates from the default policy. */
class TimelineDeviationTest {
    private static final LaunchSpec SPEC = LaunchValidation.validate(TestFiles.exploreKernel("peer-exit-race")).start().spec();

    private static Minimization minimised() {
        Explorer ex = new Explorer(LaunchValidation.validate(SPEC).start(new SchedulePolicy()), () -> 0L);
        Explorer.Result r = ex.explore(new Explorer.Options(100, 0, 0, 3, SPEC.maxSteps(), true, 0));
        Finding f = r.findings().stream().filter(x -> x.code().equals("dsmem-after-exit")).findFirst().orElseThrow();
        assertNotNull(f.minimized());
        assertFalse(f.minimized().minimal().size() == 0, "the race needs a decision off the default");
        return f.minimized();
    }

    private static TimelineModel replay(Schedule s, boolean travelBack) {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(SPEC).start(new SchedulePolicy(s)));
        TimelineModel model = TimelineModel.of(tt);
        boolean back = !travelBack;
        while (!tt.atEnd()) {
            for (int i = 0; i < 7 && !tt.atEnd(); i++) tt.step();
            model.update();
            if (!back && tt.now() > 20) {
                tt.seek(tt.now() / 2); // re-executes decisions already told: shown once
                tt.seek(tt.frontier());
                back = true;
            }
        }
        model.update();
        return model;
    }

    @Test
    void theMinimalSchedulesDecisiveDecisionsAreMarkedAtTheirSteps() {
        Minimization mn = minimised();
        TimelineModel model = replay(mn.minimal(), true);
        long[] expected = mn.decisive().stream().mapToLong(Minimization.Decision::index).toArray();
        assertArrayEquals(expected, model.deviationIndices(), "one marker per decision off the default, replays told once");
        long[] steps = model.deviationSteps();
        for (int i = 0; i < steps.length; i++) {
            Minimization.Decision d = mn.decisive().get(i);
            if (d.kind() == SchedulePolicy.WARP) {
                // marked where the switch is made; the explanation names the chosen warp's next synchronizing step
                assertTrue(steps[i] <= d.step(), steps[i] + " vs " + d.step());
            } else {
                assertEquals(d.step(), steps[i]);
            }
        }
        assertTrue(model.hasDeviations());
        int markers = 0;
        for (int lane = 0; lane < model.lanes(); lane++) markers += model.lane(lane).markers(MarkerKind.DEVIATION);
        assertEquals(expected.length, markers);
    }

    @Test
    void hoveringADeviationDescribesTheDecision() {
        Minimization mn = minimised();
        TimelineModel model = replay(mn.minimal(), false);
        Minimization.Decision d = mn.decisive().get(0);
        long at = model.deviationSteps()[0];
        TimelineHit hit = null;
        for (int lane = 0; lane < model.lanes() && hit == null; lane++) {
            if (model.lane(lane).markers(MarkerKind.DEVIATION) > 0) hit = model.hit(lane, at, at, at);
        }
        assertNotNull(hit);
        assertTrue(hit.description().contains("decision " + d.index() + " off the default schedule"), hit.description());
    }

    @Test
    void theDefaultScheduleHasNoDeviationMarkers() {
        TimelineModel model = replay(Schedule.EMPTY, false);
        assertFalse(model.hasDeviations());
        assertEquals(0, model.deviationSteps().length);
    }

    @Test
    void columnsCountDeviationsLikeOtherMarkers() {
        Minimization mn = minimised();
        TimelineModel model = replay(mn.minimal(), false);
        TimelineColumns cols = new TimelineColumns(50);
        model.bounds(false, 0, model.knownSteps(), cols);
        int total = 0;
        for (int lane = 0; lane < model.lanes(); lane++) {
            model.row(lane, lane + 1, cols);
            for (int c = 0; c < cols.width; c++) total += cols.markers[MarkerKind.DEVIATION.ordinal()][c];
        }
        assertEquals(mn.decisive().size(), total, "level of detail: every deviation lands in one column");
    }

    @Test
    void theExportedSvgListsTheMarkerInItsLegendOnlyWhenThereAreDeviations() {
        TimelineViewModel replayed = new TimelineViewModel(replay(minimised().minimal(), false));
        replayed.fitAll();
        String svg = TimelineExport.svg(replayed, 900, 300);
        assertTrue(svg.contains(">off default<"), "legend");
        assertTrue(svg.contains("deviation"), "the markers, classed by kind");
        TimelineViewModel plain = new TimelineViewModel(replay(Schedule.EMPTY, false));
        plain.fitAll();
        assertFalse(TimelineExport.svg(plain, 900, 300).contains("off default"));
    }
}
