// mbarrier-generic-remote-arrive-with-count-and-expect-tx
// 9.7.13.15.13 examples: mbarrier.arrive.release.cluster.b64 _, [remoteAddr64], cnt and arrive.expect_tx.release.cluster.b64 _, [remoteAddr64], tx_count on a mapa.u64 address.
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
    if (r == 0 && TID == 0) { mb_init(b, 33); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    if (r == 1 && TID == 0) {
        asm volatile("mbarrier.arrive.release.cluster.b64 _, [%0], %1;" :: "l"(remAddr), "r"(32u) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.release.cluster.b64 _, [%0], %1;" :: "l"(remAddr), "r"(64u) : "memory");
        asm volatile("mbarrier.complete_tx.relaxed.cluster.b64 [%0], 64;" :: "l"(remAddr) : "memory");
    }
    if (r == 0) { mb_wait_par(b, 0); out[TID] = 2; }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
