// cluster-explicit-release-acquire-exchange
// 9.7.13.3: arrive.release and wait.acquire (explicit) make prior accesses of all threads of the cluster visible.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int v;
    unsigned r = cl_rank();
    if (LANE == 0) v = (int)r + 1;
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    out[r * 32 + LANE] = ld_cl(mapa(sa(&v), r ^ 1u));
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
