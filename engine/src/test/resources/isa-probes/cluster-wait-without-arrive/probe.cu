// cluster-wait-without-arrive
// 9.7.13.3: wait waits for all non-exited threads of the cluster to perform barrier.cluster.arrive; the waiter never arrived.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    asm volatile("barrier.cluster.wait;" ::: "memory");
    out[cl_rank() * 32 + TID] = 1;
}
