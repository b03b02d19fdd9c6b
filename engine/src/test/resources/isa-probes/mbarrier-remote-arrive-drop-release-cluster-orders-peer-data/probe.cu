// mbarrier-remote-arrive-drop-release-cluster-orders-peer-data
// 9.7.13.15.14: .scope is the set of threads an arrive_drop can directly synchronize; .release.cluster on a peer's object orders the dropper's DSMEM stores before a .cluster acquire wait.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int slots[32];
    unsigned b = sa(&bar);
    unsigned r = cl_rank();
    if (r == 0 && TID == 0) { mb_init(b, 2); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (r == 1 && TID == 0) {
        for (int i = 0; i < 32; i++) st_cl(mapa(sa(&slots[i]), 0), 1000 + i);
        // Drops itself from later phases and arrives on CTA 0's mbarrier, scope cluster.
        asm volatile("mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(b, 0)) : "memory");
    }
    if (r == 0) {
        if (TID == 0) mb_arrive(b);
        unsigned ok = 0;
        while (!ok) asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(ok) : "r"(b) : "memory");
        out[TID] = slots[TID];
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
}
