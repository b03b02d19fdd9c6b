// ld-shared-cta-with-own-cluster-address-reads-own
// 5.1.4: the executing CTA's own shared::cluster address (mapa to its own rank) belongs to its own window: ld.shared::cta reads its own variable.
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
    if (TID == 0) st_cta(sa(&v), 5 + (int)r);
    __syncthreads();
    if (TID == 0) out[r] = ld_cta(mapa(sa(&v), r));
    cl_sync();
}