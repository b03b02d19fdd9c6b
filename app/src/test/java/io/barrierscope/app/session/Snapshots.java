package io.barrierscope.app.session;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.exec.Outcome;
import java.util.List;
import java.util.Map;

/** Hand-made snapshots for view model tests that need no engine. */
public final class Snapshots {
    private Snapshots() {}

    public static Snapshot at(Outcome outcome, long steps, int line, Map<Integer, Integer> warpsAtLine,
                              List<BarrierRow> barriers, List<Diagnostic> diagnostics) {
        return at(outcome, steps, line, warpsAtLine, barriers, List.of(), diagnostics);
    }

    public static Snapshot at(Outcome outcome, long steps, int line, Map<Integer, Integer> warpsAtLine,
                              List<BarrierRow> barriers, List<MbarrierRow> mbarriers,
                              List<Diagnostic> diagnostics) {
        return at(outcome, steps, line, warpsAtLine, barriers, mbarriers, List.of(), diagnostics);
    }

    public static Snapshot at(Outcome outcome, long steps, int line, Map<Integer, Integer> warpsAtLine,
                              List<BarrierRow> barriers, List<MbarrierRow> mbarriers,
                              List<ClusterBarrierRow> clusterBarriers, List<Diagnostic> diagnostics) {
        return new Snapshot(outcome, steps, steps * 2, 1000, 0, "CTA (0,0,0) warp 0 · runnable", line,
                steps == 0 ? "" : "CTA (0,0,0) warp 0 executed line " + line + ": nop;",
                warpsAtLine, barriers, mbarriers, clusterBarriers, diagnostics, outcome == Outcome.RUNNING ? null : "report",
                steps == 0 ? Snapshot.Cause.OPENED : Snapshot.Cause.STEPPED);
    }
}
