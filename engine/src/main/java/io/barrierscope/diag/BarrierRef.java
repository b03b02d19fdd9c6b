package io.barrierscope.diag;

/**
 * A synchronization object as facts a script can match on (the report's deadlock "on" and
 * diagnostic "barrier"): its {@code kind}, the CTA it belongs to (for a cluster barrier the
 * cluster's rank-0 CTA), its identity (CTA barrier id; mbarrier variable and shared offset; warp
 * and membermask of a warp sync) and its state when reported (CTA barrier generation, mbarrier or
 * cluster barrier phase). Fields that do not apply, or are not known, are null.
 * {@code description} says the same in words. Built from a machine's state by sync.BarrierRefs;
 * plain data here so every layer may name it.
 */
public record BarrierRef(String kind, Cta cta, Long id, String variable, Integer offset, Integer warp,
                         Integer membermask, Long generation, Long phase, String description) {
    public static final String CTA_BARRIER = "cta-barrier";
    public static final String MBARRIER = "mbarrier";
    public static final String CLUSTER_BARRIER = "cluster-barrier";
    public static final String WARP_SYNC = "warp-sync";
    /** A thread blocked in some other way (e.g. waiting for its own asynchronous copies). */
    public static final String OTHER = "other";

    /** A CTA's coordinates in the grid (x fastest), as CUDA's blockIdx. */
    public record Cta(int x, int y, int z) {
        @Override
        public String toString() { return "(" + x + "," + y + "," + z + ")"; }
    }

    public static BarrierRef other(String description) {
        return new BarrierRef(OTHER, null, null, null, null, null, null, null, null, description);
    }

    /** The parity of the phase (mbarrier waits name phases by parity), or null without a phase. */
    public Integer parity() { return phase == null ? null : (int) (phase & 1); }
}
