// red-async-generic-addressing
// 9.7.13.7: if .ss is not specified, generic addressing is used for a and mbar (generic addresses in the peer's shared::cluster window).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ u64 bar;
    __shared__ __align__(16) int v[4];
    unsigned r = cl_rank();
    unsigned b = sa(&bar);
    if (TID == 0) { st_s(sa(&v[0]), 10); mb_init(b, 1); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    unsigned pv = mapa(sa(&v[0]), 1), pb = mapa(b, 1);
    if (r == 0 && TID == 0) {
        u64 ga, gb;
        asm volatile("mapa.u64 %0, %1, 1;" : "=l"(ga) : "l"((u64)&v[0]));
        asm volatile("mapa.u64 %0, %1, 1;" : "=l"(gb) : "l"((u64)&bar));
        asm volatile("red.async.relaxed.cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" :: "l"(ga), "r"(5), "l"(gb) : "memory");
    }
    if (r == 1 && TID == 0) { mb_arrive_tx(b, 4); mb_wait_par(b, 0); for (int i = 0; i < 1; i++) out[i] = ld_s(sa(&v[i])); }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
