// warp-sync-at-two-instructions-same-mask
// 9.7.13.2: wait until all threads of membermask executed a bar.warp.sync with the same membermask (sm_70+: not necessarily the same instruction).
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[32];
    s[LANE] = LANE + 5;
    if (LANE & 1) asm volatile("bar.warp.sync %0;" :: "r"(0xffffffffu) : "memory");
    else asm volatile("bar.warp.sync %0;" :: "r"(0xffffffffu) : "memory");
    out[LANE] = s[31 - LANE];
}
