// remote-arrive-before-init-fixed: the peer's mbarrier.init is published to the cluster with
// fence.mbarrier_init.release.cluster and a cluster barrier before anyone arrives on it
// remotely (the fix of remote-arrive-before-init, a real bug report,
// facebookexperimental/triton #652).
//
// Grid 2, block 32, one cluster of 2 CTAs. CTA rank 0 owns the mbarrier `bar` (count 32)
// and a shared array `slots`. Rank 0's thread 0 initialises `bar` and issues
// fence.mbarrier_init.release.cluster; then every thread of both CTAs passes a cluster
// barrier, barrier.cluster.arrive.relaxed + barrier.cluster.wait (CUTLASS:
// fence_barrier_init + cluster_arrive_relaxed + cluster_wait). Only then does thread t of
// rank 1 store in[t] * 3 into rank 0's slots[t] (mapa + st.shared::cluster) and arrive on
// rank 0's `bar` (mapa + mbarrier.arrive.release.cluster.shared::cluster). Rank 0 waits for
// phase 0 of `bar` (try_wait.parity.acquire.cluster) and writes
// out[t] = slots[t] + slots[31 - t] + in[32 + t].
//
// Rank 0's thread 0 still starts with __nanosleep(2000), as in the buggy twin; rank 1 now
// waits for it at the cluster barrier.
//
// Launch: grid 2, block 32, cluster 2, in = 0,1,...,63, out = 32 ints.

#define N 32

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ unsigned cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned map_to_rank(unsigned addr, unsigned rank)
{
    unsigned d;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(addr), "r"(rank));
    return d;
}
__device__ __forceinline__ void st_cluster(unsigned addr, int v)
{
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
}
// CUTLASS ClusterBarrier::arrive(cta_id, pred): arrive on the mbarrier of another CTA.
__device__ __forceinline__ void mbar_remote_arrive(unsigned remote_bar)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(remote_bar) : "memory");
}
__device__ __forceinline__ void mbar_wait_parity_cluster(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t"
                 "}"
                 :: "r"(bar), "r"(parity) : "memory");
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) gather_from_peer(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;   // used in rank 0 only
    __shared__ int slots[N];                            // used in rank 0 only

    unsigned rank = cluster_rank();
    unsigned t = threadIdx.x;

    if (rank == 0 && t == 0) {
        __nanosleep(2000);                              // rank 0 starts late
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&bar)), "r"(N) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");   // FIX: release the init
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\t"              // FIX: and acquire it in
                 "barrier.cluster.wait.aligned;" ::: "memory");              // every thread of the cluster

    if (rank == 1) {
        st_cluster(map_to_rank(smem_addr(&slots[t]), 0), in[t] * 3);
        mbar_remote_arrive(map_to_rank(smem_addr(&bar), 0));   // after the init, always
    } else {
        mbar_wait_parity_cluster(smem_addr(&bar), 0);           // all 32 values are in
        out[t] = slots[t] + slots[N - 1 - t] + in[N + t];
    }
}
