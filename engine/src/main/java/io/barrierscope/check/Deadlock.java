package io.barrierscope.check;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.diag.CudaLoc;
import io.barrierscope.diag.SourcePos;
import io.barrierscope.exec.Dim3;
import java.util.List;

/**
 * The wait-for explanation of a deadlock (semantics.md section 9): for every blocked group of
 * threads, what it waits on and what that needs, plus any cycle among the warps. Each part is
 * given in words (for people) and as facts (for the JSON report and scripts).
 */
public record Deadlock(List<Wait> waits, List<String> cycle) {

    /**
     * A blocked group: who, waiting on what, needing what, where. {@code on}, {@code needs} and
     * {@code location} are the words; {@code group}, {@code onFacts}, {@code needsFacts} and
     * {@code place} the same as facts (null when built from words alone).
     */
    public record Wait(String threads, String on, String needs, List<Missing> missing, String location,
                       int ptxLine, String cudaLocation, Group group, BarrierRef onFacts, Needs needsFacts, Place place) {
        /** A wait in words only (views and tests that draw one). */
        public Wait(String threads, String on, String needs, List<Missing> missing, String location, int ptxLine,
                    String cudaLocation) {
            this(threads, on, needs, missing, location, ptxLine, cudaLocation, null, null, null, null);
        }
    }

    /**
     * A thread group that has not arrived, and where it is now: {@code status} is a keyword for
     * what it is doing ("exited", "cta-barrier", "mbarrier", ...); {@code group} and {@code place}
     * are null for the "(none)" line and {@code place} also for exited threads.
     */
    public record Missing(String threads, String state, String location, String status, Group group, Place place) {
        public Missing(String threads, String state, String location) {
            this(threads, state, location, null, null, null);
        }
    }

    /** Threads of one warp: its CTA, its index in the CTA and a mask of its lanes. */
    public record Group(Dim3 cta, int warp, int lanes) {}

    /** Where an instruction is: PTX file, line and column, the CUDA line when the PTX says it, and its text. */
    public record Place(SourcePos ptx, CudaLoc cuda, String instruction) {}

    /**
     * What a blocked group needs, counted: {@code expected} units of {@code unit} ("lanes" of its
     * warp, "warps" of the CTA, "threads" of the cluster, mbarrier "arrivals") of which
     * {@code arrived} are there; for a CTA barrier with a count, the count in threads and the
     * warps the CTA has; for an mbarrier, the phase awaited, the parity waited with (parity
     * waits only) and the tx-count with the bytes expected and completed in the phase. Fields
     * that do not apply are null; all of them are null for a group blocked in no barrier.
     */
    public record Needs(String unit, Integer expected, Integer arrived, Long threadCount, Integer ctaWarps,
                        Long phase, Integer parity, Long txCount, Long txExpected, Long txCompleted) {
        static Needs count(String unit, int expected, int arrived) {
            return new Needs(unit, expected, arrived, null, null, null, null, null, null, null);
        }

        static Needs none() { return new Needs(null, null, null, null, null, null, null, null, null, null); }

        /** Units still missing, or null without a count. */
        public Integer remaining() {
            return expected == null || arrived == null ? null : Math.max(0, expected - arrived);
        }
    }

    /** A readable multi-line explanation. */
    public String text() {
        StringBuilder sb = new StringBuilder("Deadlock: no thread can make progress.\n");
        for (Wait w : waits) {
            sb.append("- ").append(w.threads()).append(" wait").append(" on ").append(w.on()).append(" at ")
                    .append(w.location()).append(".\n    It needs ").append(w.needs()).append('\n');
            for (Missing m : w.missing()) {
                sb.append("      ").append(m.threads()).append(": ").append(m.state());
                if (m.location() != null) sb.append(" at ").append(m.location());
                sb.append('\n');
            }
        }
        if (!cycle.isEmpty()) sb.append("Cycle: ").append(String.join(" -> ", cycle)).append('\n');
        return sb.toString();
    }
}
