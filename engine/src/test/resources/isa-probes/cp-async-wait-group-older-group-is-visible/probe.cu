// cp-async-wait-group-older-group-is-visible
// 9.7.9.25.3: after wait_group 2 all groups older than the newest two are complete: the oldest group's data is read, in order.
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
    cp4(sa(&s[0]), in + 3);
    cp4(sa(&s[1]), in + 1);
    cp4(sa(&s[2]), in + 2);
    asm volatile("cp.async.wait_group 2;" ::: "memory");
    out[0] = ld_s(sa(&s[0])) + 10;
    asm volatile("cp.async.wait_all;" ::: "memory");
}