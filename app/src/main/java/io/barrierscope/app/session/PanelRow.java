package io.barrierscope.app.session;

/**
 * One row of the barriers pane, whatever kind of barrier it shows: the texts and gauge the pane
 * needs, already worked out on the engine thread's copy.
 */
public sealed interface PanelRow permits BarrierRow, MbarrierRow, ClusterBarrierRow {
    /** "bar" for a CTA barrier, "mbarrier" for an mbarrier object, "cluster" for a cluster barrier. */
    String kind();

    /** The CTA it belongs to, e.g. "CTA (0,0,0)", or a cluster's CTAs, e.g. "CTA (0,0,0)–(1,0,0)". */
    String ctaName();

    /** Which barrier of the CTA, e.g. "bar 0" or "full+8 (shared 0x18)", or which cluster, e.g. "cluster (0,0,0)". */
    String label();

    /** Its phase or generation, e.g. "gen 2", "0 (parity 0)" or "phase 1". */
    String phaseText();

    /** Share of the expected arrivals that came, in 0..1, for a gauge. */
    double fraction();

    /** The text beside the gauge, e.g. "3/4 warps" or "1 of 129 pending". */
    String gaugeText();

    /** What else there is to know, e.g. the arrived and missing warps or the tx-count. */
    String detail();

    /** The run ended in deadlock with threads still waiting here. */
    boolean stuck();
}
