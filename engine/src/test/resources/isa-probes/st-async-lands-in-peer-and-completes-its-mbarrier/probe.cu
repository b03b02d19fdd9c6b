// st-async-lands-in-peer-and-completes-its-mbarrier
// 9.7.9.12 / 9.7.13.15.5.2: st.async writes the peer CTA's shared memory and performs complete-tx of its bytes on the peer's mbarrier.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int v;
    unsigned r = cl_rank();
    unsigned b = sa(&bar);
    if (TID == 0) { st_s(sa(&v), 0); mb_init(b, 1); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (r == 0 && TID == 0)
        asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" :: "r"(mapa(sa(&v), 1)), "r"(42), "r"(mapa(b, 1)) : "memory");
    if (r == 1 && TID == 0) { mb_arrive_tx(b, 4); mb_wait_par(b, 0); out[0] = ld_s(sa(&v)); }
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
    asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}
