// peer-exits-early-fixed: a cluster barrier before exit keeps rank 0 (and its shared memory)
// alive until rank 1 has finished reading it through DSMEM (the fix of peer-exits-early,
// a real bug report).
//
// Grid 2, block 64, one cluster of 2 CTAs. Rank 0 builds a lookup table `lut[64]` in its
// shared memory (lut[i] = in[i] * 3 + 1) and publishes it with cluster.sync(). Rank 0 then
// copies its table to out[0..63]. Rank 1 first computes an index h with a long loop
// (`iters` rounds of an LCG step mixed across lane pairs with __shfl_xor_sync, then
// h % 64), then reads rank 0's table through cluster.map_shared_rank (mapa + generic ld):
// out[64 + t] = lut[h] * 10 + h.
// The final cluster.sync() holds rank 0's threads until every thread of rank 1 has arrived,
// which each does after its DSMEM read.
//
// Launch: grid 2, block 64, cluster 2, in = 0,1,...,63, out = 128 ints, iters = 100.

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define N 64

extern "C" __global__ void __cluster_dims__(2, 1, 1) peer_table(const int *in, int *out, int iters)
{
    __shared__ int lut[N];                               // filled and used in rank 0's copy

    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned t = threadIdx.x;

    if (rank == 0)
        lut[t] = in[t] * 3 + 1;                          // rank 0 builds the table
    cluster.sync();                                      // the table is complete

    if (rank == 0) {
        out[t] = lut[t];
    } else {
        unsigned h = t;                                  // a long computation of an index
#pragma unroll 1
        for (int i = 0; i < iters; ++i) {
            h = h * 1103515245u + 12345u;
            h += __shfl_xor_sync(0xffffffffu, h, 1);     // mix with the neighbouring lane
        }
        h %= N;
        const int *table = cluster.map_shared_rank(lut, 0);   // rank 0's lut
        out[N + t] = table[h] * 10 + (int)h;             // DSMEM read of rank 0's shared memory
    }
    cluster.sync();                                      // rank 0 stays until rank 1 has read
}
