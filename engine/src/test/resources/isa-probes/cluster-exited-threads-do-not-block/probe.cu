// cluster-exited-threads-do-not-block
// 9.7.13.3: the barrier completes when all non-exited threads of the cluster have arrived.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    unsigned r = cl_rank();
    if (r == 1 && WARP == 1) return;
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[r * 64 + TID] = 1;
}
