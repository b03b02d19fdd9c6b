// mbarrier-remote-init
// 9.7.13.15.9: init's address must fall within the .shared::cta window; a peer's mbarrier is outside it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    unsigned r = cl_rank();
    if (r == 1 && TID == 0) {
        u64 g; asm volatile("mapa.u64 %0, %1, 0;" : "=l"(g) : "l"((u64)&bar));
        asm volatile("mbarrier.init.b64 [%0], 1;" :: "l"(g) : "memory");
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    out[0] = 1;
}
