// atom-inc-and-dec-with-bound-zero
// 9.7.13.5: inc(r, 0) = 0 for every r (r >= 0); dec(r, 0) = 0 for every r (r == 0 or r > 0).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int lds(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void sts(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ unsigned v;
    unsigned x = sa(&v), r;
    sts(x, 7);
    asm volatile("atom.shared.inc.u32 %0, [%1], 0;" : "=r"(r) : "r"(x) : "memory"); out[0] = r; out[1] = lds(x);
    asm volatile("atom.shared.dec.u32 %0, [%1], 0;" : "=r"(r) : "r"(x) : "memory"); out[2] = r;
    sts(x, 3);
    asm volatile("atom.shared.dec.u32 %0, [%1], 0;" : "=r"(r) : "r"(x) : "memory"); out[3] = r; out[4] = lds(x);
}
