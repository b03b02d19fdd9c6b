// bar-warp-sync-then-bar-sync-with-exited-half-warp
// 9.7.13.1/2: lanes 16-31 exit; bar.warp.sync 0xffff and bar.sync then wait only for the non-exited lanes and warps.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int v[64];
    if (WARP == 0 && LANE >= 16) return;
    asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&v[TID])), "r"((int)TID + 1) : "memory");
    if (WARP == 0) asm volatile("bar.warp.sync 0xffff;" ::: "memory");
    __syncthreads();
    unsigned o = TID < 16 ? TID + 32 : TID - 32;
    if (TID >= 48) return; // v[16..31] belong to the exited lanes and were never written
    int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&v[o])) : "memory");
    out[TID] = x;
}
