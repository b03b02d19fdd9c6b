// warp-sync-partial-mask-orders-memory
// 9.7.13.2: threads in membermask store, bar.warp.sync, then read each other's values.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[16];
    if (LANE < 16) {
        s[LANE] = LANE * 3;
        asm volatile("bar.warp.sync %0;" :: "r"(0xffffu) : "memory");
        out[LANE] = s[15 - LANE];
    } else out[LANE] = -1;
}
