// mbarrier-write-after-release-arrive-races
// 9.7.13.15.16: no ordering for accesses after the release arrive and before the wait.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ u64 bar;
    __shared__ int s[32];
    unsigned b = sa(&bar);
    if (TID == 0) mb_init(b, 32);
    __syncthreads();
    if (WARP == 0) { mb_arrive(b); asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&s[LANE])), "r"(LANE + 1) : "memory"); }
    else { mb_wait_par(b, 0); int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&s[LANE])) : "memory"); out[LANE] = x; }
}
