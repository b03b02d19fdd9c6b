// warp-sync-mask-zero
// 9.7.13.2: the executing thread must be in membermask.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    asm volatile("bar.warp.sync %0;" :: "r"(0u) : "memory");
    out[TID] = 1;
}
