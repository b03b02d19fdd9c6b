// cluster-dsmem-exchange: two CTAs of a cluster read each other's shared memory
// (distributed shared memory, DSMEM) with cooperative_groups, as in the CUDA Programming
// Guide's cluster histogram example.
//
// The grid is 4 CTAs in clusters of 2 (__cluster_dims__(2, 1, 1)), 64 threads each.
// Every CTA stages its 64 inputs, scaled by (rank + 2), into its own shared array `mine`.
// Then each thread reads two elements of the *peer* CTA's array through the pointer that
// cluster.map_shared_rank() returns (mapa + a generic ld), and writes
//
//   out[cta * 64 + t] = mine[t] * 1000 + peer[t] + peer[63 - t]
//
// Two cluster barriers (cluster.sync(): barrier.cluster.arrive + barrier.cluster.wait):
//   1. after staging: the peer's array is complete before anyone reads it;
//   2. after reading: no CTA exits (and frees its shared memory) while its peer may still
//      be reading it.
//
// Launch: grid 4, block 64, cluster 2, in = 0,1,...,255, out = 256 ints.

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define N 64

extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_exchange(const int *in, int *out)
{
    __shared__ int mine[N];

    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();            // %cluster_ctarank: 0 or 1
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * N + t;

    mine[t] = in[g] * (int)(rank + 2);
    cluster.sync();                                  // 1: both arrays staged

    int *peer = cluster.map_shared_rank(mine, rank ^ 1);   // the other CTA's `mine`
    int v = mine[t] * 1000 + peer[t] + peer[N - 1 - t];

    cluster.sync();                                  // 2: the peer is done reading `mine`
    out[g] = v;
}
