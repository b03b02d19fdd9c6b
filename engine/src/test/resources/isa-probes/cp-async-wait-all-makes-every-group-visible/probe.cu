// cp-async-wait-all-makes-every-group-visible
// 9.7.9.25.3: cp.async.wait_all is commit_group then wait_group 0: every copy of every group is complete and visible after it.
// ISA probe: one normative sentence of PTX ISA 9.7.13 (or a section it leans on), run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
__device__ __forceinline__ void cp4(unsigned dst, const int *src)
{ asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n\tcp.async.commit_group;" :: "r"(dst), "l"(src) : "memory"); }
__device__ __forceinline__ void spin() { for (volatile int i = 0; i < 700; i++) { } }

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    if (TID != 0) return;
    for (int i = 0; i < 4; i++) cp4(sa(&s[i]), in + 3 - i);
    asm volatile("cp.async.wait_all;" ::: "memory");
    for (int i = 0; i < 4; i++) out[i] = ld_s(sa(&s[i]));
}