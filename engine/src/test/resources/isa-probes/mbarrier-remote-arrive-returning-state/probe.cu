// mbarrier-remote-arrive-returning-state
// 9.7.13.15.13: an arrive on an mbarrier in .shared::cluster but not .shared::cta cannot return a value; the sink is mandatory.
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
    if (r == 1 && TID == 0) {
        u64 g, st; asm volatile("mapa.u64 %0, %1, 0;" : "=l"(g) : "l"((u64)&bar));
        asm volatile("mbarrier.arrive.release.cluster.b64 %0, [%1];" : "=l"(st) : "l"(g) : "memory");
        out[0] = (int)st;
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
