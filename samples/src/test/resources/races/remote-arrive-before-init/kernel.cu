// remote-arrive-before-init (a real bug report, facebookexperimental/triton #652): a race.
//
// A 2-CTA cluster. CTA rank 0's thread 0 initialises `bar` (count 32) and then every thread
// passes a cluster barrier made of barrier.cluster.arrive.relaxed + barrier.cluster.wait,
// WITHOUT fence.mbarrier_init.release.cluster before it. The warp of CTA rank 1 then arrives
// remotely on rank 0's `bar` (mapa + mbarrier.arrive.release.cluster.shared::cluster). The
// relaxed arrive publishes nothing, so the init is not ordered before the remote arrivals:
// `mbarrier-init-not-fenced`, or `race` if rank 0 waits first (semantics.md 13). Rank 0 waits on
// `bar`, and a final (release/acquire) cluster barrier keeps both CTAs alive to the end.
//
// Launch: grid 2, block 32, cluster 2, out = 64 ints.

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
    unsigned out;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(addr), "r"(rank));
    return out;
}

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void remote_arrive(unsigned cluster_bar)
{
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(cluster_bar) : "memory");
}

__device__ __forceinline__ void cluster_arrive_relaxed()
{
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}

__device__ __forceinline__ void cluster_arrive()
{
    asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
}

__device__ __forceinline__ void cluster_wait()
{
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}

__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
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

extern "C" __global__ void __cluster_dims__(2, 1, 1) remote_before_init(int *out)
{
    __shared__ __align__(8) unsigned long long bar;

    unsigned tid = threadIdx.x;
    unsigned rank = cluster_rank();
    if (rank == 0 && tid == 0) mbar_init(smem_addr(&bar), 32);   // BUG: no fence.mbarrier_init
    cluster_arrive_relaxed();                                     // ... and a relaxed arrive
    cluster_wait();

    if (rank == 1) {
        remote_arrive(map_to_rank(smem_addr(&bar), 0));
    } else {
        mbar_wait_parity(smem_addr(&bar), 0);
    }
    out[rank * 32 + tid] = rank * 100 + tid;
    cluster_arrive();
    cluster_wait();
}
