// bar-sync-half-exited-warp-counts-as-a-warp
// 9.7.13.1: the barrier marks warps' arrival; a warp with exited lanes arrives as a warp toward b.
// ISA probe: one normative sentence of PTX ISA 9.7.13, run through the engine and checked
// against the outcome the ISA text predicts (see the expect block of launch.json).
#include "../probe.h"

extern "C" __global__ void probe(int *out)
{
    if (WARP == 1 && LANE >= 16) return;
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[TID] = 1;
}
