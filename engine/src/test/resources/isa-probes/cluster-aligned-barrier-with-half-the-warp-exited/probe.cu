// cluster-aligned-barrier-with-half-the-warp-exited
// 9.7.13.3: barrier.cluster waits for the non-exited threads of its warp and of the cluster; exited lanes do not break .aligned.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    if (LANE >= 16) return;
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    out[cl_rank() * 16 + TID] = 1 + cl_rank();
}
