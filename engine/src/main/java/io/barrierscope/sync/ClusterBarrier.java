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

    /** A copy, for a checkpoint. */
    public ClusterBarrier copy() {
        ClusterBarrier b = new ClusterBarrier(firstCta);
        b.copyFrom(this);
        return b;
    }

    /** Copies the state of {@code o} (the same cluster's barrier) into this one. */
    public void copyFrom(ClusterBarrier o) {
        if (o.firstCta != firstCta) throw new IllegalArgumentException("cluster barrier " + o.firstCta + " copied into " + firstCta);
        phase = o.phase;
        arrived = o.arrived;
    }

    @Override
    public String toString() { return "cluster barrier phase " + phase + ", " + arrived + " threads arrived"; }
}
