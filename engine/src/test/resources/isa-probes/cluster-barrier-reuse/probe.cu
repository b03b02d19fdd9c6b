// cluster-barrier-reuse
// 9.7.13.3: after wait detects completion a thread may immediately arrive again.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int s[32];
    unsigned r = cl_rank();
    int acc = 0;
    for (int i = 0; i < 3; i++) {
        s[TID] = (i + 1) * (TID + r);
        asm volatile("barrier.cluster.arrive;" ::: "memory");
        asm volatile("barrier.cluster.wait;" ::: "memory");
        acc += ld_cl(mapa(sa(&s[TID]), r ^ 1));
        asm volatile("barrier.cluster.arrive;" ::: "memory");
        asm volatile("barrier.cluster.wait;" ::: "memory");
    }
    out[r * 32 + TID] = acc;
}
