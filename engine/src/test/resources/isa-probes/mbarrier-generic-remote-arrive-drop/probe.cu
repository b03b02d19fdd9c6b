// mbarrier-generic-remote-arrive-drop
// 9.7.13.15.14: with generic addressing, an address in the .shared::cluster window is defined for arrive_drop (sink destination).
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
    if (r == 0 && TID == 0) { mb_init(b, 2); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    if (r == 1 && TID == 0) asm volatile("mbarrier.arrive_drop.release.cluster.b64 _, [%0];" :: "l"(remAddr) : "memory");
    if (r == 0 && TID == 0) {
        mb_arrive(b);
        mb_wait_par(b, 0);
        u64 s = mb_arrive(b);
        out[0] = mb_test(b, s);
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
