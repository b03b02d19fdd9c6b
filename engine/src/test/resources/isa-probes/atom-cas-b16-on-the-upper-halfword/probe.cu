// atom-cas-b16-on-the-upper-halfword
// 9.7.13.5: atom.cas.b16 compares and swaps one 16-bit location; the other half of the word is untouched.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int lds(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void sts(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ unsigned v;
    unsigned x = sa(&v);
    sts(x, 0x00050007);
    unsigned short r, cmp = 5, nw = 9;
    asm volatile("atom.shared.cas.b16 %0, [%1], %2, %3;" : "=h"(r) : "r"(x + 2), "h"(cmp), "h"(nw) : "memory");
    out[0] = r;
    out[1] = lds(x);
}
