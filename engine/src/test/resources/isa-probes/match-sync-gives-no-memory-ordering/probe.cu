// match-sync-gives-no-memory-ordering
// 9.7.13.10 vs 9.7.13.2: match.sync gives no memory ordering (only bar.warp.sync does), so the read races.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ unsigned match_any(unsigned a, unsigned m)
{ unsigned r; asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(m) : "memory"); return r; }

extern "C" __global__ void probe(int *out)
{
    __shared__ int v;
    if (LANE == 1) st_s(sa(&v), 42);
    unsigned r = match_any(1u, 0xffffffffu);
    if (LANE == 0) out[0] = ld_s(sa(&v)) + (int)r;
}
