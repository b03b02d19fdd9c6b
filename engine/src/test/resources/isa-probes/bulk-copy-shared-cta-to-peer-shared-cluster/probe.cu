// bulk-copy-shared-cta-to-peer-shared-cluster
// 9.7.9.25.4.1 / 9.7.13.15.5.2: cp.async.bulk.shared::cluster.shared::cta copies into the peer's shared memory, then performs complete-tx of its bytes on the peer's mbarrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ __align__(16) int s[4];
    __shared__ __align__(16) int d[4];
    __shared__ u64 bar;
    unsigned r = cl_rank();
    unsigned b = sa(&bar);
    if (TID == 0) {
        for (int i = 0; i < 4; i++) asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&s[i])), "r"(10 * (int)r + i) : "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        mb_init(b, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (TID == 0) {
        if (r == 0)
            asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];"
                         :: "r"(mapa(sa(d), 1)), "r"(sa(s)), "r"(mapa(b, 1)) : "memory");
        else {
            mb_arrive_tx(b, 16);
            mb_wait_par(b, 0);
            for (int i = 0; i < 4; i++) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(sa(&d[i])) : "memory"); out[i] = v; }
        }
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
