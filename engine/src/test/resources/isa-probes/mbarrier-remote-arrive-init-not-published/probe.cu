// mbarrier-remote-arrive-init-not-published
// 9.7.13.15.9 / 9.7.13.4: a relaxed cluster arrive without fence.mbarrier_init does not publish the init to the peer's remote arrive.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (r == 0 && TID == 0) mb_init(b, 1);
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (r == 1 && TID == 0) asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(b, 0)) : "memory");
    if (r == 0 && TID == 0) { mb_wait_par(b, 0); out[0] = 1; }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
