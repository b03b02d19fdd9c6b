// barrier-sync-immediate-and-register-id-name-one-barrier
// 9.7.13.1: a names a barrier as an immediate or a register; barrier.sync 3 and barrier.sync r (r = 3) meet on barrier 3.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int lds(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void sts(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void probe(int *out, unsigned id)
{
    __shared__ int v;
    if (TID == 0) sts(sa(&v), 7);
    if (WARP == 0) asm volatile("barrier.sync 3;" ::: "memory");
    else asm volatile("barrier.sync %0;" :: "r"(id) : "memory");
    out[TID] = lds(sa(&v));
}
