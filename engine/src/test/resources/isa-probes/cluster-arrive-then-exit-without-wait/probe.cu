// cluster-arrive-then-exit-without-wait
// 9.7.13.3: the barrier completes when all non-exited threads arrived; a thread may arrive and exit.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    unsigned r = cl_rank();
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    if (r == 1) return;
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[TID] = 1;
}
