// cluster-barrier-one-partition (BUG): barrier.cluster.arrive/wait is executed by one
// warp-specialised partition only; the other partition's threads never arrive, and the
// cluster barrier waits for them forever (triton-lang/triton #9456).
//
// Grid 2, block 64, one cluster of 2 CTAs. In each CTA, warp 0 is the producer partition
// and warp 1 the consumer partition:
//
//   producer  stages tile[lane] = in[rank * 32 + lane] * (rank + 1) in its CTA's shared
//             memory, then waits on named barrier 1 (bar.sync 1, 64) for the consumer's
//             results and copies them to out;
//   consumer  needs the tile of *both* CTAs: it passes a cluster barrier (arrive + wait)
//             so that the peer's tile is staged and visible, reads its own and the peer's
//             tile (DSMEM: mapa + ld.shared::cluster), stores res[lane] and bar.arrive's
//             barrier 1. A final cluster barrier keeps both CTAs resident until both
//             consumers have read.
//
// The bug: the first cluster barrier sits in the consumer partition only. barrier.cluster
// waits for *all non-exited threads of the cluster*, the producer warps included, and they
// never arrive: they wait at bar.sync 1 for the consumers, who wait at the cluster barrier
// for them. A deadlock, whatever the schedule.
//
// Fix (cluster-barrier-one-partition-fixed): every thread of the cluster takes part. The
// producer arrives (barrier.cluster.arrive, .release by default) right after staging its
// tile and completes the phase with barrier.cluster.wait after its epilogue; its release
// is also what publishes the tile to the peer's consumer, whose wait acquires it.
//
// Launch: grid 2, block 64, cluster 2, in = 0,1,...,63, out = 64 ints.

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
        asm volatile("bar.sync 1, 64;" ::: "memory");     // the consumer's results are in res
        out[rank * N + lane] = res[lane];
    } else {
        // ---- consumer partition ----
        cluster_arrive();                                  // BUG: only this partition arrives
        cluster_wait();                                    // ... so this waits forever
        int mine = tile[lane];
        int theirs = ld_cluster(map_to_rank(smem_addr(&tile[N - 1 - lane]), rank ^ 1));
        res[lane] = mine * 100 + theirs;
        asm volatile("bar.arrive 1, 64;" ::: "memory");   // results staged
    }
    cluster_arrive();                                      // nobody exits while the peer
    cluster_wait();                                        // may still read its tile
}
