// mbarrier-own-cta-through-shared-cluster
// 9.7.13.15.8/13: the .shared::cluster arrive form on the executing CTA's own mbarrier (mapa to its own rank) arrives on it.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (TID == 0) {
        mb_init(b, 2);
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(b, r)) : "memory");
        asm volatile("mbarrier.arrive.release.cta.shared::cluster.b64 _, [%0];" :: "r"(b) : "memory");
        out[r] = mb_test_par(b, 0);
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
