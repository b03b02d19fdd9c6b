// cluster-aligned-divergent-lanes
// 9.7.13.3: .aligned requires every thread of the warp to execute the same barrier.cluster instruction.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    if (TID & 1) asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
    else asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[cl_rank() * 32 + TID] = 1;
}
