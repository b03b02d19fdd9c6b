// bulk-copy-shared-cta-to-own-shared-cluster
// 9.7.9.25.4.1: the .shared::cluster destination may be the executing CTA's own shared memory; complete-tx goes to its own mbarrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ __align__(16) int s[4];
    __shared__ __align__(16) int d[4];
    __shared__ u64 bar;
    if (TID != 0) return;
    unsigned b = sa(&bar);
    for (int i = 0; i < 4; i++) asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&s[i])), "r"(20 + i) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    mb_init(b, 1);
    mb_arrive_tx(b, 16);
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"
                 :: "r"(sa(d)), "r"(sa(s)), "r"(b) : "memory");
    mb_wait_par(b, 0);
    for (int i = 0; i < 4; i++) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(sa(&d[i])) : "memory"); out[i] = v; }
}
