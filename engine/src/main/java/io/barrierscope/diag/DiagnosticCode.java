package io.barrierscope.diag;

/**
 * The stable diagnostic codes (semantics.md section 10). Codes are part of the report contract:
 * never rename one.
 */
public enum DiagnosticCode {
    BARRIER_DIVERGENCE("barrier-divergence", "aligned CTA barrier reached through different instructions"),
    BARRIER_MIXED_RED("barrier-mixed-red", "bar.red mixed with bar.sync/bar.arrive on one active barrier"),
    BARRIER_OVER_ARRIVAL("barrier-over-arrival", "a warp arrived twice on one barrier generation"),
    BARRIER_COUNT_MISMATCH("barrier-count-mismatch", "arrivals on one barrier generation disagree on the thread count"),
    BARRIER_BAD_COUNT("barrier-bad-count", "barrier thread count not a non-zero multiple of 32"),
    BARRIER_BAD_ID("barrier-bad-id", "barrier id outside 0..15"),
    WARP_SYNC_NOT_MEMBER("warp-sync-not-member", "executing thread not in the membermask"),
    WARP_SYNC_EXITED_MEMBER("warp-sync-exited-member", "membermask names a thread that has exited"),
    WARP_SYNC_MISMATCH("warp-sync-mismatch", "members of one mask met at different kinds of warp instruction"),
    WARP_COLLECTIVE_PARTIAL("warp-collective-partial", "a warp-collective .sync.aligned matrix instruction executed by fewer than all 32 lanes"),
    WARPGROUP_COLLECTIVE_PARTIAL("warpgroup-collective-partial", "a warpgroup-collective wgmma instruction not executed by all four warps of the warpgroup"),
    WGMMA_ACCUMULATOR_IN_FLIGHT("wgmma-accumulator-in-flight", "an accumulator register of a wgmma.mma_async in flight accessed before the wgmma.wait_group that covers it"),
    WGMMA_OPERAND_OVERWRITTEN("wgmma-operand-overwritten", "shared memory read by a wgmma.mma_async in flight changed before the operation completed"),
    WGMMA_MISSING_FENCE("wgmma-missing-fence", "a wgmma.mma_async on registers another instruction accessed after the warp's last wgmma.fence"),
    SETMAXNREG_BAD_COUNT("setmaxnreg-bad-count", "setmaxnreg imm-reg-count outside 24..256 or not a multiple of 8"),
    SETMAXNREG_WARPGROUP_PARTIAL("setmaxnreg-warpgroup-partial", "a setmaxnreg not executed by all four warps of its warpgroup (another one, or none)"),
    SETMAXNREG_MISSING_SYNC("setmaxnreg-missing-sync", "a warpgroup's setmaxnreg with no explicit synchronization of the warpgroup since its previous one"),
    SETMAXNREG_WRONG_DIRECTION("setmaxnreg-wrong-direction", "setmaxnreg.inc below or setmaxnreg.dec above the warp's current register count"),
    WMMA_OPERAND_MISMATCH("wmma-operand-mismatch", "lanes of a warp give one wmma.load or wmma.store different addresses or strides"),
    WMMA_STRIDE_TOO_SMALL("wmma-stride-too-small", "a wmma.load or wmma.store stride below the matrix's row (column) length"),
    WGMMA_BAD_DESCRIPTOR("wgmma-bad-descriptor", "lanes or warps of a warpgroup pass different wgmma matrix descriptors"),
    WGMMA_BAD_SPARSITY_METADATA("wgmma-bad-sparsity-metadata", "a sparse wgmma.mma_async metadata value the ISA leaves undefined"),
    SHFL_INACTIVE_SOURCE("shfl-inactive-source", "shfl.sync read from a lane outside the membermask"),
    MBARRIER_UNINITIALIZED("mbarrier-uninitialized", "mbarrier operation on an object that is not initialized"),
    MBARRIER_REINIT("mbarrier-reinit", "mbarrier.init on a valid mbarrier object"),
    MBARRIER_CLOBBERED("mbarrier-clobbered", "plain memory access to a valid mbarrier object"),
    MBARRIER_MISALIGNED("mbarrier-misaligned", "mbarrier address not 8-byte aligned"),
    MBARRIER_NOT_SHARED("mbarrier-not-shared", "mbarrier address outside the shared::cta window"),
    MBARRIER_COUNT_RANGE("mbarrier-count-range", "arrival count outside 1..2^20-1"),
    MBARRIER_TX_RANGE("mbarrier-tx-range", "tx-count outside -(2^20-1)..2^20-1"),
    MBARRIER_OVER_ARRIVAL("mbarrier-over-arrival", "more arrivals than pending in the current phase"),
    MBARRIER_DROP_TO_ZERO("mbarrier-drop-to-zero", "arrive_drop lowered the expected count to zero"),
    MBARRIER_NOCOMPLETE_COMPLETED("mbarrier-nocomplete-completed", ".noComplete arrive completed the phase"),
    MBARRIER_STALE_TOKEN("mbarrier-stale-token", "wait with a token older than the preceding phase"),
    MBARRIER_BAD_TOKEN("mbarrier-bad-token", "wait with a state that no arrive on this mbarrier returned"),
    MBARRIER_PHASE_UNOBSERVED("mbarrier-phase-unobserved", "arrive before any wait observed the previous phase complete"),
    MBARRIER_PENDING_COUNT_TOKEN("mbarrier-pending-count-token", "pending_count on a token not from a .noComplete arrive"),
    MBARRIER_BAD_PARITY("mbarrier-bad-parity", "phaseParity other than 0 or 1"),
    DSMEM_AFTER_EXIT("dsmem-after-exit", "access to the shared memory of a CTA that has exited"),
    MBARRIER_REMOTE_WAIT("mbarrier-remote-wait", "wait, init or inval on an mbarrier of another CTA"),
    CLUSTER_BARRIER_OVER_ARRIVAL("cluster-barrier-over-arrival", "a thread arrived twice on barrier.cluster before it completed"),
    CLUSTER_BARRIER_WAIT_WITHOUT_ARRIVE("cluster-barrier-wait-without-arrive", "barrier.cluster.wait without a prior arrive"),
    CLUSTER_BARRIER_DIVERGENCE("cluster-barrier-divergence", "aligned barrier.cluster reached through different instructions in one warp"),
    ASYNC_PENDING_AT_EXIT("async-pending-at-exit", "a CTA exited while asynchronous copies into its shared memory were in flight"),
    ASYNC_REMOTE_TARGET("async-remote-target", "st.async/red.async whose destination and mbarrier are not in one other CTA of the cluster"),
    ASYNC_COPY_SIZE("async-copy-size", "a cp.async whose src-size is larger than its cp-size"),
    ASYNC_GROUP_OVERLAP("async-group-overlap", "two cp.async of one cp.async-group copying to the same shared bytes"),
    MULTICAST_EMPTY_MASK("multicast-empty-mask", "a .multicast::cluster copy whose ctaMask names no CTA"),
    TENSOR_MAP_INVALID("tensor-map-invalid", "a tensor copy's map is not one the launch file described"),
    TENSOR_IM2COL_RANGE("tensor-im2col-range", "an im2col tensor copy whose filter base lies outside the bounding box or whose im2col offsets exceed their range"),
    TEXTURE_MISUSE("texture-misuse", "a texture or surface instruction on a handle that is no object of its kind, of another dimensionality, or whose format does not give the instruction's result type"),
    TEXTURE_LAYER_RANGE("texture-layer-range", "a layered texture or surface instruction whose layer index is not below the object's number of layers"),
    SURFACE_FORMAT("surface-format", "a formatted surface store the ISA gives no meaning: a value its channel format cannot hold exactly, or fewer source elements than the format has channels"),
    MEMORY_FAULT("memory-fault", "out-of-bounds or unmapped address"),
    MISALIGNED_ACCESS("misaligned-access", "address not aligned to the access size"),
    TRAP("trap", "trap executed"),
    ASSERT_FAILED("assert-failed", "device assert failed"),
    DIVIDE_BY_ZERO("divide-by-zero", "integer division by zero"),
    FNS_BASE_RANGE("fns-base-range", "fns.b32 base outside 0..31"),
    CALL_DEPTH("call-depth", "call stack too deep"),
    ASYNC_IN_FLIGHT("async-in-flight", "more asynchronous operations in flight at once than the emulator holds (32 per thread slot)"),
    HEAP_INVALID_FREE("heap-invalid-free", "device free of a pointer that no device malloc returned"),
    HEAP_DOUBLE_FREE("heap-double-free", "device free of an allocation that was freed already"),
    HEAP_CORRUPTED("heap-corrupted", "the device heap's bookkeeping was overwritten (a write outside an allocation)"),
    HEAP_BAD_ALIGNMENT("heap-bad-alignment", "__nv_aligned_device_malloc with an alignment that is not a non-zero power of two"),
    GRAPH_CONDITIONAL_BAD_HANDLE("graph-conditional-bad-handle", "device cudaGraphSetConditional with a handle that cudaGraphConditionalHandleCreate did not make"),
    GRAPH_CONDITIONAL_NOT_LAUNCHED("graph-conditional-not-launched", "device cudaGraphSetConditional from a kernel that is not part of a launch of the handle's graph"),
    RACE("race", "two accesses to the same bytes, one a write, not ordered by happens-before"),
    MBARRIER_INIT_NOT_FENCED("mbarrier-init-not-fenced", "a remote arrive or copy signal from another CTA of the cluster on an mbarrier whose init its thread never published to the cluster (no fence.mbarrier_init.release.cluster, fence or release barrier.cluster.arrive after it)"),
    PROXY_FENCE_MISSING("proxy-fence-missing", "a generic-proxy write read or overwritten by an async-proxy operation with no fence.proxy.async between them in the writer's thread");

    private final String code;
    private final String summary;

    DiagnosticCode(String code, String summary) {
        this.code = code;
        this.summary = summary;
    }

    /** The kebab-case code used in reports and expect blocks. */
    public String code() { return code; }
    public String summary() { return summary; }

    public static DiagnosticCode byCode(String code) {
        for (DiagnosticCode c : values()) {
            if (c.code.equals(code)) return c;
        }
        return null;
    }
}
