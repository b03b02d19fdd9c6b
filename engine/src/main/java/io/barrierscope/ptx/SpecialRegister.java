package io.barrierscope.ptx;

/** Special registers (PTX ISA 10). Those with .x/.y/.z take a component. */
public enum SpecialRegister {
    TID("%tid", true), NTID("%ntid", true), LANEID("%laneid", false), WARPID("%warpid", false),
    NWARPID("%nwarpid", false), CTAID("%ctaid", true), NCTAID("%nctaid", true), SMID("%smid", false),
    NSMID("%nsmid", false), GRIDID("%gridid", false),
    IS_EXPLICIT_CLUSTER("%is_explicit_cluster", false), CLUSTERID("%clusterid", true),
    NCLUSTERID("%nclusterid", true), CLUSTER_CTAID("%cluster_ctaid", true),
    CLUSTER_NCTAID("%cluster_nctaid", true), CLUSTER_CTARANK("%cluster_ctarank", false),
    CLUSTER_NCTARANK("%cluster_nctarank", false),
    LANEMASK_EQ("%lanemask_eq", false), LANEMASK_LE("%lanemask_le", false), LANEMASK_LT("%lanemask_lt", false),
    LANEMASK_GE("%lanemask_ge", false), LANEMASK_GT("%lanemask_gt", false),
    CLOCK("%clock", false), CLOCK_HI("%clock_hi", false), CLOCK64("%clock64", false),
    GLOBALTIMER("%globaltimer", false), GLOBALTIMER_LO("%globaltimer_lo", false),
    GLOBALTIMER_HI("%globaltimer_hi", false),
    DYNAMIC_SMEM_SIZE("%dynamic_smem_size", false), TOTAL_SMEM_SIZE("%total_smem_size", false),
    AGGR_SMEM_SIZE("%aggr_smem_size", false), CURRENT_GRAPH_EXEC("%current_graph_exec", false),
    /** %pm0..%pm7 and %pm0_64..; component holds the index. */
    PM("%pm", false), PM64("%pm_64", false),
    /** %envreg0..%envreg31; component holds the index. */
    ENVREG("%envreg", false),
    RESERVED_SMEM_OFFSET_BEGIN("%reserved_smem_offset_begin", false),
    RESERVED_SMEM_OFFSET_END("%reserved_smem_offset_end", false),
    RESERVED_SMEM_OFFSET_CAP("%reserved_smem_offset_cap", false);

    private final String ptxName;
    private final boolean vector;

    SpecialRegister(String ptxName, boolean vector) {
        this.ptxName = ptxName;
        this.vector = vector;
    }

    public String ptxName() { return ptxName; }
    /** True when the register has .x/.y/.z components. */
    public boolean isVector() { return vector; }

    /** Finds a special register by its base name, e.g. {@code %tid}; null if there is none. */
    public static SpecialRegister byName(String name) {
        for (SpecialRegister s : values()) {
            if (s.ptxName.equals(name)) return s;
        }
        return null;
    }
}
