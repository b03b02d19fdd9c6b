// cluster-four-ctas-ring
// 9.7.13.3: writes to a peer's shared memory before arrive are visible after wait (four CTAs, each writes the next).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(4, 1, 1) probe(int *out)
{
    __shared__ int v;
    unsigned r = cl_rank();
    if (LANE == 0) st_cl(mapa(sa(&v), (r + 1u) & 3u), 10 + (int)r);
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[r * 32 + LANE] = v;
}
