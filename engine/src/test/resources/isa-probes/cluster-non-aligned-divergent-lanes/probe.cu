// cluster-non-aligned-divergent-lanes
// 9.7.13.3: without .aligned, threads of a warp may arrive through different instructions.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int s[32];
    unsigned r = cl_rank();
    s[TID] = r * 10 + TID;
    if (TID & 1) asm volatile("barrier.cluster.arrive;" ::: "memory");
    else asm volatile("barrier.cluster.arrive.release;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    int v = ld_cl(mapa(sa(&s[TID]), r ^ 1));
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[r * 32 + TID] = v;
}
