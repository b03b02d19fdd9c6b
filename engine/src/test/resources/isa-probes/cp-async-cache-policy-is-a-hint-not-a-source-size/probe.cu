// cp-async-cache-policy-is-a-hint-not-a-source-size
// 9.7.9.25.3.1 (cp.async): cache-policy "is treated as a performance hint only"; with .L2::cache_hint and no src-size the whole cp-size is copied.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[8];
    if (TID != 0) return;
    for (int i = 0; i < 8; i++) st_s(sa(&s[i]), 99);
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" :: "r"(sa(s)), "l"(in), "l"(0ull) : "memory");
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2, %3;" :: "r"(sa(s + 4)), "l"(in + 4), "r"(8), "l"(4ull) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    for (int i = 0; i < 8; i++) out[i] = ld_s(sa(&s[i]));
}
