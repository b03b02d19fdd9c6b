// st-shared-cta-with-peer-cluster-address-faults
// 5.1.4: st.shared::cta must name the executing CTA's window; storing through a peer's mapa address is outside it (memory-fault, the peer is not written).
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int ld_cta(unsigned a) { int v; asm volatile("ld.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ int ld_plain(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void st_cta(unsigned a, int v) { asm volatile("st.shared::cta.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ void cl_sync() { asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory"); }

extern "C" __global__ void __cluster_dims__(2, 1, 1) probe(int *out)
{
    __shared__ int v;
    unsigned r = cl_rank();
    if (TID == 0 && r == 0) st_cta(mapa(sa(&v), 1u), 9);
    cl_sync();
    if (TID == 0) out[r] = ld_cta(sa(&v));
}