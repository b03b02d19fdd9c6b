// mbarrier-remote-arrive-relaxed-gives-no-ordering
// 9.7.13.15.13: a .relaxed remote arrive carries no ordering: the peer's DSMEM stores race with CTA 0's reads after its acquire wait.
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
    if (r == 1) {
        st_cl(mapa(sa(&slots[TID]), 0), 1000 + TID);
        asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" :: "r"(mapa(b, 0)) : "memory");
    } else {
        unsigned ok = 0;
        while (!ok) asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(ok) : "r"(b) : "memory");
        int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&slots[TID])) : "memory");
        out[TID] = x;
    }
    asm volatile("barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");

}
