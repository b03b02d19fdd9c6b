// cp-async-into-a-peers-shared-memory-is-a-fault
// 9.7.9.25.3.1 (cp.async): "dst specifies a location in the shared state space" (cp.async.shared{::cta}): another CTA's shared::cluster address is outside it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (TID == 0 && cl_rank() == 0) {
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(mapa(sa(s), 1)), "l"(in) : "memory");
        asm volatile("cp.async.wait_all;" ::: "memory");
        out[0] = 1;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
