// cluster-remote-arrive: every thread of a 4-CTA cluster reports to CTA 0 through
// distributed shared memory and a remote arrive on CTA 0's mbarrier.
//
// Grid 4, block 64, one cluster of 4 CTAs (__cluster_dims__(4, 1, 1)). CTA rank 0 owns an
// mbarrier `bar` initialised with 4 * 64 = 256, one arrival per thread of the cluster.
//
//   1. CTA 0's thread 0 runs mbarrier.init and fence.mbarrier_init.release.cluster; every
//      thread then passes a cluster barrier (arrive.relaxed + wait, CUTLASS's
//      cluster_arrive_relaxed / cluster_wait): nobody arrives on `bar` before it exists.
//   2. Thread t of CTA r stores v = in[r * 64 + t] * (r + 1) into CTA 0's slots[r * 64 + t]
//      (mapa.shared::cluster + st.shared::cluster), then arrives on CTA 0's `bar`
//      (mapa + mbarrier.arrive.release.cluster.shared::cluster.b64 _, [addr]).
//      The arrive's .release at cluster scope carries the store with it.
//   3. CTA 0 waits for phase 0 (try_wait.parity.acquire.cluster, parity 0), sums column t of
//      slots (the four values of thread t of every CTA) and writes the sum into `colsum[t]`
//      of every CTA of the cluster (st.shared::cluster), itself included.
//   4. A final cluster barrier (release/acquire by default): the column sums are visible
//      everywhere, and no CTA exits while another may still touch its shared memory.
//   5. Every thread writes out[r * 64 + t] = colsum[t] - v: what the other three CTAs'
//      threads t contributed.
//
// Launch: grid 4, block 64, cluster 4, in = 0,1,...,255, out = 256 ints.

#define N 64
#define CLUSTER 4

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

// The shared::cluster address of the same variable in CTA `rank`.
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

// CUTLASS cluster_arrive_relaxed() + cluster_wait().
__device__ __forceinline__ void cluster_sync_relaxed()
{
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\t"
                 "barrier.cluster.wait.aligned;" ::: "memory");
}

// CUTLASS cluster_sync(): arrive (.release by default) + wait (.acquire by default).
__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.aligned;\n\t"
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

extern "C" __global__ void __cluster_dims__(CLUSTER, 1, 1) remote_arrive(const int *in, int *out)
{
    __shared__ __align__(8) unsigned long long bar;   // used in CTA 0 only
    __shared__ int slots[CLUSTER * N];                  // used in CTA 0 only
    __shared__ int colsum[N];                           // written by CTA 0 into every CTA

    unsigned rank = cluster_rank();
    unsigned t = threadIdx.x;

    if (rank == 0 && t == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem_addr(&bar)), "r"(CLUSTER * N) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync_relaxed();                             // 1: CTA 0's init is published

    int v = in[rank * N + t] * (int)(rank + 1);
    st_cluster(map_to_rank(smem_addr(&slots[rank * N + t]), 0), v);   // 2: into CTA 0
    mbar_remote_arrive(map_to_rank(smem_addr(&bar), 0));

    if (rank == 0) {
        mbar_wait_parity_cluster(smem_addr(&bar), 0);   // 3: all 256 arrivals are in
        int s = 0;
        for (int r = 0; r < CLUSTER; ++r)
            s += slots[r * N + t];
        for (int r = 0; r < CLUSTER; ++r)
            st_cluster(map_to_rank(smem_addr(&colsum[t]), r), s);
    }
    cluster_sync();                                     // 4: sums published, nobody exits early

    out[rank * N + t] = colsum[t] - v;                  // 5
}
