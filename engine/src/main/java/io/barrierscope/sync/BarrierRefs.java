package io.barrierscope.sync;

import io.barrierscope.diag.BarrierRef;
import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Machine;

/** Builds {@link BarrierRef}s from a machine's state: coordinates, identity and current generation or phase. */
public final class BarrierRefs {
    private BarrierRefs() {}

    /** Barrier {@code id} of a CTA (linear index), with its current generation when the id is one of the sixteen. */
    public static BarrierRef ctaBarrier(Machine m, int cta, long id, String description) {
        Long gen = id >= 0 && id < 16 ? m.ctaBarriers[cta].get((int) id).generation : null;
        return new BarrierRef(BarrierRef.CTA_BARRIER, coords(m, cta), id, null, null, null, null, gen, null, description);
    }

    /** A CTA barrier whose id is not known (a register operand), e.g. one a race advice names. */
    public static BarrierRef ctaBarrierOfUnknownId(Machine m, int cta, String description) {
        return new BarrierRef(BarrierRef.CTA_BARRIER, coords(m, cta), null, null, null, null, null, null, null, description);
    }

    /** The mbarrier at {@code offset} of a CTA's shared memory; its phase when it holds a valid object. */
    public static BarrierRef mbarrier(Machine m, int cta, int offset, String description) {
        // find, not at: describing must not create objects (the machine's state stays as it was).
        Mbarrier b = m.mbarriers.find(cta, offset);
        Long phase = b != null && b.valid ? b.phase : null;
        return new BarrierRef(BarrierRef.MBARRIER, coords(m, cta), null, MbarrierSync.variable(m, offset), offset, null, null,
                null, phase, description);
    }

    public static BarrierRef mbarrier(Machine m, Mbarrier b, String description) {
        return mbarrier(m, b.cta, b.offset, description);
    }

    /** The barrier of the cluster CTA {@code cta} (linear index) belongs to, with its phase. */
    public static BarrierRef clusterBarrier(Machine m, int cta, String description) {
        ClusterBarrier cb = m.clusterBarriers[cta];
        return new BarrierRef(BarrierRef.CLUSTER_BARRIER, coords(m, cb.firstCta), null, null, null, null, null, null, cb.phase,
                description);
    }

    /** A warp-level .sync instruction's meeting of the lanes of {@code membermask} in global warp {@code warp}. */
    public static BarrierRef warpSync(Machine m, int warp, int membermask, String description) {
        return new BarrierRef(BarrierRef.WARP_SYNC, coords(m, m.ctaOfWarp(warp)), null, null, null, m.warpInCta(warp), membermask,
                null, null, description);
    }

    /** The grid coordinates of CTA {@code cta} (linear index). */
    public static BarrierRef.Cta coords(Machine m, int cta) {
        Dim3 d = m.grid.unflatten(cta);
        return new BarrierRef.Cta(d.x(), d.y(), d.z());
    }
}
