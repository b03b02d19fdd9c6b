package io.barrierscope.app.timeline;

import io.barrierscope.explore.SchedulePolicy;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Machine;
import io.barrierscope.trace.WarpState;

/** Finds and words what is under a point of the timeline (the model holds its lock while this runs). */
final class TimelineDescriber {
    /** Completions looked at on each side of the pointer (a hover never scans a dense range). */
    private static final int NEAR = 64;

    private final TimelineModel model;
    private final Machine m;

    TimelineDescriber(TimelineModel model, Machine m) {
        this.model = model;
        this.m = m;
    }

    TimelineHit hit(int lane, long from, long to, long at, long known) {
        if (lane < 0 || lane >= model.lanes() || at < 0 || at >= known) return null;
        from = Math.max(0, from);
        to = Math.min(known - 1, to);
        TimelineLane d = model.lane(lane);
        // the nearest marker; on ties the later kinds (diagnostics, failed waits) win
        MarkerKind bestKind = null;
        int bestIndex = -1;
        long bestDist = Long.MAX_VALUE;
        for (int k = MarkerKind.COUNT - 1; k >= 0; k--) {
            MarkerKind kind = MarkerKind.of(k);
            int n = d.markers(kind);
            int i = d.firstMarkerFrom(kind, at);
            for (int j = i - 1; j <= i; j++) {
                if (j < 0 || j >= n) continue;
                long s = d.markerStep(kind, j);
                if (s < from || s > to) continue;
                long dist = Math.abs(s - at);
                if (dist < bestDist) {
                    bestDist = dist;
                    bestKind = kind;
                    bestIndex = j;
                }
            }
        }
        TimelineCompletions cs = model.completions();
        int bestCompletion = -1;
        int mid = cs.firstFrom(at);
        for (int j = Math.max(0, mid - NEAR); j < Math.min(cs.size(), mid + NEAR); j++) {
            long s = cs.step(j);
            if (s < from || s > to || lane < cs.lo(j) || lane > cs.hi(j)) continue;
            long dist = Math.abs(s - at);
            if (dist < bestDist) {
                bestDist = dist;
                bestCompletion = j;
                bestKind = null;
            }
        }
        String where = model.laneLabel(lane);
        if (bestKind != null) {
            long s = d.markerStep(bestKind, bestIndex);
            return new TimelineHit(lane, s, s + 1, where + ", step " + s + ": " + marker(d, bestKind, bestIndex), true);
        }
        if (bestCompletion >= 0) {
            long s = cs.step(bestCompletion);
            return new TimelineHit(lane, s, s + 1, "step " + s + ": " + completion(cs, bestCompletion), true);
        }
        int span = d.spanAt(at);
        long start = d.spanStart(span);
        long end = span + 1 < d.spans() ? Math.min(known, d.spanStart(span + 1)) : known;
        String state = WarpState.of(d.spanState(span)).label();
        return new TimelineHit(lane, at, at, where + ", step " + at + ": " + state + " (steps " + start + "–" + (end - 1)
                + ", " + (end - start) + (end - start == 1 ? " step)" : " steps)"), false);
    }

    private String mbarrier(long object) {
        int cta = (int) (object >>> 32);
        String c = cta >= 0 && cta < m.ctas ? " of CTA " + m.grid.unflatten(cta) : "";
        return "mbarrier @0x" + Long.toHexString(object & 0xFFFFFFFFL) + c;
    }

    private String marker(TimelineLane d, MarkerKind k, int i) {
        long obj = d.markerObject(k, i);
        int a = d.markerA(k, i);
        int b = d.markerB(k, i);
        return switch (k) {
            case BAR_ARRIVE -> "arrived at CTA barrier " + (obj & 0xFFFFFFFFL) + " (generation " + a + ", "
                    + Integer.bitCount(b) + " lanes)";
            case MBAR_ARRIVE -> "arrive-on " + mbarrier(obj) + " (count " + a + ", " + b + " pending after)";
            case CLUSTER_ARRIVE -> "arrived at barrier.cluster (phase " + a + ")";
            case EXPECT_TX -> "expect-tx " + a + " bytes on " + mbarrier(obj) + " (tx-count " + b + " after)";
            case COMPLETE_TX -> "complete-tx " + a + " bytes on " + mbarrier(obj) + " (tx-count " + b + " after)";
            case WAIT_FALSE -> "wait on " + mbarrier(obj) + " returned false (" + (b == 1 ? "parity " : "phase ") + a + ")";
            case DEVIATION -> deviation(obj, (char) a, b);
            case DIAGNOSTIC -> {
                Diagnostic diag = model.diagnostic((int) obj);
                yield diag.code().code() + ": " + diag.message();
            }
        };
    }

    /** "decision 12 off the default schedule: ran CTA (0,0,0) w1 here". */
    private String deviation(long index, char kind, int value) {
        String what = switch (kind) {
            case SchedulePolicy.WARP -> value >= 0 && value < model.lanes()
                    ? "ran " + model.laneLabel(model.laneOfWarp(value)) + " here" : "ran warp " + value + " here";
            case SchedulePolicy.GROUP -> "ran the convergence group of lane " + value + " first";
            case SchedulePolicy.LATENCY -> "an async copy took " + value + " cycles";
            case SchedulePolicy.TRY_WAIT -> value == 1 ? "a try_wait returned false early" : "a try_wait suspended";
            default -> kind + String.valueOf(value);
        };
        return "decision " + index + " off the default schedule: " + what;
    }

    private String completion(TimelineCompletions cs, int i) {
        long obj = cs.object(i);
        String what = switch (cs.kind(i)) {
            case TimelineCompletions.BAR -> "CTA barrier " + (obj & 0xFFFFFFFFL) + " of CTA " + m.grid.unflatten((int) (obj >>> 32))
                    + " completed generation " + cs.phase(i);
            case TimelineCompletions.MBAR -> mbarrier(obj) + " completed phase " + cs.phase(i);
            default -> "barrier.cluster (" + model.ctaLabel((int) obj) + ") completed phase " + cs.phase(i);
        };
        int lo = cs.lo(i);
        int hi = cs.hi(i);
        return what + "; released " + (lo == hi ? model.laneLabel(lo) : model.laneLabel(lo) + " … " + model.laneLabel(hi));
    }
}
