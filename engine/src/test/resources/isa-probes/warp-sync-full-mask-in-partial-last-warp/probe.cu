// warp-sync-full-mask-in-partial-last-warp
// 9.7.13.2: bar.warp.sync 0xffffffff in a partial last warp waits for the lanes that exist and orders their accesses (40 threads).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[40];
    st_s(sa(&s[TID]), TID + 1);
    asm volatile("bar.warp.sync %0;" :: "r"(0xffffffffu) : "memory");
    out[TID] = ld_s(sa(&s[(TID & ~31u) + ((TID & 31u) ^ 1u)]));
}
