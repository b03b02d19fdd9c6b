// mbarrier-generic-remote-expect-complete-tx
// 9.7.13.15.11/12: with generic addressing, an address in the .shared::cluster window is defined for expect_tx and complete_tx.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    u64 remAddr;
    asm volatile("mapa.u64 %0, %1, 0;" : "=l"(remAddr) : "l"((u64)&bar));
    if (r == 0 && TID == 0) { mb_init(b, 1); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    if (r == 1 && TID == 0) {
        asm volatile("mbarrier.expect_tx.relaxed.cluster.b64 [%0], 128;" :: "l"(remAddr) : "memory");
        asm volatile("mbarrier.complete_tx.relaxed.cluster.b64 [%0], 128;" :: "l"(remAddr) : "memory");
    }
    if (r == 0) { if (TID == 0) mb_arrive(b); mb_wait_par(b, 0); out[TID] = 4; }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
