// cluster-write-between-arrive-and-wait-races
// 9.7.13.3: no ordering for accesses after barrier.cluster.arrive and before barrier.cluster.wait.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int s[32];
    unsigned r = cl_rank();
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    if (r == 0) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&s[LANE])), "r"(LANE + 1) : "memory"); }
    asm volatile("barrier.cluster.wait;" ::: "memory");
    if (r == 1) out[LANE] = ld_cl(mapa(sa(&s[LANE]), 0));
    asm volatile("barrier.cluster.arrive;" ::: "memory");
    asm volatile("barrier.cluster.wait;" ::: "memory");
}
