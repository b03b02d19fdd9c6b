// atom-dec-wraps-at-zero-and-above-its-bound
// 9.7.13.5: dec(r, s) = (r == 0 || r > s) ? s : r - 1; atom returns the old value.
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
    sts(x, 0);
    asm volatile("atom.shared.dec.u32 %0, [%1], %2;" : "=r"(r) : "r"(x), "r"(2u) : "memory"); out[0] = r;
    asm volatile("atom.shared.dec.u32 %0, [%1], %2;" : "=r"(r) : "r"(x), "r"(2u) : "memory"); out[1] = r;
    asm volatile("atom.shared.dec.u32 %0, [%1], %2;" : "=r"(r) : "r"(x), "r"(2u) : "memory"); out[2] = r;
    sts(x, 5);
    asm volatile("atom.shared.dec.u32 %0, [%1], %2;" : "=r"(r) : "r"(x), "r"(2u) : "memory"); out[3] = r;
    out[4] = lds(x);
}
