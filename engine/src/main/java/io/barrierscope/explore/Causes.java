package io.barrierscope.explore;

import io.barrierscope.check.Deadlock;
import io.barrierscope.check.DeadlockExplainer;
import io.barrierscope.diag.Diagnostic;
import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.diag.SourcePos;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The causes of failure of a finished run, as exploration files and deduplicates them: one per
 * diagnostic (its code and CUDA lines, or PTX lines without them), a deadlock's wait-for lines,
 * or the lines a step-limit run was spinning at. Shared by the search and the minimiser, which
 * keeps a schedule only while its run still ends in the same cause.
 */
final class Causes {
    private Causes() {}

    /** One cause, with where and when the run met it. */
    record Cause(String kind, String code, String cause, String message, long step, List<Integer> lines) {}

    /** Whether the run ended in a race (a data race, or an mbarrier init not fenced before its use). */
    static boolean raced(Interpreter x) {
        for (Diagnostic d : x.diagnostics()) {
            if (d.code() == DiagnosticCode.RACE || d.code() == DiagnosticCode.MBARRIER_INIT_NOT_FENCED) return true;
        }
        return false;
    }

    static List<Cause> of(Interpreter x, long maxSteps) {
        Machine m = x.machine();
        Outcome o = x.outcome();
        List<Cause> out = new ArrayList<>();
        for (Diagnostic d : x.diagnostics()) {
            List<Integer> lines = d.ptxLocations().stream().map(SourcePos::line).toList();
            out.add(new Cause(Finding.DIAGNOSTIC, d.code().code(), key(d), d.message(), d.step(), lines));
        }
        if (o == Outcome.DEADLOCK) {
            Deadlock dl = DeadlockExplainer.explain(x);
            TreeSet<Integer> lines = new TreeSet<>();
            for (Deadlock.Wait w : dl.waits()) lines.add(w.ptxLine());
            Deadlock.Wait w = dl.waits().isEmpty() ? null : dl.waits().get(0);
            String msg = w == null ? "no thread can make progress"
                    : w.threads() + " wait on " + w.on() + " at " + w.location() + "; it needs " + w.needs();
            out.add(new Cause(Finding.DEADLOCK, "deadlock", "deadlock@" + lines, msg, m.steps, List.copyOf(lines)));
        } else if (o == Outcome.STEP_LIMIT) {
            TreeSet<Integer> lines = new TreeSet<>();
            for (int s = 0; s < m.slots; s++) {
                if ((m.liveMask[s >> 5] & (1 << (s & 31))) != 0) lines.add(x.op(m.pc[s]).insn.pos().line());
            }
            out.add(new Cause(Finding.STEP_LIMIT, "step-limit", "step-limit@" + lines, "the step limit of " + maxSteps
                    + " warp steps was reached with live threads at PTX lines " + lines, m.steps, List.copyOf(lines)));
        }
        return out;
    }

    /** A diagnostic's cause: its code and lines. */
    static String key(Diagnostic d) {
        List<Integer> lines = d.ptxLocations().stream().map(SourcePos::line).toList();
        // The same source lines in either order are one cause; nvcc often duplicates a line's code
        // for different warps' paths, so CUDA lines (when every location has one) merge those copies.
        boolean cuda = !d.cudaLocations().isEmpty() && d.cudaLocations().size() == lines.size();
        return d.code().code() + "@" + (cuda
                ? new TreeSet<>(d.cudaLocations().stream().map(l -> l.file() + ":" + l.line()).toList())
                : new TreeSet<>(lines));
    }

    /** Whether the run just finished met {@code cause}. */
    static boolean met(Interpreter x, long maxSteps, String cause) {
        for (Cause c : of(x, maxSteps)) if (c.cause().equals(cause)) return true;
        return false;
    }
}
