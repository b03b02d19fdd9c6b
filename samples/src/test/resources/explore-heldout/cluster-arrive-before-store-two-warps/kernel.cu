// cluster-arrive-before-store-two-warps (held-out BUG, explore test): cluster-arrive-before-store
// with two warps per CTA, so that a switch *within* the storing CTA can decide the failure. A
// cluster of two CTAs adds its partials in rank 0's shared memory; each thread stores its partial
// into rank 0's `part[rank]` through distributed shared memory, but `barrier.cluster.arrive`
// comes before the store (it releases only what came before it, PTX ISA 9.7.13.3): a race in
// every schedule, and when one warp of rank 1 is held back between its arrive and its store
// while the other completes the barrier, rank 0 can add up and exit before the held-back store
// lands (dsmem-after-exit).
// Fix: store, then barrier.cluster.arrive.release, then barrier.cluster.wait.acquire.
//
// Launch: grid 2, block 64, cluster 2, in = 0..127, out = 64 ints.

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_sum2(const int *in, int *out)
{
    __shared__ int part[2][64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned t = threadIdx.x;

    int v = in[64 * rank + t];
#pragma unroll 1
    for (int i = 0; i < 3; ++i)
        v = v * 5 + i;
    int *dst = cluster.map_shared_rank(&part[rank][0], 0);
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); // BUG: before the store
    dst[t] = v;
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (rank == 0) out[t] = part[0][t] + part[1][t];
}
