package io.barrierscope.exec;

import io.barrierscope.ptx.SpecialRegister;

/**
 * Values of special registers (PTX ISA 10). Time reads virtual time: one cycle per warp step,
 * {@code %globaltimer} in nanoseconds at a nominal 1 GHz, never the host clock.
 */
public final class SpecialRegisters {
    private SpecialRegisters() {}

    /** Streaming multiprocessors reported by %nsmid (an H100 SXM has 132). */
    public static final int SM_COUNT = 132;

    public static Src src(SpecialRegister kind, int c) {
        return switch (kind) {
            case TID -> (m, t) -> m.block.unflatten(m.tidOfSlot(t)).get(c);
            case NTID -> (m, t) -> m.block.get(c);
            case CTAID -> (m, t) -> m.grid.unflatten(m.ctaOfSlot(t)).get(c);
            case NCTAID -> (m, t) -> m.grid.get(c);
            case LANEID -> (m, t) -> t & 31;
            case WARPID -> (m, t) -> m.warpInCta(t >> 5);
            case NWARPID -> (m, t) -> 64;
            case SMID -> (m, t) -> m.ctaOfSlot(t) % SM_COUNT;
            case NSMID -> (m, t) -> SM_COUNT;
            case GRIDID -> (m, t) -> 1;
            case LANEMASK_EQ -> (m, t) -> 1L << (t & 31);
            case LANEMASK_LE -> (m, t) -> (2L << (t & 31)) - 1 & 0xFFFFFFFFL;
            case LANEMASK_LT -> (m, t) -> (1L << (t & 31)) - 1;
            case LANEMASK_GE -> (m, t) -> (0xFFFFFFFFL << (t & 31)) & 0xFFFFFFFFL;
            case LANEMASK_GT -> (m, t) -> (0xFFFFFFFFL << ((t & 31) + 1)) & 0xFFFFFFFFL;
            case CLOCK -> (m, t) -> m.cycles & 0xFFFFFFFFL;
            case CLOCK_HI -> (m, t) -> (m.cycles >>> 32) & 0xFFFFFFFFL;
            case CLOCK64, GLOBALTIMER -> (m, t) -> m.cycles;
            case GLOBALTIMER_LO -> (m, t) -> m.cycles & 0xFFFFFFFFL;
            case GLOBALTIMER_HI -> (m, t) -> (m.cycles >>> 32) & 0xFFFFFFFFL;
            case IS_EXPLICIT_CLUSTER -> (m, t) -> m.explicitCluster ? 1 : 0;
            case CLUSTER_NCTAID -> (m, t) -> m.cluster.get(c);
            case CLUSTER_CTAID -> (m, t) -> m.grid.unflatten(m.ctaOfSlot(t)).get(c) % m.cluster.get(c);
            case CLUSTERID -> (m, t) -> m.grid.unflatten(m.ctaOfSlot(t)).get(c) / m.cluster.get(c);
            case NCLUSTERID -> (m, t) -> m.grid.get(c) / m.cluster.get(c);
            case CLUSTER_NCTARANK -> (m, t) -> m.cluster.volume();
            case CLUSTER_CTARANK -> (m, t) -> {
                Dim3 id = m.grid.unflatten(m.ctaOfSlot(t));
                Dim3 cl = m.cluster;
                return (id.x() % cl.x()) + (long) (id.y() % cl.y()) * cl.x() + (long) (id.z() % cl.z()) * cl.x() * cl.y();
            };
            case DYNAMIC_SMEM_SIZE -> (m, t) -> m.memory.shared[0].length - m.program.dynamicSharedOffset;
            case TOTAL_SMEM_SIZE, AGGR_SMEM_SIZE -> (m, t) -> m.memory.shared[0].length;
            // %envreg<32> are driver-defined (PTX ISA, special registers); what CUDA's driver puts in 1 and 2: the high and low
            // halves of a cooperative launch's grid-barrier workspace (Machine.gridWorkspace).
            case ENVREG -> c == 1 ? (m, t) -> m.gridWorkspace >>> 32 : c == 2 ? (m, t) -> m.gridWorkspace & 0xFFFFFFFFL : (m, t) -> 0;
            default -> (m, t) -> 0;
        };
    }
}
