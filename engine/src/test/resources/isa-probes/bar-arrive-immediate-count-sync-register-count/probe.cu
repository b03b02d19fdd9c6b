// bar-arrive-immediate-count-sync-register-count
// 9.7.13.1: producers bar.arrive and consumers bar.sync with the same barrier and thread count (immediate 64 and a register holding 64).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int lds(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void sts(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void probe(int *out, unsigned id)
{
    __shared__ int v;
    if (WARP == 0) {
        if (TID == 0) sts(sa(&v), 9);
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else {
        asm volatile("bar.sync 1, %0;" :: "r"(id) : "memory");
        out[TID] = lds(sa(&v));
    }
}
