// mbarrier-remote-expect-and-complete-tx
// 9.7.13.15.8/11/12: expect_tx and complete_tx are supported on an mbarrier in .shared::cluster.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int slots[32];
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (r == 0 && TID == 0) { mb_init(b, 1); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (r == 1 && TID == 0) {
        unsigned rb = mapa(b, 0);
        asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], 16;" :: "r"(rb) : "memory");
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(rb) : "memory");
        asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], 16;" :: "r"(rb) : "memory");
    }
    if (r == 0) { mb_wait_par(b, 0); out[TID] = 5; }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
