// cluster-relaxed-arrive-gives-no-ordering
// 9.7.13.3: .relaxed on arrive gives no ordering or visibility for accesses before it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int s[64];
    unsigned r = cl_rank();
    s[TID] = r * 100 + TID;
    asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    int v = ld_cl(mapa(sa(&s[63 - TID]), r ^ 1));
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[r * 64 + TID] = v;
}
