// mbarrier-own-cta-expect-and-complete-tx-through-shared-cluster
// 9.7.13.15.8/11/12: expect_tx and complete_tx with .shared::cluster on the executing CTA's own object (mapa to its own rank) track its tx-count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (TID == 0) {
        unsigned m = mapa(b, r);
        mb_init(b, 1);
        asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], 64;" :: "r"(m) : "memory");
        mb_arrive(b);
        out[2 * r] = mb_test_par(b, 0);
        asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], 64;" :: "r"(m) : "memory");
        out[2 * r + 1] = mb_test_par(b, 0);
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
