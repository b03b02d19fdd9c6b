// mbarrier-remote-arrive-count-zero
// 9.7.13.15.13: the count of a .shared::cluster arrive must lie in the range of Contents of the mbarrier object (at least 1).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out, unsigned n)
{
    __shared__ u64 bar;
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (TID == 0) { mb_init(b, 2); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (r == 1 && TID == 0)
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;" :: "r"(mapa(b, 0)), "r"(n) : "memory");
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
