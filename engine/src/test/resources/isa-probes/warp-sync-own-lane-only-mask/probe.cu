// warp-sync-own-lane-only-mask
// 9.7.13.2: bar.warp.sync waits until all threads of membermask executed it; a mask of the executing lane alone is met at once.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    // Odd lanes go a different way first: every lane still meets only itself.
    if (LANE & 1) asm volatile("bar.warp.sync %0;" :: "r"(1u << LANE) : "memory");
    else asm volatile("bar.warp.sync %0;" :: "r"(1u << LANE) : "memory");
    out[TID] = LANE;
}
