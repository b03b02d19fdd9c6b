// cluster-aligned-arrive-in-uniform-branch
// 9.7.13.3: .aligned in conditional code is fine when every thread of the warp evaluates the condition identically.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    unsigned r = cl_rank();
    if (WARP == 0) { asm volatile("barrier.cluster.arrive.aligned;" ::: "memory"); asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }
    else { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }
    out[r * 64 + TID] = 1;
}
