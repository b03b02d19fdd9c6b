// bar-sync-count-does-not-order-non-participants
// 9.7.13.1: bar.sync with a count orders memory only among participating threads; a non-participant's write races.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out)
{
    __shared__ int v;
    if (WARP == 2) { if (LANE == 0) st_s(sa(&v), 42); return; }
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (TID == 0) out[0] = ld_s(sa(&v));
}
