// cluster-init-without-fence (BUG): a cluster's CTAs wait for each other before their first
// remote arrives, but the mbarrier inits are never released to the cluster: the
// fence.mbarrier_init.release.cluster before the relaxed cluster barrier is missing.
//
// Grid 2, block 32, one cluster of 2 CTAs. Each CTA owns an mbarrier `bar` (count 32) and a
// shared array `slots`. Thread 0 initialises its CTA's `bar`, __syncthreads() publishes it
// inside the CTA, and every thread of both CTAs passes a cluster barrier
// (barrier.cluster.arrive.relaxed + barrier.cluster.wait, CUTLASS cluster_arrive_relaxed +
// cluster_wait). Then thread t stores 2 * in[32 * rank + t] into the PEER's slots[t]
// (mapa + st.shared::cluster) and arrives on the PEER's `bar`
// (mbarrier.arrive.release.cluster.shared::cluster). Each CTA waits for phase 0 of its own
// `bar` and writes out[32 * rank + t] = 3 * slots[t] + slots[31 - t].
//
// The bug: the cluster barrier makes every remote arrive come after the init in time, but its
// arrive is .relaxed and releases nothing, so the init does not happen before the peer's
// arrive in the memory model (PTX ISA 9.7.13.3, 9.7.13.4). CUTLASS puts
// fence.mbarrier_init.release.cluster (fence_barrier_init) after the inits for exactly this
// reason. BarrierScope reports `mbarrier-init-not-fenced` on the mbarrier, naming the init and
// the missing fence.
//
// Fix (cluster-init-without-fence-fixed): fence.mbarrier_init.release.cluster in thread 0
// after its init, before the cluster barrier.
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
    }
    __syncthreads();           // publishes the init inside this CTA only
    cluster_sync_relaxed();    // BUG: orders time, but the relaxed arrive releases no init

    st_cluster(map_to_rank(smem_addr(&slots[t]), peer), 2 * in[N * rank + t]);
    mbar_remote_arrive(map_to_rank(smem_addr(&bar), peer));   // not ordered after the peer's init

    mbar_wait_parity_cluster(smem_addr(&bar), 0);              // the peer's 32 values are in
    out[N * rank + t] = 3 * slots[t] + slots[N - 1 - t];
}
