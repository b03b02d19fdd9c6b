// ld-shared-defaults-to-cta-window-peer-address-faults
// 5.1.4: with no sub-qualifier .shared defaults to ::cta, so ld.shared of a peer's shared::cluster address is outside the executing CTA's window too.
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
    cl_sync();
    if (TID == 0) out[r] = ld_plain(mapa(sa(&v), r ^ 1u));
    cl_sync();
}