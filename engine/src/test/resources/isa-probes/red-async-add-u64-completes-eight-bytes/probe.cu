// red-async-add-u64-completes-eight-bytes
// 9.7.13.7: .add.u64 reduces a 64-bit location; complete-tx counts the bytes stored (8), with the carry into the upper word.
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
    if (TID == 0) { st_s(sa(&v[0]), -1); st_s(sa(&v[1]), 0); mb_init(b, 1); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    unsigned pv = mapa(sa(&v[0]), 1), pb = mapa(b, 1);
    if (r == 0 && TID == 0) {
        asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%0], %1, [%2];" :: "r"(pv), "l"(1ull), "r"(pb) : "memory");
    }
    if (r == 1 && TID == 0) { mb_arrive_tx(b, 8); mb_wait_par(b, 0); for (int i = 0; i < 2; i++) out[i] = ld_s(sa(&v[i])); }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
