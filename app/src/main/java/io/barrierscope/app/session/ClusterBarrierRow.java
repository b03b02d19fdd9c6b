package io.barrierscope.app.session;

/**
 * The barrier.cluster barrier of one cluster that has been used (a phase is open or completed
 * before), copied out of the engine. {@code firstCta} is the cluster's rank-0 CTA, which names
 * it in the engine and the recording; {@code ctaName} spans its CTAs, e.g.
 * {@code "CTA (0,0,0)–(1,0,0)"}. {@code arrived} and {@code expected} count threads: those that
 * arrived in the current phase, and the cluster's live threads (exited threads no longer
 * count); {@code warpsArrived} of {@code warps} counts live warps all of whose live threads
 * arrived. {@code missing} names the live warps not (wholly) arrived while a phase is open, by
 * CTA, e.g. {@code "CTA (0,0,0) w0 · CTA (1,0,0) w0"} ("" when idle). {@code stuck}: the run
 * ended in deadlock with threads blocked at barrier.cluster in this cluster.
 */
public record ClusterBarrierRow(int firstCta, String ctaName, String clusterName, long phase, int arrived, int expected,
                                int warpsArrived, int warps, String missing, boolean stuck) implements PanelRow {

    /** Whether a phase is open (some thread arrived and the rest have not). */
    public boolean waiting() { return arrived > 0; }

    @Override public String kind() { return "cluster"; }
    @Override public String label() { return clusterName; }
    @Override public String phaseText() { return "phase " + phase; }

    @Override
    public double fraction() { return expected <= 0 ? 0 : Math.min(1.0, (double) arrived / expected); }

    /** E.g. {@code "64/128 threads · 2/4 warps"}, or {@code "idle (0/128 threads)"}. */
    @Override
    public String gaugeText() {
        return waiting() ? arrived + "/" + expected + " threads · " + warpsArrived + "/" + warps + " warps"
                : "idle (0/" + expected + " threads)";
    }

    @Override public String detail() { return missing.isEmpty() ? "" : "missing: " + missing; }
}
