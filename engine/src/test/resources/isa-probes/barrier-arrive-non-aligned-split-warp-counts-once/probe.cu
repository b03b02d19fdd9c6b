// barrier-arrive-non-aligned-split-warp-counts-once
// 9.7.13.1: barrier.arrive waits for all non-exited threads of its warp and marks the warp's arrival (non-aligned, lanes at two instructions).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out)
{
    __shared__ int v;
    if (WARP == 1) {
        if (LANE < 16) { if (LANE == 0) st_s(sa(&v), 7); asm volatile("barrier.arrive 2, 64;" ::: "memory"); }
        else asm volatile("barrier.arrive 2, 64;" ::: "memory");
        return;
    }
    asm volatile("barrier.sync 2, 64;" ::: "memory");
    out[TID] = ld_s(sa(&v));
}
