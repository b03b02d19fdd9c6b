// warp-lanes-without-sync-race
// 9.7.13.2: without bar.warp.sync there is no ordering between lanes of a warp.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[32];
    asm volatile("st.shared.u32 [%0], %1;" :: "r"(sa(&s[LANE])), "r"(LANE + 1) : "memory");
    int x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(sa(&s[31 - LANE])) : "memory");
    out[LANE] = x;
}
