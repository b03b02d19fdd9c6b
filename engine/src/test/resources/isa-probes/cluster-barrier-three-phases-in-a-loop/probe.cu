// cluster-barrier-three-phases-in-a-loop
// 9.7.13.3: the barrier is reused phase after phase; each wait sees the peer's store made before its arrive in that phase.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int v[3];
    unsigned r = cl_rank();
    int sum = 0;
    for (int i = 0; i < 3; i++) {
        if (TID == 0) st_cl(mapa(sa(&v[i]), r ^ 1), 100 * i + r);
        asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
        if (TID == 0) sum += ld_cl(sa(&v[i]));
    }
    if (TID == 0) out[r] = sum;
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
