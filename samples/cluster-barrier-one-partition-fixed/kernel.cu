// cluster-barrier-one-partition-fixed: every thread of the cluster, in both warp-specialised
// partitions, takes part in the cluster barrier (the fix of cluster-barrier-one-partition,
// triton-lang/triton #9456).
//
// Grid 2, block 64, one cluster of 2 CTAs. In each CTA, warp 0 is the producer partition
// and warp 1 the consumer partition:
//
//   producer  stages tile[lane] = in[rank * 32 + lane] * (rank + 1) in its CTA's shared
//             memory and arrives on the cluster barrier (barrier.cluster.arrive, .release
//             by default: this publishes the tile to the whole cluster). It does not need
//             to wait yet: it waits on named barrier 1 (bar.sync 1, 64) for the consumer's
//             results, copies them to out, and only then completes its cluster-barrier
//             phase with barrier.cluster.wait;
//   consumer  arrives on the cluster barrier and waits: once every thread of the cluster
//             has arrived, both CTAs' tiles are staged and visible (the wait acquires). It
//             reads its own and the peer's tile (DSMEM: mapa + ld.shared::cluster), stores
//             res[lane] and bar.arrive's barrier 1.
//
// A final cluster barrier (all threads) keeps both CTAs resident until both consumers have
// read the peer's tile.
//
// Launch: grid 2, block 64, cluster 2, in = 0,1,...,63, out = 64 ints.
// out[r * 32 + l] = in[r * 32 + l] * (r + 1) * 100 + in[(r ^ 1) * 32 + 31 - l] * ((r ^ 1) + 1)

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
__device__ __forceinline__ int ld_cluster(unsigned addr)
{
    int v;
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}
__device__ __forceinline__ void cluster_arrive()
{
    asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
}
__device__ __forceinline__ void cluster_wait()
{
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) pair_tiles(const int *in, int *out)
{
    __shared__ int tile[N];
    __shared__ int res[N];

    unsigned rank = cluster_rank();
    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;

    if (warp == 0) {
        // ---- producer partition ----
        tile[lane] = in[rank * N + lane] * (int)(rank + 1);
        cluster_arrive();                                  // FIX: the producers arrive too,
                                                           // publishing their tiles
        asm volatile("bar.sync 1, 64;" ::: "memory");     // the consumer's results are in res
        out[rank * N + lane] = res[lane];
        cluster_wait();                                    // end of the producer's phase
    } else {
        // ---- consumer partition ----
        cluster_arrive();
        cluster_wait();                                    // both CTAs' tiles are staged
        int mine = tile[lane];
        int theirs = ld_cluster(map_to_rank(smem_addr(&tile[N - 1 - lane]), rank ^ 1));
        res[lane] = mine * 100 + theirs;
        asm volatile("bar.arrive 1, 64;" ::: "memory");   // results staged
    }
    cluster_arrive();                                      // nobody exits while the peer
    cluster_wait();                                        // may still read its tile
}
