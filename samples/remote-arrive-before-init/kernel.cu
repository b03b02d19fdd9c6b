// remote-arrive-before-init (BUG): a CTA arrives on its peer's mbarrier before the peer's
// mbarrier.init has been published to the cluster (a real bug report,
// facebookexperimental/triton #652).
//
// Grid 2, block 32, one cluster of 2 CTAs. CTA rank 0 owns the mbarrier `bar` (count 32)
// and a shared array `slots`. Thread t of rank 1 stores in[t] * 3 into rank 0's slots[t]
// (mapa + st.shared::cluster) and then arrives on rank 0's `bar` (mapa +
// mbarrier.arrive.release.cluster.shared::cluster). Rank 0 waits for phase 0 of `bar`
// (try_wait.parity.acquire.cluster) and writes out[t] = slots[t] + slots[31 - t] + in[32 + t].
//
// The bug: rank 0's thread 0 initialises `bar` and publishes it only inside its own CTA,
// with __syncthreads(). Nothing orders the init before rank 1's remote arrives: no
// fence.mbarrier_init, no cluster barrier. A remote arrive that comes first operates on an
// object that is not an mbarrier yet, which is undefined (PTX ISA 9.7.13.15.3: "must be
// initialized prior to use"); BarrierScope reports mbarrier-uninitialized.
//
// CTAs of a cluster are launched together but need not start together; here rank 0's
// thread 0 starts with __nanosleep(2000), so every run shows the late init. Without the
// sleep the outcome depends on the schedule, and the race detector reports
// the unordered init and remote arrive in every run.
//
// Fix (remote-arrive-before-init-fixed): after the init, fence.mbarrier_init.release.cluster
// and a cluster barrier (barrier.cluster.arrive.relaxed + barrier.cluster.wait) in every
// thread of both CTAs before the first remote arrive, as CUTLASS does (fence_barrier_init +
// cluster_arrive_relaxed + cluster_wait).
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
    }
    __syncthreads();   // BUG: publishes the init to rank 0's own threads, not to rank 1

    if (rank == 1) {
        st_cluster(map_to_rank(smem_addr(&slots[t]), 0), in[t] * 3);
        mbar_remote_arrive(map_to_rank(smem_addr(&bar), 0));   // may come before the init
    } else {
        mbar_wait_parity_cluster(smem_addr(&bar), 0);           // all 32 values are in
        out[t] = slots[t] + slots[N - 1 - t] + in[N + t];
    }
}
