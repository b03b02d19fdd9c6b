// cluster-non-aligned-arrive-then-aligned-wait
// 9.7.13.3: arrive and wait may be the non-aligned and the .aligned forms; a wait after a (release) arrive sees the peer's DSMEM store.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int v;
    unsigned r = cl_rank();
    if (TID == 0) st_cl(mapa(sa(&v), r ^ 1), 10 + r);
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    if (TID == 0) out[r] = ld_cl(sa(&v));
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
