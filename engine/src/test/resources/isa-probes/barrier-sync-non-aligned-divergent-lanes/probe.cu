// barrier-sync-non-aligned-divergent-lanes
// 9.7.13.1: without .aligned, threads of a warp may reach barrier.sync through different instructions.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    __shared__ int s[64];
    s[TID] = TID + 1;
    if (TID & 1) asm volatile("barrier.sync 0;" ::: "memory");
    else asm volatile("barrier.cta.sync 0;" ::: "memory");
    out[TID] = s[63 - TID];
}
