package io.barrierscope.check;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;
import io.barrierscope.sync.ClusterBarrier;
import io.barrierscope.sync.Mbarrier;
import io.barrierscope.sync.MbarrierSync;

/**
 * A synchronization object as facts a script can match on (the report's deadlock "on" and
 * diagnostic "barrier"): its {@code kind}, the CTA it belongs to (for a cluster barrier the
 * cluster's rank-0 CTA), its identity (CTA barrier id; mbarrier variable and shared offset; warp
 * and membermask of a warp sync) and its state when reported (CTA barrier generation, mbarrier or
 * cluster barrier phase). Fields that do not apply, or are not known, are null.
 * {@code description} says the same in words.
 */
public record BarrierRef(String kind, Dim3 cta, Long id, String variable, Integer offset, Integer warp,
                         Integer membermask, Long generation, Long phase, String description) {
    public static final String CTA_BARRIER = "cta-barrier";
    public static final String MBARRIER = "mbarrier";
    public static final String CLUSTER_BARRIER = "cluster-barrier";
    public static final String WARP_SYNC = "warp-sync";
    /** A thread blocked in some other way (e.g. waiting for its own asynchronous copies). */
    public static final String OTHER = "other";

    /** Barrier {@code id} of a CTA (linear index), with its current generation when the id is one of the sixteen. */
    public static BarrierRef ctaBarrier(Machine m, int cta, long id, String description) {
        Long gen = id >= 0 && id < 16 ? m.ctaBarriers[cta].get((int) id).generation : null;
        return new BarrierRef(CTA_BARRIER, m.grid.unflatten(cta), id, null, null, null, null, gen, null, description);
    }

    /** A CTA barrier whose id is not known (a register operand), e.g. one a race advice names. */
    public static BarrierRef ctaBarrierOfUnknownId(Machine m, int cta, String description) {
        return new BarrierRef(CTA_BARRIER, m.grid.unflatten(cta), null, null, null, null, null, null, null, description);
    }

    /** The mbarrier at {@code offset} of a CTA's shared memory; its phase when it holds a valid object. */
    public static BarrierRef mbarrier(Machine m, int cta, int offset, String description) {
        // find, not at: describing must not create objects (the machine's state stays as it was).
        Mbarrier b = m.mbarriers.find(cta, offset);
        Long phase = b != null && b.valid ? b.phase : null;
        return new BarrierRef(MBARRIER, m.grid.unflatten(cta), null, MbarrierSync.variable(m, offset), offset, null, null,
                null, phase, description);
    }

    public static BarrierRef mbarrier(Machine m, Mbarrier b, String description) {
        return mbarrier(m, b.cta, b.offset, description);
    }

    /** The barrier of the cluster CTA {@code cta} (linear index) belongs to, with its phase. */
    public static BarrierRef clusterBarrier(Machine m, int cta, String description) {
        ClusterBarrier cb = m.clusterBarriers[cta];
        return new BarrierRef(CLUSTER_BARRIER, m.grid.unflatten(cb.firstCta), null, null, null, null, null, null, cb.phase,
                description);
    }

    /** A warp-level .sync instruction's meeting of the lanes of {@code membermask} in global warp {@code warp}. */
    public static BarrierRef warpSync(Machine m, int warp, int membermask, String description) {
        return new BarrierRef(WARP_SYNC, m.grid.unflatten(m.ctaOfWarp(warp)), null, null, null, m.warpInCta(warp), membermask,
                null, null, description);
    }

    public static BarrierRef other(String description) {
        return new BarrierRef(OTHER, null, null, null, null, null, null, null, null, description);
    }

    /** The parity of the phase (mbarrier waits name phases by parity), or null without a phase. */
    public Integer parity() { return phase == null ? null : (int) (phase & 1); }
}
