// cp-async-data-read-before-mbarrier-wait-races
// 9.7.13.15.16 (2): only the wait makes the cp.async writes visible; reading the destination before it races with the copy.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

__device__ __forceinline__ int ld_s(unsigned a) { int v; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }

extern "C" __global__ void probe(int *out, const int *in)
{
    __shared__ __align__(16) int s[4];
    __shared__ u64 bar;
    if (TID != 0) return;
    unsigned b = sa(&bar);
    mb_init(b, 1);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(sa(s)), "l"(in) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
    for (int i = 0; i < 4; i++) out[i] = ld_s(sa(&s[i])) + 100;
    mb_wait_par(b, 0);
}
