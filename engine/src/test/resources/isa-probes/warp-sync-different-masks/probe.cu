// warp-sync-different-masks
// 9.7.13.2: threads wait for all threads of membermask to execute bar.warp.sync with the same membermask value.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    unsigned m = LANE < 16 ? 0xffffu : 0xffffffffu;
    asm volatile("bar.warp.sync %0;" :: "r"(m) : "memory");
    out[TID] = 1;
}
