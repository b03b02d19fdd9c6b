// cp-async-same-bytes-in-two-groups-land-in-commit-order
// 9.7.9.25.1.1: "All async-groups committed by an executing thread always complete in the order in which they were committed"; the later group's bytes win.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ void st_s(unsigned a, int v) { asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    if (TID != 0) return;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(sa(s)), "l"(in) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(sa(s)), "l"(in + 4) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    for (int i = 0; i < 4; i++) out[i] = ld_s(sa(&s[i]));
}
