// red-add-from-two-warps-then-bar-sync
// 9.7.13.6: red performs the reduction atomically; 64 red.add of 1 on one location give 64, seen by all after bar.sync.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int lds(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void sts(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void probe(int *out)
{
    __shared__ int v;
    if (TID == 0) sts(sa(&v), 0);
    __syncthreads();
    asm volatile("red.shared.add.u32 [%0], 1;" :: "r"(sa(&v)) : "memory");
    asm volatile("red.global.add.u32 [%0], 1;" :: "l"(out + 64) : "memory");
    __syncthreads();
    out[TID] = lds(sa(&v));
}
