// bar-sync-count-64-with-a-partial-second-warp
// 9.7.13.1: the barrier marks warps' arrival; with 48 threads, warps 0 and 1 (16 lanes) arriving make up a count of 64.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int v[48];
    asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&v[TID])), "r"((int)TID + 1) : "memory");
    asm volatile("bar.sync 1, 64;" ::: "memory");
    int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&v[47 - TID])) : "memory");
    out[TID] = x;
}
