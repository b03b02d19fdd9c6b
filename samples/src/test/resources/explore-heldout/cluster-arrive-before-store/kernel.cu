// cluster-arrive-before-store (held-out BUG, explore test): a cluster of two CTAs adds its
// partial results in rank 0's shared memory. Every CTA computes a partial per thread and stores
// it into rank 0's `part[rank]` through distributed shared memory; a cluster barrier then
// orders those stores before rank 0 adds them up. The barrier was split into its arrive and wait
// halves to overlap it with the stores, but the arrive was put *before* the store: an arrive
// releases only what came before it (PTX ISA 9.7.13.3, barrier.cluster), so rank 1's store into
// rank 0 is unordered with rank 0's read after its wait (a race in every schedule), and rank 0,
// whose wait needs only rank 1's arrive, can add up, finish and exit before rank 1's store
// lands in its shared memory (dsmem-after-exit; on hardware, a fault or a lost partial).
// Fix: store, then barrier.cluster.arrive.release, then barrier.cluster.wait.acquire.
//
// Launch: grid 2, block 32, cluster 2, in = 0..63, out = 32 ints.

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_sum(const int *in, int *out)
{
    __shared__ int part[2][32];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned t = threadIdx.x;

    int v = in[32 * rank + t];
#pragma unroll 1
    for (int i = 0; i < 3; ++i)
        v = v * 5 + i;
    int *dst = cluster.map_shared_rank(&part[rank][0], 0);
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); // BUG: before the store
    dst[t] = v;
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (rank == 0) out[t] = part[0][t] + part[1][t];
}
