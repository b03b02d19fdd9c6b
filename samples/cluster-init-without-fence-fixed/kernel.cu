// cluster-init-without-fence-fixed: each CTA's mbarrier.init is released to the cluster with
// fence.mbarrier_init.release.cluster before the relaxed cluster barrier, so the peer's remote
// arrives happen after it (the fix of cluster-init-without-fence).
//
// Grid 2, block 32, one cluster of 2 CTAs. Each CTA owns an mbarrier `bar` (count 32) and a
// shared array `slots`. Thread 0 initialises its CTA's `bar` and issues
// fence.mbarrier_init.release.cluster (CUTLASS fence_barrier_init); __syncthreads(); every
// thread of both CTAs passes barrier.cluster.arrive.relaxed + barrier.cluster.wait. Then
// thread t stores 2 * in[32 * rank + t] into the PEER's slots[t] and arrives on the PEER's
// `bar`; each CTA waits for phase 0 of its own `bar` and writes
// out[32 * rank + t] = 3 * slots[t] + slots[31 - t].
//
// Launch: grid 2, block 32, cluster 2, in = 0,1,...,63, out = 64 ints.

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
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}
// CUTLASS fence_barrier_init(): releases this thread's mbarrier inits to the cluster.
__device__ __forceinline__ void fence_barrier_init()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// CUTLASS cluster_arrive_relaxed() + cluster_wait().
__device__ __forceinline__ void cluster_sync_relaxed()
{
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\t"
                 "barrier.cluster.wait.aligned;" ::: "memory");
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

extern "C" __global__ void __cluster_dims__(2, 1, 1) swap_with_peer(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;
    __shared__ int slots[N];

    unsigned rank = cluster_rank();
    unsigned peer = rank ^ 1;
    unsigned t = threadIdx.x;

    if (t == 0) {
        mbar_init(smem_addr(&bar), N);
        fence_barrier_init();  // FIX: release the init to the cluster
    }
    __syncthreads();
    cluster_sync_relaxed();    // every thread of the cluster acquires it at the wait

    st_cluster(map_to_rank(smem_addr(&slots[t]), peer), 2 * in[N * rank + t]);
    mbar_remote_arrive(map_to_rank(smem_addr(&bar), peer));   // after the peer's init, always

    mbar_wait_parity_cluster(smem_addr(&bar), 0);              // the peer's 32 values are in
    out[N * rank + t] = 3 * slots[t] + slots[N - 1 - t];
}
