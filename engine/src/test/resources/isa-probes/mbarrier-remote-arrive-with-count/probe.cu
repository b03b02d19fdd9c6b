// mbarrier-remote-arrive-with-count
// 9.7.13.15.13: a remote arrive with count decrements the peer's pending count by count.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int slots[32];
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (r == 0 && TID == 0) { mb_init(b, 32); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (r == 1 && TID == 0) asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;" :: "r"(mapa(b, 0)), "r"(32u) : "memory");
    if (r == 0) { mb_wait_par(b, 0); out[TID] = 3; }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
