// peer-exit-race (BUG, explore test): rank 1 of a 2-CTA cluster reads rank 0's shared table
// through DSMEM right after the cluster barrier, while rank 0 writes its own copy of the table
// to global memory and exits. Nothing keeps rank 0 alive until rank 1 has read: on most
// schedules rank 1 reads first (rank 0 has a short loop to run), but a schedule that runs rank
// 0 to its exit before rank 1's load faults with dsmem-after-exit.
// Fix: cluster.sync() before exit in both CTAs.
//
// Launch: grid 2, block 32, cluster 2, in = 0..31, out = 64 ints.

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) peer_exit(const int *in, int *out)
{
    __shared__ int lut[32];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    unsigned t = threadIdx.x;

    if (rank == 0)
        lut[t] = in[t] * 3 + 1;
    cluster.sync();

    if (rank == 0) {
        int v = lut[t];
#pragma unroll 1
        for (int i = 0; i < 8; ++i)
            v = v * 5 + i;                              // a little work before exiting
        out[t] = v;
    } else {
        const int *table = cluster.map_shared_rank(lut, 0);
        out[32 + t] = table[t] * 10;                    // DSMEM read of rank 0's table
    }
    // BUG: no cluster.sync() here
}
