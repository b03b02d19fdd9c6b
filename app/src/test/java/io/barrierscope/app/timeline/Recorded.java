package io.barrierscope.app.timeline;

import io.barrierscope.launch.LaunchValidation;

import io.barrierscope.app.TestFiles;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.TimeTravel;
import io.barrierscope.trace.WarpState;
import java.util.ArrayList;
import java.util.List;

/**
 * A bundled sample run to its end under time travel, and brute-force answers computed from its
 * events one step at a time, independently of the model's spans and pyramids.
 */
final class Recorded {
    final TimeTravel tt;
    final TimelineModel model;
    /** Per warp, per step: the warp's state during that step. */
    final WarpState[][] states;
    /** Per step: virtual time at its start. */
    final long[] cycles;
    /** Markers: kind, lane, step. */
    final List<long[]> markers = new ArrayList<>();
    /** Steps of the completion events, in order. */
    final List<Long> completionSteps = new ArrayList<>();
    final long steps;

    Recorded(String sample) {
        tt = new TimeTravel(LaunchValidation.validate(TestFiles.sample(sample)).start());
        tt.runForward(() -> false);
        model = TimelineModel.of(tt);
        model.update();
        var m = tt.interpreter().machine();
        steps = model.knownSteps();
        states = new WarpState[m.warps][(int) steps];
        cycles = new long[(int) steps];
        byte[] status = new byte[m.slots];
        for (int s = 0; s < m.slots; s++) status[s] = (m.existMask[s >> 5] & (1 << (s & 31))) != 0 ? (byte) 0 : (byte) 5;
        EventCursor c = tt.recording().cursor(0);
        boolean have = c.next();
        for (long s = 0; s < steps; s++) {
            // the state during step s: after every event labelled below s
            while (have && c.step < s) {
                apply(c, status, m.warps);
                have = c.next();
            }
            for (int w = 0; w < m.warps; w++) states[w][(int) s] = WarpState.of(status, w << 5, m.existMask[w]);
        }
        EventCursor d = tt.recording().cursor(0);
        while (d.next()) {
            if (d.type == EventCursor.Type.WARP_STEP) cycles[(int) d.step] = d.cycles - 1;
            if (d.type == EventCursor.Type.SYNC) {
                MarkerKind k = switch (d.kind) {
                    case BAR_ARRIVE -> MarkerKind.BAR_ARRIVE;
                    case MBAR_ARRIVE -> MarkerKind.MBAR_ARRIVE;
                    case CLUSTER_ARRIVE -> MarkerKind.CLUSTER_ARRIVE;
                    case MBAR_EXPECT_TX -> MarkerKind.EXPECT_TX;
                    case MBAR_COMPLETE_TX -> MarkerKind.COMPLETE_TX;
                    case MBAR_WAIT_FALSE -> MarkerKind.WAIT_FALSE;
                    default -> null;
                };
                if (k != null && d.slot >= 0) markers.add(new long[] {k.ordinal(), model.laneOfWarp(d.slot >> 5), d.step});
                if (d.kind == SyncEvent.BAR_COMPLETE || d.kind == SyncEvent.MBAR_PHASE_COMPLETE || d.kind == SyncEvent.CLUSTER_COMPLETE) {
                    completionSteps.add(d.step);
                }
            }
            if (d.type == EventCursor.Type.DIAGNOSTIC) {
                var threads = d.diagnostic().threads();
                int lane = threads.isEmpty() ? 0 : model.laneOfWarp(threads.get(0) >> 5);
                markers.add(new long[] {MarkerKind.DIAGNOSTIC.ordinal(), lane, d.step});
            }
        }
    }

    private static void apply(EventCursor c, byte[] status, int warps) {
        if (c.type != EventCursor.Type.STATUS) return;
        int base = (c.slot >> 5) << 5;
        for (int l = 0; l < 32; l++) if ((c.lanes & (1 << l)) != 0) status[base + l] = c.to;
    }
}
