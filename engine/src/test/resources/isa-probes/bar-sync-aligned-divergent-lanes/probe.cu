// bar-sync-aligned-divergent-lanes
// 9.7.13.1: an aligned barrier in conditionally executed code that threads evaluate differently is undefined.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (TID & 1) asm volatile("bar.sync 0;" ::: "memory");
    else asm volatile("bar.cta.sync 0;" ::: "memory");
    out[TID] = 1;
}
