// warp-sync-does-not-order-non-members
// 9.7.13.2: bar.warp.sync orders memory among the threads participating in it only; lane 20 is not in the mask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out)
{
    __shared__ int v;
    if (LANE == 20) st_s(sa(&v), 42);
    if (LANE < 16) {
        asm volatile("bar.warp.sync %0;" :: "r"(0xffffu) : "memory");
        if (LANE == 0) out[0] = ld_s(sa(&v));
    }
}
