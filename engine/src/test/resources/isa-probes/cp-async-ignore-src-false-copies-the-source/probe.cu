// cp-async-ignore-src-false-copies-the-source
// 9.7.9.25.3.1 (cp.async): "If the argument ignore-src is not specified then it defaults to False"; a false ignore-src copies the source.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    if (TID != 0) return;
    for (int i = 0; i < 4; i++) st_s(sa(&s[i]), 99);
    asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.u32 q, %2, 0;\n\tcp.async.ca.shared.global [%0], [%1], 16, q;\n\t}"
                 :: "r"(sa(s)), "l"(in), "r"(0) : "memory");
    asm volatile("cp.async.wait_all;" ::: "memory");
    for (int i = 0; i < 4; i++) out[i] = ld_s(sa(&s[i]));
}
