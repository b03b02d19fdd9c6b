// cluster-relaxed-arrive-after-fence
// 9.7.13.3 example: fence.cluster.acq_rel before a relaxed arrive orders the prior accesses.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int s[64];
    unsigned r = cl_rank();
    s[TID] = r * 100 + TID;
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    int v = ld_cl(mapa(sa(&s[63 - TID]), r ^ 1));
    asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    out[r * 64 + TID] = v;
}
