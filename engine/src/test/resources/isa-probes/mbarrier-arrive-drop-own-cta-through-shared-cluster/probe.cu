// mbarrier-arrive-drop-own-cta-through-shared-cluster
// 9.7.13.15.14/8: arrive_drop in its .shared::cluster form (sink destination) on the CTA's own object lowers its expected count for later phases.
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
        asm volatile("mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(b, r)) : "memory");
        out[3 * r] = mb_test_par(b, 0);
        mb_arrive(b);
        out[3 * r + 1] = mb_test_par(b, 0);
        mb_arrive(b);
        out[3 * r + 2] = mb_test_par(b, 1);
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
