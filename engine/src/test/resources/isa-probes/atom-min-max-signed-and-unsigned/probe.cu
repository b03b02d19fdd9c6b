// atom-min-max-signed-and-unsigned
// 9.7.13.5: .min/.max compare as the instruction type: -1 is the least .s32 and 0xffffffff the greatest .u32.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int lds(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void sts(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

extern "C" __global__ void probe(int *out)
{
    if (TID != 0) return;
    __shared__ int v[2];
    unsigned a = sa(&v[0]), c = sa(&v[1]);
    int r;
    sts(a, -1); sts(c, -1);
    asm volatile("atom.shared.min.s32 %0, [%1], 1;" : "=r"(r) : "r"(a) : "memory");
    asm volatile("atom.shared.min.u32 %0, [%1], 1;" : "=r"(r) : "r"(c) : "memory");
    out[0] = lds(a); out[1] = lds(c);
    asm volatile("atom.shared.max.s32 %0, [%1], 1;" : "=r"(r) : "r"(a) : "memory");
    asm volatile("atom.shared.max.u32 %0, [%1], 7;" : "=r"(r) : "r"(c) : "memory");
    out[2] = lds(a); out[3] = lds(c);
}
