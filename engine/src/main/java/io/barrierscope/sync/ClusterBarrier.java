package io.barrierscope.sync;

/**
 * The barrier of one cluster (PTX ISA 9.7.13.3): its phase, and how many of the cluster's live
 * threads have arrived in it. It completes when every non-exited thread has arrived.
 */
public final class ClusterBarrier {
    /** The CTA of rank 0, which names the cluster. */
    public final int firstCta;
    public long phase;
    /** Live threads that arrived in the current phase. */
    public int arrived;

    public ClusterBarrier(int firstCta) { this.firstCta = firstCta; }

    @Override
    public String toString() { return "cluster barrier phase " + phase + ", " + arrived + " threads arrived"; }
}
